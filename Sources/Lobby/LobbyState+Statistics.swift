import Protocol

extension LobbyState {
  /// Counts of what the lobby decided, for metrics. They only grow: a reader exports the
  /// difference from what it read last.
  public struct Statistics: Sendable, Equatable {
    /// Moves (`choose`) a table accepted.
    public internal(set) var movesAccepted = 0
    /// Moves refused, by the code of the error sent back.
    public internal(set) var movesRejected: [ErrorCode: Int] = [:]

    /// No moves yet.
    public init() {}
  }
}
