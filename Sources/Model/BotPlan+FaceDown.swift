import Foundation

/// A computer player at a face-down board (Matchismo, Concentration): it knows only the faces it
/// recalls (``BotMemory``) and those it holds, and plans one card at a time: the next card of a
/// match it can make from them, or else a card it does not know, to see it.
extension BotPlan {
  /// The next card (a slot) a bot of `level` turns up, holding the slots `holding` (face up),
  /// recalling the faces of `recalled`, on `board` where the cards whose ids are in `matched`
  /// are out of play; nil when no card is left to turn. Draws from `generator`. The plan
  /// `keepsSelection`: the card joins what the bot holds.
  public static func faceDown<Card: MatchableCard>(
    level: BotLevel, board: [Card], matched: Set<Int>, holding: [Int], recalled: Set<Int>,
    size: Int, since: Double, using generator: inout SeededGenerator
  ) -> BotPlan? {
    let free = board.indices.filter { !matched.contains(board[$0].id) && !holding.contains($0) }
    guard !free.isEmpty, holding.count < size else { return nil }
    let known = free.filter { recalled.contains($0) }
    var next: Int?
    forEachCombination(of: known.count, choose: size - holding.count) { picked in
      let slots = holding + picked.map { known[$0] }
      guard Card.matchScore(slots.map { board[$0] }) > 0 else { return true }
      next = known[picked[0]]
      return false
    }
    if next == nil {
      let unknown = free.filter { !recalled.contains($0) }
      let pool = unknown.isEmpty ? free : unknown
      next = pool[generator.below(pool.count)]
    }
    let delay = level.flipSeconds * exp(BotLevel.spread * normal(&generator))
    guard let next else { return nil }
    return BotPlan(at: since + delay, cards: [next], wrong: false, keepsSelection: true)
  }
}
