import Foundation
import Lobby
import Protocol

extension SQLiteJournalStore {
  /// Rates `game`, just kept as row `number` (``FinishedGame/ratedPlayers``): reads its
  /// players' ratings, writes the new ones and each player's change, in the transaction that
  /// keeps the game. A game kept before (a batch written twice) never reaches here: its
  /// ratings changed once.
  func rate(_ game: FinishedGame, number: Int64, in db: SQLiteConnection) throws {
    let rated = game.ratedPlayers
    guard !rated.isEmpty else { return }
    var before: [String: PlayerRating] = [:]
    for row in rated {
      if let kept = try db.rows(
        "SELECT rating, games FROM rating WHERE player = ? AND game = ?",
        [.text(row.player), .text(game.game)]
      ).first {
        before[row.player] = PlayerRating(
          player: row.player, game: game.game, rating: kept["rating"], games: kept["games"])
      }
    }
    for row in game.ratingChanges(before: before) {
      try db.run(
        """
        INSERT INTO rating (player, game, rating, games) VALUES (?, ?, ?, ?)
        ON CONFLICT (player, game) DO UPDATE SET rating = excluded.rating, games = excluded.games
        """,
        [
          .text(row.player), .text(game.game), row.change.after.sqliteValue,
          row.change.games.sqliteValue,
        ])
      try db.run(
        """
        INSERT INTO rating_change
          (game_number, player, game, ended_at, rank, before, after, games)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .integer(number), .text(row.player), .text(game.game), game.endedAt.sqliteValue,
          row.rank.sqliteValue, row.change.before.sqliteValue, row.change.after.sqliteValue,
          row.change.games.sqliteValue,
        ])
    }
  }

  /// `games` with each rated player's change (``FinishedPlayer/rating``).
  func withRatings(_ games: [FinishedGame], in db: SQLiteConnection) throws -> [FinishedGame] {
    let numbers = games.compactMap { FinishedGame.number(ofID: $0.id) }
    guard !numbers.isEmpty else { return games }
    var changes: [Int: [String: RatingChange]] = [:]
    for row in try db.prepare(
      """
      SELECT game_number, player, before, after, games FROM rating_change
      WHERE game_number IN (\(numbers.map(String.init).joined(separator: ",")))
      """
    ).rowsOnce() {
      changes[row["game_number"], default: [:]][row["player"]] = RatingChange(
        before: row["before"], after: row["after"], games: row["games"])
    }
    return games.map { $0.withRatingChanges(changes) }
  }

  public func ratings(of players: [String]) throws -> [PlayerRating] {
    guard !players.isEmpty else { return [] }
    return try reader.transaction { db in
      try db.prepare(
        """
        SELECT player, game, rating, games FROM rating
        WHERE player IN (\(players.map { _ in "?" }.joined(separator: ",")))
        """
      ).rowsOnce(players.map { .text($0) }).map {
        PlayerRating(
          player: $0["player"], game: $0["game"], rating: $0["rating"], games: $0["games"])
      }
    }
  }

  public func ratingHistory(player: String, game: String) throws -> RatingHistory {
    try reader.transaction { db in
      let rating = try db.rows(
        "SELECT rating, games FROM rating WHERE player = ? AND game = ?",
        [.text(player), .text(game)]
      ).first.map {
        PlayerRating(player: player, game: game, rating: $0["rating"], games: $0["games"])
      }
      let entries = try db.rows(
        """
        SELECT game_number, ended_at, rank, before, after, games FROM rating_change
        WHERE player = ? AND game = ? ORDER BY ended_at DESC, game_number DESC LIMIT ?
        """, [.text(player), .text(game), RatingHistory.mostEntries.sqliteValue]
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
