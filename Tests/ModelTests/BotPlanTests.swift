import Foundation
import Model
import Testing

/// A computer player's plan: a pure function of what its seat sees and a seed; its claims are
/// matches of the board (or, as often as its level says, a near miss), never a card it cannot
/// see; and each level's speed, measured on seeded boards, is what the level says.
@Suite struct BotPlanTests {
  static func game(seed: UInt64) -> CardMatchingGame<SetCard> {
    CardMatchingGame(settings: .set(seats: 1), seed: seed)
  }

  @Test func thePlanIsAFunctionOfTheBoardAndTheSeed() throws {
    let board = Self.game(seed: 7).board
    let plan = try #require(
      BotPlan.make(level: .casual, board: board, size: 3, since: 100, seed: 42))
    #expect(BotPlan.make(level: .casual, board: board, size: 3, since: 100, seed: 42) == plan)
    #expect(plan.at > 100 && plan.cards.count == 3 && Set(plan.cards).count == 3)
    #expect(plan.cards.allSatisfy { id in board.contains { $0.id == id } })
    let others = (0..<20).compactMap {
      BotPlan.make(level: .casual, board: board, size: 3, since: 100, seed: $0)
    }
    #expect(Set(others.map(\.at)).count == 20, "another seed, another time")
    // The seed a table draws: its deal, its version and the seat each change it.
    let seed = BotPlan.seed(dealSeed: 9, moves: 4, seat: 1)
    #expect(seed == BotPlan.seed(dealSeed: 9, moves: 4, seat: 1))
    #expect(
      Set([
        seed, BotPlan.seed(dealSeed: 9, moves: 5, seat: 1),
        BotPlan.seed(dealSeed: 9, moves: 4, seat: 2),
        BotPlan.seed(dealSeed: 8, moves: 4, seat: 1),
      ]).count == 4)
  }

  @Test func aRightClaimIsAMatchAndAWrongOneIsNot() {
    for seed in UInt64(0)..<300 {
      let board = Self.game(seed: seed).board
      guard let plan = BotPlan.make(level: .beginner, board: board, size: 3, since: 0, seed: seed)
      else {
        #expect(SetCard.matchPositions(in: board, size: 3).isEmpty)
        continue
      }
      let cards = plan.cards.compactMap { id in board.first { $0.id == id } }
      #expect(cards.count == 3, "only cards of the board")
      #expect((SetCard.matchScore(cards) > 0) == !plan.wrong, "seed \(seed)")
    }
    // An expert is never wrong.
    for seed in UInt64(0)..<300 {
      let board = Self.game(seed: seed).board
      #expect(
        BotPlan.make(level: .expert, board: board, size: 3, since: 0, seed: seed)?.wrong != true)
    }
  }

  @Test func noMatchShowingNoPlan() {
    // Twelve cards without a set: take the first board of many deals that has none.
    let board = (UInt64(0)..<2_000).lazy.map { Self.game(seed: $0).board.prefix(12) }
      .first { SetCard.matchPositions(in: Array($0), size: 3).isEmpty }
    let cards = Array(board ?? [])
    #expect(!cards.isEmpty)
    #expect(BotPlan.make(level: .expert, board: cards, size: 3, since: 0, seed: 1) == nil)
  }

  /// The speed benchmark: each level plays alone through seeded games of Set until it has taken
  /// 200 sets; its median time to a set is within ±15 % of its definition, and its share of
  /// wrong claims within three standard deviations of its own. Simulated time, drawn from the
  /// plans (not a timed test). The figures are printed for docs/BENCHMARKS.md.
  @Test(arguments: BotLevel.all)
  func eachLevelTakesSetsAtItsSpeed(_ level: BotLevel) throws {
    var times: [Double] = []
    var claims = 0
    var wrong = 0
    var seed: UInt64 = 1
    while times.count < 200 {
      var game = Self.game(seed: seed)
      var version = 0
      while !game.isOver, times.count < 200 {
        let planSeed = BotPlan.seed(dealSeed: game.dealSeed, moves: version, seat: 0)
        version += 1
        guard
          let plan = BotPlan.make(
            level: level, board: game.board, size: 3, since: 0, seed: planSeed)
        else { break }
        claims += 1
        if plan.wrong {
          wrong += 1
          continue
        }
        times.append(plan.at)
        for card in plan.cards { _ = try game.apply(.choose(seat: 0, card: card)) }
      }
      seed += 1
    }
    let sorted = times.sorted()
    let median = (sorted[99] + sorted[100]) / 2
    let share = Double(wrong) / Double(claims)
    let sd = (level.wrongShare * (1 - level.wrongShare) / Double(claims)).squareRoot()
    print(
      "bot \(level.name): median \(median) s (defined \(level.medianSeconds)), p10 \(sorted[19]), "
        + "p90 \(sorted[179]), wrong \(wrong) of \(claims) (\(share))")
    #expect(abs(median / level.medianSeconds - 1) <= 0.15, "\(level.name): median \(median)")
    #expect(abs(share - level.wrongShare) <= 3 * sd + 1e-9, "\(level.name): wrong share \(share)")
  }
}

extension BotLevel: CustomTestStringConvertible {
  public var testDescription: String { name }
}
