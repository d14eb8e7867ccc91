import Foundation
import GRDB
import Protocol

extension SQLiteJournalStore {
  /// Keeps `game` (once per source), with a row per player who gave a player token.
  func keep(_ game: FinishedGame, in db: Database) throws {
    // The record is kept without its id: the row's number (AUTOINCREMENT) gives it.
    try db.cachedStatement(
      sql: """
        INSERT OR IGNORE INTO finished_game (source, game, list, ended_at, seconds, score, record)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """
    ).execute(arguments: [
      game.source, game.game, ScoreList(of: game).id, game.endedAt, game.seconds, game.score,
      try game.storedJSON(encoder: encoder),
    ])
    // Kept already (one game per source).
    guard db.changesCount > 0 else { return }
    let number = db.lastInsertedRowID
    for player in Set(game.players.compactMap(\.player)) {
      try db.cachedStatement(
        sql: "INSERT OR IGNORE INTO finished_player (player, game_number) VALUES (?, ?)"
      ).execute(arguments: [player, number])
    }
    try rate(game, number: number, in: db)
  }

  public func removeFinishedGames(endedBefore cutoff: Double, limit: Int) throws -> Int {
    // On the writer's connection (GRDB runs one write at a time on it), so the journal writer
    // waits for at most one such short transaction; a connection of its own would meet the
    // writer's lock as SQLITE_BUSY instead. Both indexes make it a few lookups per game.
    try database.write { db in
      let numbers = try Int.fetchAll(
        db, sql: "SELECT number FROM finished_game WHERE ended_at < ? ORDER BY ended_at LIMIT ?",
        arguments: [cutoff, max(0, limit)])
      guard !numbers.isEmpty else { return 0 }
      let list = numbers.map(String.init).joined(separator: ",")
      try db.execute(sql: "DELETE FROM finished_player WHERE game_number IN (\(list))")
      try db.execute(sql: "DELETE FROM rating_change WHERE game_number IN (\(list))")
      try db.execute(sql: "DELETE FROM finished_game WHERE number IN (\(list))")
      return numbers.count
    }
  }

  public func scores(_ query: ScoresQuery) throws -> ScoresPage {
    if query.mine && query.player == nil {
      return ScoresPage(list: query.list, total: 0, games: [])
    }
    // The game's games (the player's, with `mine`), then those of one list.
    var theirs = "game = ?"
    var arguments: StatementArguments = [query.game]
    if query.mine, let player = query.player {
      theirs += " AND number IN (SELECT game_number FROM finished_player WHERE player = ?)"
      arguments += [player]
    }
    let filter = theirs + " AND list = ?"
    let order = query.orderBy
    let decoder = JSONDecoder()
    return try reader.read { db in
      var lists: [ScoreList: Int] = [:]
      for row in try Row.fetchAll(
        db, sql: "SELECT list, COUNT(*) AS n FROM finished_game WHERE \(theirs) GROUP BY list",
        arguments: arguments)
      {
        if let list = ScoreList(id: row["list"]) { lists[list] = row["n"] }
      }
      let latest = try String.fetchOne(
        db,
        sql:
          "SELECT list FROM finished_game WHERE \(theirs) ORDER BY ended_at DESC, number DESC LIMIT 1",
        arguments: arguments)
      guard let list = query.list ?? latest.flatMap(ScoreList.init(id:)) else {
        return ScoresPage(lists: lists, total: 0, games: [])
      }
      let base = arguments + [list.id]
      func games(_ sql: String, _ more: StatementArguments = []) throws -> [FinishedGame] {
        try withRatings(
          Row.fetchAll(db, sql: sql, arguments: base + more).map {
            try FinishedGame.kept(number: $0["number"], record: $0["record"], decoder: decoder)
          }, in: db)
      }
      let total = lists[list] ?? 0
      let page = try games(
        "SELECT number, record FROM finished_game WHERE \(filter) ORDER BY \(order) LIMIT ? OFFSET ?",
        [query.pageSize, query.page * query.pageSize])
      let best = try games(
        "SELECT number, record FROM finished_game WHERE \(filter) "
          + "ORDER BY score DESC, ended_at ASC, number ASC LIMIT 1")
      let shortest = try games(
        "SELECT number, record FROM finished_game WHERE \(filter) "
          + "ORDER BY seconds ASC, ended_at ASC, number ASC LIMIT 1")
      return ScoresPage(
        list: list, lists: lists, total: total, games: page, best: best.first,
        shortest: shortest.first)
    }
  }

  public func daily(game: String, day: String) throws -> [FinishedGame] {
    let decoder = JSONDecoder()
    return try reader.read { db in
      try Row.fetchAll(
        db, sql: "SELECT number, record FROM finished_game WHERE game = ? AND daily = ?",
        arguments: [game, day]
      ).map { try FinishedGame.kept(number: $0["number"], record: $0["record"], decoder: decoder) }
    }
  }

  public func finishedGame(id: String) throws -> FinishedGame? {
    guard let number = FinishedGame.number(ofID: id) else { return nil }
    let decoder = JSONDecoder()
    return try reader.read { db in
      try String.fetchOne(
        db, sql: "SELECT record FROM finished_game WHERE number = ?", arguments: [number]
      ).map {
        try withRatings([FinishedGame.kept(number: number, record: $0, decoder: decoder)], in: db)[
          0]
      }
    }
  }
}
