import Model

/// Who sits in a seat of a table (whatever its game: not generic, so that code walking the
/// seats needs no type metadata at run time).
public struct TableSeat: Hashable, Sendable {
  /// The player's name.
  public var name: String
  /// The player's session token (secret).
  public var token: String
  /// When a dropped player's seat is released, or nil while connected.
  public var awayUntil: Double?
  /// The hash of the person's player token (``FinishedPlayer/player``), or nil.
  public var player: String? = nil
  /// The level of the computer player in this seat, or nil for a person (``TableState/sitBot(level:replyTo:now:)``).
  public var bot: BotLevel? = nil
}
