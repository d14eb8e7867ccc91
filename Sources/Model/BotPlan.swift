import Foundation

/// What a computer player at a face-up board will do next: at `at`, choose `cards` one after
/// another (a match, or, when `wrong`, cards that are not one). A pure function of what its seat
/// sees and a seed, so that a table with bots replays exactly: the table draws the seed from its
/// own deal, the deal's moves so far and the bot's seat, and plans again whenever its board
/// changes.
public struct BotPlan: Hashable, Sendable {
  /// When the bot claims (seconds, on the table's clock).
  public var at: Double
  /// The cards' ids, in the order chosen.
  public var cards: [Int]
  /// Whether the claim is a mistake (not a match).
  public var wrong: Bool
  /// Whether the cards join what the bot holds (a face-down board, one card at a time) rather
  /// than replace it.
  public var keepsSelection = false

  /// The plan of a bot of `level` that sees `board` (every card face up) since `since`, for
  /// matches of `size` cards, drawing from `seed`; nil when no match shows (it waits for the
  /// board to change).
  public static func make<Card: MatchableCard>(
    level: BotLevel, board: [Card], size: Int, since: Double, seed: UInt64
  ) -> BotPlan? {
    let matches = Card.matchPositions(in: board, size: size).map { $0.map { board[$0] } }
    return make(level: level, matches: matches, board: board, size: size, since: since, seed: seed)
  }

  /// The plan of a bot of `level` that may claim any of `matches` (each as its cards, in the
  /// order to choose them: ``CardMatchingGame/claimableMatches``, which keeps a chain's rule)
  /// on `board`; nil when there is none.
  public static func make<Card: MatchableCard>(
    level: BotLevel, matches: [[Card]], board: [Card], size: Int, since: Double, seed: UInt64
  ) -> BotPlan? {
    guard !matches.isEmpty else { return nil }
    var generator = SeededGenerator(seed: seed)
    let delay = delaySeconds(level: level, matchesShowing: matches.count, using: &generator)
    let pick = matches[generator.below(matches.count)]
    if level.wrongShare > 0, unit(&generator) < level.wrongShare,
      let miss = mistake(near: pick, on: board, size: size, using: &generator)
    {
      return BotPlan(at: since + delay, cards: miss.map(\.id), wrong: true)
    }
    return BotPlan(at: since + delay, cards: pick.map(\.id), wrong: false)
  }

  /// Seconds before a claim: the level's median, shorter with more matches showing, spread
  /// log-normally (``BotLevel/spread``).
  static func delaySeconds(
    level: BotLevel, matchesShowing: Int, using generator: inout SeededGenerator
  ) -> Double {
    let scale = (BotLevel.typicalMatches / Double(max(1, matchesShowing))).squareRoot()
    return level.medianSeconds * scale * exp(BotLevel.spread * normal(&generator))
  }

  /// A near miss: the match with its last card (a board card, in a chain's match too) swapped
  /// for another card of the board that does not make a match with the rest; nil when every
  /// swap still matches.
  static func mistake<Card: MatchableCard>(
    near match: [Card], on board: [Card], size: Int, using generator: inout SeededGenerator
  ) -> [Card]? {
    guard match.count == size else { return nil }
    let kept = Array(match.dropLast())
    let others = board.filter { card in
      !match.contains(card) && Card.matchScore(kept + [card]) == 0
    }
    guard !others.isEmpty else { return nil }
    return kept + [others[generator.below(others.count)]]
  }

  /// A uniform draw in [0, 1), written out rather than `Double.random(in:using:)`, whose
  /// algorithm may change between Swift releases: a table's plans must replay from its seed
  /// forever (as ``SeededGenerator/below(_:)`` does for integers).
  static func unit(_ generator: inout SeededGenerator) -> Double {
    Double(generator.next() >> 11) / Double(1 << 53)
  }

  /// A standard normal draw (Box–Muller).
  static func normal(_ generator: inout SeededGenerator) -> Double {
    let u1 = max(unit(&generator), .leastNonzeroMagnitude)
    let u2 = unit(&generator)
    return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
  }

  /// The seed of a bot's plan at a table: its deal's seed, the moves of the deal so far (which
  /// every change of the board adds to) and the bot's seat, mixed. The same table state gives
  /// the same plan, after a restart or a takeover too.
  public static func seed(dealSeed: UInt64, moves: Int, seat: Int) -> UInt64 {
    var mixer = SplitMix64(seed: dealSeed ^ (UInt64(truncatingIfNeeded: moves) &* 0x9E37_79B9))
    return mixer.next() ^ UInt64(truncatingIfNeeded: seat &+ 1) &* 0xD6E8_FEB8_6659_FD93
  }
}
