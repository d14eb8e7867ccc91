import Foundation
import Protocol

extension SQLiteJournalStore {
  /// Keeps `game` (once per source), with a row per player who gave a player token.
  func keep(_ game: FinishedGame, in db: SQLiteConnection) throws {
    // The record is kept without its id: the row's number (AUTOINCREMENT) gives it.
    try db.run(
      """
      INSERT OR IGNORE INTO finished_game (source, game, list, ended_at, seconds, score, record)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .text(game.source), .text(game.game), .text(ScoreList(of: game).id),
        game.endedAt.sqliteValue, game.seconds.sqliteValue, game.score.sqliteValue,
        .text(try game.storedJSON(encoder: encoder)),
      ])
    // Kept already (one game per source).
    guard db.changes > 0 else { return }
    let number = db.lastInsertedRowID
    for player in Set(game.players.compactMap(\.player)) {
      try db.run(
        "INSERT OR IGNORE INTO finished_player (player, game_number) VALUES (?, ?)",
        [.text(player), .integer(number)])
    }
    try rate(game, number: number, in: db)
  }

  public func removeFinishedGames(endedBefore cutoff: Double, limit: Int) throws -> Int {
    // On the writer's connection (its lock lets one transaction at a time run on it), so the
    // journal writer waits for at most one such short transaction; a connection of its own
    // would meet the writer's lock as SQLITE_BUSY instead. Both indexes make it a few lookups
    // per game.
    try database.transaction(.immediate) { db in
      let numbers: [Int] = try db.values(
        "SELECT number FROM finished_game WHERE ended_at < ? ORDER BY ended_at LIMIT ?",
        [cutoff.sqliteValue, max(0, limit).sqliteValue])
      guard !numbers.isEmpty else { return 0 }
      let list = numbers.map(String.init).joined(separator: ",")
      try db.execute("DELETE FROM finished_player WHERE game_number IN (\(list))")
      try db.execute("DELETE FROM rating_change WHERE game_number IN (\(list))")
      try db.execute("DELETE FROM finished_game WHERE number IN (\(list))")
      return numbers.count
    }
  }

  public func scores(_ query: ScoresQuery) throws -> ScoresPage {
    if query.mine && query.player == nil {
      return ScoresPage(list: query.list, total: 0, games: [])
    }
    // The game's games (the player's, with `mine`), then those of one list.
    var theirs = "game = ?"
    var arguments: [SQLiteValue] = [.text(query.game)]
    if query.mine, let player = query.player {
      theirs += " AND number IN (SELECT game_number FROM finished_player WHERE player = ?)"
      arguments += [.text(player)]
    }
    let filter = theirs + " AND list = ?"
    let order = query.orderBy
    let decoder = JSONDecoder()
    return try reader.transaction { db in
      var lists: [ScoreList: Int] = [:]
      for row in try db.rows(
        "SELECT list, COUNT(*) AS n FROM finished_game WHERE \(theirs) GROUP BY list", arguments)
      {
        if let list = ScoreList(id: row["list"]) { lists[list] = row["n"] }
      }
      let latest: String? = try db.value(
        "SELECT list FROM finished_game WHERE \(theirs) ORDER BY ended_at DESC, number DESC LIMIT 1",
        arguments)
      guard let list = query.list ?? latest.flatMap(ScoreList.init(id:)) else {
        return ScoresPage(lists: lists, total: 0, games: [])
      }
      let base = arguments + [.text(list.id)]
      func games(_ sql: String, _ more: [SQLiteValue] = []) throws -> [FinishedGame] {
        try withRatings(
          db.rows(sql, base + more).map {
            try FinishedGame.kept(number: $0["number"], record: $0["record"], decoder: decoder)
          }, in: db)
      }
      let total = lists[list] ?? 0
      let page = try games(
        "SELECT number, record FROM finished_game WHERE \(filter) ORDER BY \(order) LIMIT ? OFFSET ?",
        [query.pageSize.sqliteValue, (query.page * query.pageSize).sqliteValue])
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
    return try reader.transaction { db in
      try db.rows(
        "SELECT number, record FROM finished_game WHERE game = ? AND daily = ?",
        [.text(game), .text(day)]
      ).map { try FinishedGame.kept(number: $0["number"], record: $0["record"], decoder: decoder) }
    }
  }

  public func finishedGame(id: String) throws -> FinishedGame? {
    guard let number = FinishedGame.number(ofID: id) else { return nil }
    let decoder = JSONDecoder()
    return try reader.transaction { db in
      let record: String? = try db.value(
        "SELECT record FROM finished_game WHERE number = ?", [number.sqliteValue])
      guard let record else { return nil }
      return try withRatings(
        [FinishedGame.kept(number: number, record: record, decoder: decoder)], in: db
      ).first
    }
  }
}
