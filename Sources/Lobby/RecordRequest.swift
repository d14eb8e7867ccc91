import Protocol

/// A question about finished games, for the shell to put to the store and answer.
public struct RecordRequest: Hashable, Sendable {
  /// What is asked.
  public enum Kind: Hashable, Sendable {
    /// A page of high scores.
    case scores(ScoresQuery)
    /// One finished game, with its replay.
    case record(id: String)
    /// The daily puzzle's board of `game` on `day`, for the player `who` (the hash of their
    /// player token, else of their session's), who `started` that day's attempt on this node
    /// (their result may not be kept yet: the game may still be going).
    case daily(game: String, day: String, who: String, started: Bool)
    /// `player`'s rating at `game` and their latest rated games (``RatingHistory``).
    case ratingHistory(player: String, game: String)
    /// The ratings of `players` (hashes of player tokens), for the lobby itself rather than for
    /// a connection: told back as ``ClusterNews/ratings(_:players:connection:table:)``, once
    /// what the journal had queued before is written (a game that just ended has rated them).
    /// `table`: the table to show them at; nil: the table of `connection`'s session.
    case ratings(players: [String], table: String?)
  }

  /// Who asked.
  public var connection: ConnectionID
  /// The id of the asking message.
  public var replyTo: MessageID?
  /// What is asked.
  public var kind: Kind

  /// Whether the lobby asks for itself (``Kind/ratings(players:table:)``): the answer is told
  /// to the lobby, not sent to the connection.
  public var isTheLobbys: Bool {
    if case .ratings = kind { true } else { false }
  }

  /// Creates a request.
  public init(connection: ConnectionID, replyTo: MessageID?, kind: Kind) {
    self.connection = connection
    self.replyTo = replyTo
    self.kind = kind
  }
}
