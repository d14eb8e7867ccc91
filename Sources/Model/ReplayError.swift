/// A move in a record that the game refused: the record is not a real game.
public struct ReplayError: Error, Hashable, Sendable {
  /// Position of the refused move in the record.
  public let index: Int
  /// Why it was refused.
  public let rejection: MoveRejection
}
