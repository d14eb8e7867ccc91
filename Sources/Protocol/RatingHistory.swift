import Model

/// One rated game in a player's history: what it did to their rating.
public struct RatingHistoryEntry: Hashable, Sendable {
  /// The finished game's id (`g12`): its replay.
  public var gameID: String
  /// When it ended (seconds since 1970, UTC).
  public var endedAt: Double
  /// The player's rank in it.
  public var rank: Int
  /// The change.
  public var change: RatingChange

  /// Creates an entry.
  public init(gameID: String, endedAt: Double, rank: Int, change: RatingChange) {
    self.gameID = gameID
    self.endedAt = endedAt
    self.rank = rank
    self.change = change
  }
}

/// A player's rating at one game and their latest rated games: the `ratings` answer.
public struct RatingHistory: Hashable, Sendable {
  /// Their rating now, or nil before their first rated game of it.
  public var rating: PlayerRating?
  /// Their latest rated games, newest first (at most ``RatingHistory/mostEntries``).
  public var entries: [RatingHistoryEntry]

  /// How many games a `ratings` answer lists at most.
  public static let mostEntries = 50

  /// Creates a history.
  public init(rating: PlayerRating?, entries: [RatingHistoryEntry]) {
    self.rating = rating
    self.entries = entries
  }
}

extension ServerMessage {
  /// The `ratings` answer: the asking player's rating at `game` and its history.
  public static func ratings(_ history: RatingHistory, game: String, replyTo: MessageID?)
    -> JSONValue
  {
    let rating =
      history.rating ?? PlayerRating(player: "", game: game, rating: Rating.initial, games: 0)
    return object(
      "ratings", replyTo: replyTo,
      [("game", .string(game))] + rating.wireMembers + [
        (
          "history",
          .array(
            history.entries.map { entry in
              .object(
                [
                  ("id", .string(entry.gameID)), ("endedAt", .string(isoDate(entry.endedAt))),
                  ("rank", .int(entry.rank)),
                ] + entry.change.wireMembers)
            })
        )
      ])
  }
}
