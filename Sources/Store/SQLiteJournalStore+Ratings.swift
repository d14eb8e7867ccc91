import Foundation
import GRDB
import Lobby
import Protocol

extension SQLiteJournalStore {
  /// Rates `game`, just kept as row `number` (``FinishedGame/ratedPlayers``): reads its
  /// players' ratings, writes the new ones and each player's change, in the transaction that
  /// keeps the game. A game kept before (a batch written twice) never reaches here: its
  /// ratings changed once.
  func rate(_ game: FinishedGame, number: Int64, in db: Database) throws {
    let rated = game.ratedPlayers
    guard !rated.isEmpty else { return }
    var before: [String: PlayerRating] = [:]
    for row in rated {
      if let kept = try Row.fetchOne(
        db,
        sql: "SELECT rating, games FROM rating WHERE player = ? AND game = ?",
        arguments: [row.player, game.game])
      {
        before[row.player] = PlayerRating(
          player: row.player, game: game.game, rating: kept["rating"], games: kept["games"])
      }
    }
    for row in game.ratingChanges(before: before) {
      try db.cachedStatement(
        sql: """
          INSERT INTO rating (player, game, rating, games) VALUES (?, ?, ?, ?)
          ON CONFLICT (player, game) DO UPDATE SET rating = excluded.rating, games = excluded.games
          """
      ).execute(arguments: [row.player, game.game, row.change.after, row.change.games])
      try db.cachedStatement(
        sql: """
          INSERT INTO rating_change
            (game_number, player, game, ended_at, rank, before, after, games)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """
      ).execute(arguments: [
        number, row.player, game.game, game.endedAt, row.rank, row.change.before,
        row.change.after, row.change.games,
      ])
    }
  }

  /// `games` with each rated player's change (``FinishedPlayer/rating``).
  func withRatings(_ games: [FinishedGame], in db: Database) throws -> [FinishedGame] {
    let numbers = games.compactMap { FinishedGame.number(ofID: $0.id) }
    guard !numbers.isEmpty else { return games }
    var changes: [Int: [String: RatingChange]] = [:]
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT game_number, player, before, after, games FROM rating_change
        WHERE game_number IN (\(numbers.map(String.init).joined(separator: ",")))
        """)
    {
      changes[row["game_number"], default: [:]][row["player"]] = RatingChange(
        before: row["before"], after: row["after"], games: row["games"])
    }
    return games.map { $0.withRatingChanges(changes) }
  }

  public func ratings(of players: [String]) throws -> [PlayerRating] {
    guard !players.isEmpty else { return [] }
    return try reader.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT player, game, rating, games FROM rating
          WHERE player IN (\(players.map { _ in "?" }.joined(separator: ",")))
          """, arguments: StatementArguments(players)
      ).map {
        PlayerRating(
          player: $0["player"], game: $0["game"], rating: $0["rating"], games: $0["games"])
      }
    }
  }

  public func ratingHistory(player: String, game: String) throws -> RatingHistory {
    try reader.read { db in
      let rating = try Row.fetchOne(
        db, sql: "SELECT rating, games FROM rating WHERE player = ? AND game = ?",
        arguments: [player, game]
      ).map { PlayerRating(player: player, game: game, rating: $0["rating"], games: $0["games"]) }
      let entries = try Row.fetchAll(
        db,
        sql: """
          SELECT game_number, ended_at, rank, before, after, games FROM rating_change
          WHERE player = ? AND game = ? ORDER BY ended_at DESC, game_number DESC LIMIT ?
          """, arguments: [player, game, RatingHistory.mostEntries]
      ).map {
        RatingHistoryEntry(
          gameID: FinishedGame.id(number: $0["game_number"]), endedAt: $0["ended_at"],
          rank: $0["rank"],
          change: RatingChange(before: $0["before"], after: $0["after"], games: $0["games"]))
      }
      return RatingHistory(rating: rating, entries: entries)
    }
  }
}
