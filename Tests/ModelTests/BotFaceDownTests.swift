import Testing

@testable import Model

/// A computer player at a face-down board: it recalls what it saw as its level says, and plans
/// one card at a time from what it recalls and holds, never from a face it has not seen.
@Suite struct BotFaceDownTests {
  static let board: [PlayingCard] = Array(PlayingCard.fullDeck.prefix(12))

  @Test func anExpertRecallsEverythingAndABeginnerLessTheOlderItIs() {
    var memory = BotMemory()
    memory.saw([0, 1, 2, 3], by: [0, 1])
    memory.saw(Array(4..<20), by: [1])
    var generator = SeededGenerator(seed: 3)
    #expect(memory.recalled(by: 1, level: .expert, using: &generator) == Set(0..<20))
    #expect(memory.recalled(by: 0, level: .expert, using: &generator) == [0, 1, 2, 3])
    #expect(memory.recalled(by: 2, level: .expert, using: &generator).isEmpty)
    // Over many draws, a beginner (half life 4) recalls a face seen 16 flips ago about one
    // time in sixteen, and the last one seen nearly always.
    var old = 0
    var new = 0
    for seed in 0..<2000 {
      var generator = SeededGenerator(seed: UInt64(seed))
      let recalled = memory.recalled(by: 1, level: .beginner, using: &generator)
      if recalled.contains(3) { old += 1 }
      if recalled.contains(19) { new += 1 }
    }
    #expect((60...200).contains(old), "\(old)")
    #expect(new == 2000)
    memory.forget()
    #expect(memory.flips == 0 && memory.seen.isEmpty)
  }

  @Test func itCompletesAMatchItRecallsAndOtherwiseTurnsACardItDoesNotKnow() throws {
    let board = Self.board
    // Slots 0 and 13 would match by rank; on this board, find a pair the bot recalls.
    let pair = try #require(
      board.indices.flatMap { a in board.indices.map { (a, $0) } }.first { a, b in
        a < b && PlayingCard.matchScore([board[a], board[b]]) > 0
      })
    var generator = SeededGenerator(seed: 1)
    let plan = try #require(
      BotPlan.faceDown(
        level: .good, board: board, matched: [], holding: [pair.0], recalled: [pair.1],
        size: 2, since: 10, using: &generator))
    #expect(plan.cards == [pair.1] && plan.keepsSelection && plan.at > 10)
    // Nothing recalled: a card it does not know, not one it holds.
    for seed in 0..<50 {
      var generator = SeededGenerator(seed: UInt64(seed))
      let plan = try #require(
        BotPlan.faceDown(
          level: .good, board: board, matched: [], holding: [pair.0], recalled: [],
          size: 2, since: 0, using: &generator))
      #expect(plan.cards.count == 1 && plan.cards[0] != pair.0)
    }
    // Nothing left to turn: no plan.
    var last = SeededGenerator(seed: 1)
    #expect(
      BotPlan.faceDown(
        level: .good, board: board, matched: Set(board.map(\.id)), holding: [], recalled: [],
        size: 2, since: 0, using: &last) == nil)
  }

  /// Faces it has not seen do not change what it does: two boards alike in the slots it holds
  /// and recalls, different elsewhere, give the same plan.
  @Test func facesItHasNotSeenDoNotChangeItsPlan() {
    for seed in UInt64(0)..<200 {
      var shuffle = SeededGenerator(seed: seed)
      var deck = PlayingCard.fullDeck
      for i in deck.indices.reversed() where i > 0 { deck.swapAt(i, shuffle.below(i + 1)) }
      let board = Array(deck.prefix(16))
      var other = board
      let seen = Set([0, 3, 5, 8])
      // The unseen slots get other cards of the deck.
      let spare = Array(deck.dropFirst(16))
      var next = 0
      for slot in other.indices where !seen.contains(slot) {
        other[slot] = spare[next]
        next += 1
      }
      var a = SeededGenerator(seed: seed)
      var b = SeededGenerator(seed: seed)
      let first = BotPlan.faceDown(
        level: .casual, board: board, matched: [], holding: [0], recalled: [3, 5, 8], size: 2,
        since: 0, using: &a)
      let second = BotPlan.faceDown(
        level: .casual, board: other, matched: [], holding: [0], recalled: [3, 5, 8], size: 2,
        since: 0, using: &b)
      #expect(first == second, "seed \(seed)")
    }
  }
}
