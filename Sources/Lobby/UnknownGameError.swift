/// A journal holds a table of a game this server does not deal (a journal written by another
/// version of the server, or by a server with a game this one lacks). Opening it as another
/// game would deal different cards; dropping it would lose its players' game without a word.
/// So the start stops, saying which table and which game.
public struct UnknownGameError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The game's wire name, as the journal holds it.
  public let game: String
  /// The table's id.
  public let table: String

  /// The error for `table`, a table of `game`.
  public init(game: String, table: String) {
    self.game = game
    self.table = table
  }

  public var description: String {
    "the journal holds table \(table) of the game '\(game)', which this server does not deal"
  }
}
