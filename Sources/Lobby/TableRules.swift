import Model

/// Timings of a table, in seconds.
public struct TableRules: Hashable, Sendable {
  /// The countdown between a start and the deal.
  public var countdown = LobbyConfiguration.defaults.countdown
  /// How long a dropped player's seat is held.
  public var reconnectGrace = LobbyConfiguration.defaults.reconnectGrace
  /// What computer players' times to move are multiplied by.
  public var botPace = LobbyConfiguration.defaults.botPace
  /// How many recent diffs are kept for reconnecting clients.
  public var ringSize = 64
  /// The most moves the record of one game keeps in memory (2 bytes each); beyond it the record
  /// says it is truncated. See ``MoveLog``.
  public var recordCap = MoveLog.defaultCap
  /// Whether the table keeps journal entries for the lobby to take
  /// (``TableState/takeJournal(creator:)``).
  public var journals = false

  /// The default rules.
  public init() {}
}
