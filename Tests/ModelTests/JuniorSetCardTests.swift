import Model
import Testing

/// Nine Junior cards without a set among them (a largest cap of AG(3, 3)). Found once by a search
/// outside the tests; the tests check the claim rather than trusting it.
private let nineCardsWithoutASet = [3, 11, 12, 15, 17, 22, 23, 24, 26]

/// The definition of a Junior set, from the rules: three different cards whose value names are,
/// for each of the three attributes, all equal or all different.
private func isJuniorSetByDefinition(_ cards: [JuniorSetCard]) -> Bool {
  guard cards.count == 3, Set(cards.map(\.id)).count == 3 else { return false }
  return (0..<3).allSatisfy { attribute in
    let distinct = Set(cards.map { $0.valueName(attribute) }).count
    return distinct == 1 || distinct == 3
  }
}

@Suite("Set Junior cards")
struct JuniorSetCardTests {
  @Test("The deck is 27 different cards with ids 0...26 in order")
  func deckIsTwentySevenCards() {
    let deck = JuniorSetCard.fullDeck
    #expect(deck.count == 27)
    #expect(deck.map(\.id) == Array(0..<27))
    #expect(Set(deck).count == 27)
    #expect(Set(deck.map(\.description)).count == 27)
    for id in -2..<29 {
      #expect(JuniorSetCard.card(withID: id) == ((0..<27).contains(id) ? deck[id] : nil))
    }
  }

  @Test("Every combination of number, symbol and colour occurs once, every card solid")
  func everyCombinationOnceAllSolid() {
    #expect(JuniorSetCard.attributes.map(\.name) == ["number", "symbol", "color"])
    var expected: [[Int]] = []
    for number in 0..<3 {
      for symbol in 0..<3 {
        for color in 0..<3 { expected.append([number, symbol, color]) }
      }
    }
    let deck = JuniorSetCard.fullDeck
    #expect(deck.map(\.values) == expected)
    for card in deck {
      #expect(
        JuniorSetCard(number: card.number - 1, symbol: card.symbol, color: card.color) == card)
      // It looks like the solid Set card of the same number, symbol and colour.
      let face = card.face
      #expect(face.valueName(2) == "solid")
      #expect(face.number == card.number)
      #expect(face.valueName(1) == card.valueName(1))
      #expect(face.valueName(3) == card.valueName(2))
    }
    #expect(Set(deck.map(\.face)).count == 27)
    #expect(JuniorSetCard(number: 1, symbol: 2, color: 1).description == "2 oval green")
  }

  @Test("Any two cards complete to exactly one third card of the deck")
  func everyPairHasOneThirdCard() {
    let deck = JuniorSetCard.fullDeck
    for a in deck {
      for b in deck where b.id > a.id {
        let thirds = deck.filter { isJuniorSetByDefinition([a, b, $0]) }
        #expect(thirds == [JuniorSetCard.thirdCard(a, b)])
        #expect(JuniorSetCard.thirdCard(b, a) == thirds.first)
        // The same third card as Set's, on the solid faces.
        #expect(SetCard.thirdCard(a.face, b.face) == thirds.first?.face)
      }
    }
  }

  @Test("The 27 cards hold 117 sets")
  func oneHundredSeventeenSets() {
    let deck = JuniorSetCard.fullDeck
    let byDefinition = combinations(of: deck, choose: 3).filter(isJuniorSetByDefinition)
    #expect(byDefinition.count == 117)
    let found = JuniorSetCard.allSets(in: deck)
    #expect(found.count == 117)
    #expect(Set(found.map { Set($0.map(\.id)) }) == Set(byDefinition.map { Set($0.map(\.id)) }))
  }

  @Test("A set scores 3; anything else, duplicates included, scores 0")
  func matchScores() {
    let deck = JuniorSetCard.fullDeck
    for triple in combinations(of: deck, choose: 3) {
      #expect(JuniorSetCard.matchScore(triple) == (isJuniorSetByDefinition(triple) ? 3 : 0))
      #expect(
        JuniorSetCard.isSet(triple[0], triple[1], triple[2]) == isJuniorSetByDefinition(triple))
    }
    let (a, b) = (deck[0], deck[13])
    let c = JuniorSetCard.thirdCard(a, b)
    #expect(JuniorSetCard.matchScore([a, b, c]) == 3)
    #expect(JuniorSetCard.matchScore([a, a, a]) == 0)
    #expect(JuniorSetCard.matchScore([a, b]) == 0)
    #expect(JuniorSetCard.matchScore([a, b, c, deck[5]]) == 0)
  }

  @Test("Nine cards can hold no set; any tenth card makes one")
  func largestBoardWithoutASet() {
    let cap = nineCardsWithoutASet.map { JuniorSetCard.fullDeck[$0] }
    #expect(combinations(of: cap, choose: 3).allSatisfy { !isJuniorSetByDefinition($0) })
    #expect(!JuniorSetCard.containsMatch(in: cap, size: 3))
    for card in JuniorSetCard.fullDeck where !cap.contains(card) {
      #expect(JuniorSetCard.containsMatch(in: cap + [card], size: 3))
    }
  }

  @Test("containsMatch agrees with brute force on random boards", arguments: 0..<12)
  func containsMatchAgreesWithBruteForce(size: Int) {
    var generator = SeededGenerator(seed: 0x1_0000 + UInt64(size))
    for _ in 0..<50 {
      let board = randomCards(size, of: JuniorSetCard.self, using: &generator)
      let brute = combinations(of: board, choose: 3).contains(where: isJuniorSetByDefinition)
      #expect(JuniorSetCard.containsMatch(in: board, size: 3) == brute, "\(board)")
      #expect(!JuniorSetCard.containsMatch(in: board, size: 4))
      #expect(JuniorSetCard.allSets(in: board).isEmpty == !brute)
    }
  }

  @Test("Set Junior's settings: 9 up, sets of three, nothing else")
  func settings() {
    let solo = GameSettings.setJunior()
    #expect(solo.boardSize == 9)
    #expect(solo.matchSize == 3)
    #expect(solo.scoring == .course)
    #expect(GameSettings.setJunior(seats: 3, scoring: .classic).scoring == .classic)
    #expect(JuniorSetCard.problem(with: solo) == nil)
    #expect(JuniorSetCard.deckSize(for: solo) == 27)
    var four = solo
    four.matchSize = 4
    #expect(JuniorSetCard.problem(with: four) != nil)
    var wide = solo
    wide.boardSize = 28
    #expect(JuniorSetCard.problem(with: wide) != nil)
  }

  @Test("A game is played to its end, every set found", arguments: [1, 2, 3] as [UInt64])
  func aGameToTheEnd(seed: UInt64) {
    var game = CardMatchingGame<JuniorSetCard>(settings: .setJunior(), seed: seed)
    #expect(game.board.count >= 9)
    #expect(game.deckCount + game.board.count == 27)
    var matches = 0
    while !game.isOver {
      guard let set = JuniorSetCard.allSets(in: game.playableCards).first else {
        Issue.record("no set on a board of a game not over")
        return
      }
      var events: [GameEvent<JuniorSetCard>] = []
      for card in set { events += accept(.choose(seat: 0, card: card.id), in: &game) }
      #expect(matchedCards(in: events) == set)
      matches += 1
      // Nothing left on a board without a set while the deck has cards.
      #expect(game.isOver || game.boardHasMatch)
    }
    #expect(matches <= 9)
    #expect(game.deckCount == 0)
    #expect(!JuniorSetCard.containsMatch(in: game.board, size: 3))
    #expect(game.players[0].matches == matches)
    #expect(game.board.count == 27 - 3 * matches)
  }
}
