/// What makes a table's game an arena's sprint (``Arena``): which arena, and its end — the
/// first seat to make ``sets`` matches, or ``seconds`` after play began, whichever comes first.
/// A seat that leaves before the end forfeits it.
public struct ArenaSprint: Hashable, Sendable, Codable {
  /// The arena's id and name.
  public var arena: String
  public var name: String
  /// Matches that win the game at once.
  public var sets: Int
  /// Seconds the game lasts at most.
  public var seconds: Double

  /// A sprint of the arena `arena` (named `name`).
  public init(arena: String, name: String, sets: Int = 5, seconds: Double = 180) {
    self.arena = arena
    self.name = name
    self.sets = sets
    self.seconds = seconds
  }
}
