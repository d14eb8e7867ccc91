/// A whole game as data: enough to rebuild it exactly. It may start at the game's first deal
/// (and list every re-deal) or at its latest deal (seeded with ``CardMatchingGame/dealSeed``).
public struct GameRecord: Hashable, Sendable, Codable {
  /// The rules.
  public var settings: GameSettings
  /// The deal seed (secret while the game is live).
  public var seed: UInt64
  /// Every accepted move, in the order applied.
  public var moves: [Move]

  /// Creates a record.
  public init(settings: GameSettings, seed: UInt64, moves: [Move] = []) {
    self.settings = settings
    self.seed = seed
    self.moves = moves
  }
}
