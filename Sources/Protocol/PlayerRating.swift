import Model

/// A player's rating at one game, as the store keeps it (``Rating``).
public struct PlayerRating: Hashable, Sendable {
  /// The hash of the player's player token.
  public var player: String
  /// The game's wire name.
  public var game: String
  /// The rating.
  public var rating: Double
  /// How many rated games it counts.
  public var games: Int

  /// Creates a rating.
  public init(player: String, game: String, rating: Double, games: Int) {
    self.player = player
    self.game = game
    self.rating = rating
    self.games = games
  }

  /// Whether it is still provisional (its first ``Rating/provisionalGames`` games).
  public var isProvisional: Bool { games < Rating.provisionalGames }

  /// The rating as players see it: `{"rating":1532,"games":12,"provisional":false}`.
  public var wireMembers: [(String, JSONValue)] {
    [
      ("rating", .int(Int(rating.rounded()))), ("games", .int(games)),
      ("provisional", .bool(isProvisional)),
    ]
  }
}

/// What one rated game did to one player's rating.
public struct RatingChange: Hashable, Sendable, Codable {
  /// The rating before the game.
  public var before: Double
  /// The rating after it.
  public var after: Double
  /// The rated games counted after it (this one included).
  public var games: Int

  /// Creates a change.
  public init(before: Double, after: Double, games: Int) {
    self.before = before
    self.after = after
    self.games = games
  }

  /// The change as players see it, in whole points: the difference of the rounded ratings,
  /// so that it adds up with what they saw before.
  public var shownChange: Int { Int(after.rounded()) - Int(before.rounded()) }

  /// `{"rating":1532,"change":16,"games":3,"provisional":true}`: the rating after the game.
  public var wireMembers: [(String, JSONValue)] {
    [
      ("rating", .int(Int(after.rounded()))), ("change", .int(shownChange)),
      ("games", .int(games)), ("provisional", .bool(games < Rating.provisionalGames)),
    ]
  }
}

extension FinishedGame {
  /// The players a rated game rates (``rated``): each person (their player token's hash) once,
  /// at the best rank they had (a person in two seats counts once), ordered by their hashes;
  /// none when the game is not rated or fewer than two people gave a player token.
  public var ratedPlayers: [(player: String, rank: Int)] {
    guard rated == true else { return [] }
    var best: [String: Int] = [:]
    for row in players {
      guard let player = row.player else { continue }
      best[player] = min(best[player] ?? row.rank, row.rank)
    }
    guard best.count >= 2 else { return [] }
    return best.sorted { $0.key < $1.key }.map { (player: $0.key, rank: $0.value) }
  }

  /// Each rated player's change, computed by ``Rating/changes(_:)`` from their ratings before
  /// the game (`before`: a player without one starts at ``Rating/initial``, with no games).
  /// What both stores write.
  public func ratingChanges(before: [String: PlayerRating]) -> [(
    player: String, rank: Int, change: RatingChange
  )] {
    let rated = ratedPlayers
    let entries = rated.map { row in
      Rating.Entry(
        rating: before[row.player]?.rating ?? Rating.initial,
        games: before[row.player]?.games ?? 0, rank: row.rank)
    }
    let changes = Rating.changes(entries)
    return rated.indices.map { i in
      (
        player: rated[i].player, rank: rated[i].rank,
        change: RatingChange(
          before: entries[i].rating, after: entries[i].rating + changes[i],
          games: entries[i].games + 1)
      )
    }
  }
}

extension ServerMessage {
  /// `seatRatings`: the ratings shown beside the seated players' names at table `tableID`
  /// (every seat with one), sent when they change.
  public static func seatRatings(tableID: String, _ seats: [(Int, PlayerRating)]) -> JSONValue {
    object(
      "seatRatings", replyTo: nil,
      [
        ("table", .string(tableID)),
        ("seats", .array(seats.map { .object([("seat", .int($0.0))] + $0.1.wireMembers) })),
      ])
  }
}
