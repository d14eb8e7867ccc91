import Lobby
import Model
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

extension PostgresJournalStore {
  /// A player's rating in one game: the key of the `rating` table.
  struct RatingKey: Hashable, Comparable {
    var player: String
    var game: String

    static func < (a: Self, b: Self) -> Bool { (a.player, a.game) < (b.player, b.game) }
  }

  /// Rates `games` (each with rated players, ``FinishedGame/ratedPlayers``), just kept by
  /// `journal_write` in this transaction, in order, by ``FinishedGame/ratingChanges(before:)``:
  /// the rule the embedded store uses, the only one. A game rated before (a batch written
  /// twice) is left as it is. The players' rows are made first if missing, then locked in one
  /// order (player, then game), so that two nodes rating the same players wait for each other
  /// rather than deadlock, and neither computes from a rating the other is changing.
  func rate(_ games: [FinishedGame], on connection: PostgresConnection) throws {
    guard !games.isEmpty else { return }
    var numbers: [String: Int] = [:]
    for row in try run(
      """
      SELECT f.source, f.number FROM finished_game f
      WHERE f.source = ANY (\(games.map(\.source)))
        AND NOT EXISTS (SELECT 1 FROM rating_change c WHERE c.game_number = f.number)
      """, on: connection)
    {
      let (source, number) = try row.decode((String, Int).self)
      numbers[source] = number
    }
    // Each game not rated yet, with its row's number.
    let unrated = games.compactMap { game in numbers[game.source].map { (game, $0) } }
    let keys = Set(
      unrated.flatMap { game, _ in
        game.ratedPlayers.map { RatingKey(player: $0.player, game: game.game) }
      }
    ).sorted()
    guard !keys.isEmpty else { return }
    _ = try run(
      """
      INSERT INTO rating (player, game, rating, games)
      SELECT u.player, u.game, \(Rating.initial), 0
      FROM unnest(\(keys.map(\.player)), \(keys.map(\.game))) WITH ORDINALITY AS u (player, game, i)
      ORDER BY u.i
      ON CONFLICT DO NOTHING
      """, on: connection)
    var ratings: [RatingKey: PlayerRating] = [:]
    for row in try run(
      """
      SELECT r.player, r.game, r.rating, r.games FROM rating r
      JOIN unnest(\(keys.map(\.player)), \(keys.map(\.game))) AS u (player, game)
        ON r.player = u.player AND r.game = u.game
      ORDER BY r.player, r.game FOR UPDATE OF r
      """, on: connection)
    {
      let (player, game, rating, count) = try row.decode((String, String, Double, Int).self)
      ratings[RatingKey(player: player, game: game)] = PlayerRating(
        player: player, game: game, rating: rating, games: count)
    }
    var changes:
      [(number: Int, game: FinishedGame, player: String, rank: Int, change: RatingChange)] =
        []
    for (game, number) in unrated {
      var before: [String: PlayerRating] = [:]
      for row in game.ratedPlayers {
        before[row.player] = ratings[RatingKey(player: row.player, game: game.game)]
      }
      for row in game.ratingChanges(before: before) {
        ratings[RatingKey(player: row.player, game: game.game)] = PlayerRating(
          player: row.player, game: game.game, rating: row.change.after, games: row.change.games)
        changes.append((number, game, row.player, row.rank, row.change))
      }
    }
    let after = keys.compactMap { ratings[$0] }
    _ = try run(
      """
      WITH changed AS (
        UPDATE rating r SET rating = u.rating, games = u.games
        FROM unnest(\(after.map(\.player)), \(after.map(\.game)), \(after.map(\.rating)),
          \(after.map(\.games))) AS u (player, game, rating, games)
        WHERE r.player = u.player AND r.game = u.game)
      INSERT INTO rating_change (game_number, player, game, ended_at, rank, before, after, games)
      SELECT * FROM unnest(\(changes.map(\.number)), \(changes.map(\.player)),
        \(changes.map(\.game.game)), \(changes.map(\.game.endedAt)), \(changes.map(\.rank)),
        \(changes.map(\.change.before)), \(changes.map(\.change.after)),
        \(changes.map(\.change.games)))
      """, on: connection)
  }
}
