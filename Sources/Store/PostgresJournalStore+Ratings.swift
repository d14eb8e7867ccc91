import Lobby
import PostgresNIO
import Protocol

extension PostgresJournalStore {
  /// `games` with each rated player's change (``FinishedPlayer/rating``).
  func withRatings(_ games: [FinishedGame], on connection: PostgresConnection) throws
    -> [FinishedGame]
  {
    let numbers = games.compactMap { FinishedGame.number(ofID: $0.id) }
    guard !numbers.isEmpty else { return games }
    var changes: [Int: [String: RatingChange]] = [:]
    for row in try run(
      """
      SELECT game_number, player, before, after, games FROM rating_change
      WHERE game_number = ANY (\(numbers))
      """, on: connection)
    {
      let (number, player, before, after, count) = try row.decode(
        (Int, String, Double, Double, Int).self)
      changes[number, default: [:]][player] = RatingChange(
        before: before, after: after, games: count)
    }
    return games.map { $0.withRatingChanges(changes) }
  }

  public func ratings(of players: [String]) throws -> [PlayerRating] {
    guard !players.isEmpty else { return [] }
    return try perform("cannot read the ratings from \(location)") { connection in
      try run(
        "SELECT player, game, rating, games FROM rating WHERE player = ANY (\(players))",
        on: connection
      ).map { row in
        let (player, game, rating, games) = try row.decode((String, String, Double, Int).self)
        return PlayerRating(player: player, game: game, rating: rating, games: games)
      }
    }
  }

  public func ratingHistory(player: String, game: String) throws -> RatingHistory {
    try perform("cannot read the ratings from \(location)") { connection in
      let rating = try run(
        "SELECT rating, games FROM rating WHERE player = \(player) AND game = \(game)",
        on: connection
      ).first.map { row in
        let (rating, games) = try row.decode((Double, Int).self)
        return PlayerRating(player: player, game: game, rating: rating, games: games)
      }
      let entries = try run(
        """
        SELECT game_number, ended_at, rank, before, after, games FROM rating_change
        WHERE player = \(player) AND game = \(game)
        ORDER BY ended_at DESC, game_number DESC LIMIT \(RatingHistory.mostEntries)
        """, on: connection
      ).map { row in
        let (number, endedAt, rank, before, after, games) = try row.decode(
          (Int, Double, Int, Double, Double, Int).self)
        return RatingHistoryEntry(
          gameID: FinishedGame.id(number: number), endedAt: endedAt, rank: rank,
          change: RatingChange(before: before, after: after, games: games))
      }
      return RatingHistory(rating: rating, entries: entries)
    }
  }
}
