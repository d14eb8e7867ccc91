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
    /// player token, else of their session's).
    case daily(game: String, day: String, who: String)
  }

  /// Who asked.
  public var connection: ConnectionID
  /// The id of the asking message.
  public var replyTo: MessageID?
  /// What is asked.
  public var kind: Kind

  /// Creates a request.
  public init(connection: ConnectionID, replyTo: MessageID?, kind: Kind) {
    self.connection = connection
    self.replyTo = replyTo
    self.kind = kind
  }
}
