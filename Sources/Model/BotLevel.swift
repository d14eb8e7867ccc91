/// How strong a computer player is: how long it takes to take a match once one is on the board,
/// and how often its claim is wrong. Four levels, named on the wire (`"level":"casual"`).
///
/// A level is defined by its median time to a match on the boards a game deals (a bot is faster
/// on a board with more matches, slower on one with a single match, as people are) and its share
/// of wrong claims; `BotPlanTests.eachLevelTakesSetsAtItsSpeed` plays 200 sets per level on
/// seeded boards and holds each median within ±15 % of its definition (docs/BENCHMARKS.md,
/// "Computer players: each level's speed").
public struct BotLevel: Hashable, Sendable {
  /// The level's name on the wire.
  public let name: String
  /// Median seconds from a board change to the bot's claim, over the boards games deal.
  public let medianSeconds: Double
  /// Share of claims that are wrong (a mismatch): 0.2 is one in five.
  public let wrongShare: Double
  /// At a face-down board: median seconds to turn a card up.
  public let flipSeconds: Double
  /// At a face-down board: the faces turned up since one was seen after which the bot recalls
  /// it one time in two (nil: it forgets nothing). ``BotMemory``.
  public let memoryHalfLife: Double?

  /// A slow player, often wrong: 20 s, one claim in five a mismatch; face down, 2 s a card and
  /// half of what it saw forgotten 4 cards later.
  public static let beginner = BotLevel(
    name: "beginner", medianSeconds: 20, wrongShare: 0.2, flipSeconds: 2, memoryHalfLife: 4)
  /// An unhurried player: 10 s, one claim in ten a mismatch; face down 1.4 s, half life 8.
  public static let casual = BotLevel(
    name: "casual", medianSeconds: 10, wrongShare: 0.1, flipSeconds: 1.4, memoryHalfLife: 8)
  /// A practised player: 5 s, one in twenty-five a mismatch; face down 0.9 s, half life 20.
  public static let good = BotLevel(
    name: "good", medianSeconds: 5, wrongShare: 0.04, flipSeconds: 0.9, memoryHalfLife: 20)
  /// A fast, sure player: 2.5 s, never wrong; face down 0.6 s a card, forgetting nothing.
  public static let expert = BotLevel(
    name: "expert", medianSeconds: 2.5, wrongShare: 0, flipSeconds: 0.6, memoryHalfLife: nil)

  /// Every level, slowest first.
  public static let all: [BotLevel] = [.beginner, .casual, .good, .expert]

  /// The level named `name` on the wire, if there is one.
  public static func named(_ name: String) -> BotLevel? {
    all.first { $0.name == name }
  }

  /// The spread of a bot's times around its median: the natural logarithm of a time is normal
  /// with this standard deviation (0.5: half the claims within ×0.71–×1.40 of the median, nine
  /// in ten within ×0.44–×2.28).
  public static let spread = 0.5

  /// The number of matches on the board at which a bot takes its median time; with `n` matches
  /// showing it takes ×(typicalMatches / n)^0.5 of it. Chosen so that over the boards a game of
  /// Set deals, the median is the level's (`BotPlanTests`).
  public static let typicalMatches = 2.0
}
