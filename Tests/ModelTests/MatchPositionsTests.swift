import Testing

@testable import Model

/// The fast match searches (``MatchableCard/matchPositions(in:size:)``: Set's family by pairs
/// and their third card, UltraSet by pairs that need the same third card) find exactly what
/// trying every combination finds, in the same order, on random boards of every size.
@Suite struct MatchPositionsTests {
  /// Every combination of `size` positions whose cards score, in lexicographic order.
  static func bruteForce<Card: MatchableCard>(_ cards: [Card], size: Int) -> [[Int]] {
    var found: [[Int]] = []
    forEachCombination(of: cards.count, choose: size) { indices in
      if Card.matchScore(indices.map { cards[$0] }) > 0 { found.append(indices) }
      return true
    }
    return found
  }

  /// `count` different cards of `deck`, drawn with `generator`.
  static func board<Card>(_ deck: [Card], count: Int, _ generator: inout SeededGenerator)
    -> [Card]
  {
    var cards = deck
    for i in cards.indices.reversed() where i > 0 {
      cards.swapAt(i, Int(generator.next() % UInt64(i + 1)))
    }
    return Array(cards.prefix(count))
  }

  static func check<Card: MatchableCard>(_: Card.Type, size: Int, boards: ClosedRange<Int>) {
    var generator = SeededGenerator(seed: 32)
    var matches = 0
    for count in boards {
      for _ in 0..<40 {
        let cards = board(Card.fullDeck, count: count, &generator)
        let fast = Card.matchPositions(in: cards, size: size)
        #expect(fast == bruteForce(cards, size: size), "\(cards.map(\.id))")
        matches += fast.count
      }
    }
    #expect(matches > 0)
  }

  @Test func setFindsWhatEveryTripleFinds() {
    Self.check(SetCard.self, size: 3, boards: 0...21)
  }

  @Test func setJuniorFindsWhatEveryTripleFinds() {
    Self.check(JuniorSetCard.self, size: 3, boards: 0...15)
  }

  @Test func setChainFindsWhatEveryTripleFinds() {
    Self.check(SetChainCard.self, size: 3, boards: 0...18)
  }

  @Test func ultraSetFindsWhatEveryFourFind() {
    Self.check(UltraSetCard.self, size: 4, boards: 0...13)
  }

  /// A size the card's rule never matches finds nothing, fast or not.
  @Test func anotherSizeFindsNothing() {
    let cards = Array(SetCard.fullDeck.prefix(12))
    #expect(SetCard.matchPositions(in: cards, size: 2).isEmpty)
    #expect(
      UltraSetCard.matchPositions(in: UltraSetCard.fullDeck.prefix(9).map { $0 }, size: 3).isEmpty)
  }
}
