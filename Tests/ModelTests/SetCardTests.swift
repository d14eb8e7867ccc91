import Model
import Testing

/// A Set card that keeps Set's match rule but not its fast `containsMatch`, so that calling
/// `containsMatch` on it runs the generic default of ``MatchableCard``.
private struct DefaultSearchSetCard: MatchableCard {
  let card: SetCard
  var id: Int { card.id }
  static let fullDeck = SetCard.fullDeck.map(DefaultSearchSetCard.init)
  static func matchScore(_ cards: [DefaultSearchSetCard]) -> Int {
    SetCard.matchScore(cards.map(\.card))
  }
}

/// Twenty cards with no set among them (a maximal cap in AG(4, 3)). Found once by a backtracking
/// search outside the tests; the test below checks the claim itself rather than trusting it.
private let twentyCardsWithoutASet = [
  2, 6, 9, 11, 24, 26, 29, 31, 37, 44, 48, 49, 51, 53, 54, 55, 64, 66, 75, 76,
]

@Suite("Set cards")
struct SetCardTests {
  // MARK: 1. The deck

  @Test("The deck is 81 different cards with ids 0...80 in order")
  func deckIsEightyOneCardsInIDOrder() {
    let deck = SetCard.fullDeck
    #expect(deck.count == 81)
    #expect(deck.map(\.id) == Array(0..<81))
    #expect(Set(deck).count == 81)
    #expect(Set(deck.map(\.description)).count == 81)
    for id in -2..<83 {
      #expect(SetCard.card(withID: id) == ((0..<81).contains(id) ? deck[id] : nil))
    }
  }

  @Test("Every combination of the four attribute values occurs exactly once")
  func everyCombinationOnce() {
    var expected: [[Int]] = []
    for number in 0..<3 {
      for symbol in 0..<3 {
        for shading in 0..<3 {
          for color in 0..<3 { expected.append([number, symbol, shading, color]) }
        }
      }
    }
    let deck = SetCard.fullDeck
    #expect(deck.map(\.values).sorted { $0.lexicographicallyPrecedes($1) } == expected)
    for card in deck {
      #expect(SetCard(values: card.values) == card)
      #expect(
        SetCard(
          number: card.number - 1, symbol: card.symbol, shading: card.shading, color: card.color)
          == card)
      #expect((1...3).contains(card.number))
    }
    // Names are all different too, so the deck is every combination of names.
    let names = Set(deck.map { card in (0..<4).map(card.valueName) })
    #expect(names.count == 81)
  }

  @Test("Attribute names and value names are data")
  func attributeNamesAreData() {
    #expect(SetCard.attributes.map(\.name) == ["number", "symbol", "shading", "color"])
    #expect(
      SetCard.attributes.map(\.values) == [
        ["1", "2", "3"], ["diamond", "squiggle", "oval"], ["solid", "striped", "open"],
        ["red", "green", "purple"],
      ])
    for card in SetCard.fullDeck {
      for attribute in 0..<4 {
        #expect(
          card.valueName(attribute)
            == SetCard.attributes[attribute].values[card.value(attribute)])
      }
      #expect(card.description == (0..<4).map(card.valueName).joined(separator: " "))
    }
    #expect(SetCard(number: 1, symbol: 2, shading: 0, color: 1).description == "2 oval solid green")
  }

  // MARK: 2. How many sets

  @Test("The full deck holds exactly 1,080 sets")
  func fullDeckHolds1080Sets() {
    let deck = SetCard.fullDeck
    var count = 0
    for i in deck.indices {
      for j in (i + 1)..<deck.count {
        for k in (j + 1)..<deck.count where SetCard.isSet(deck[i], deck[j], deck[k]) {
          count += 1
        }
      }
    }
    #expect(count == 1080)

    let sets = SetCard.allSets(in: deck)
    #expect(sets.count == 1080)
    #expect(Set(sets.map { Set($0) }).count == 1080)
    for set in sets {
      #expect(isSetByDefinition(set))
      // Reported in board order; the full deck is in id order.
      #expect(set.map(\.id) == set.map(\.id).sorted())
    }
    // Each card is in (81 - 1) / 2 = 40 sets: every other card pairs it with one third card.
    var appearances = [Int: Int]()
    for set in sets { for card in set { appearances[card.id, default: 0] += 1 } }
    #expect(appearances.count == 81)
    #expect(appearances.values.allSatisfy { $0 == 40 })
  }

  // MARK: 3. The set rule

  @Test("isSet agrees with the definition on every triple of different cards")
  func isSetAgreesWithDefinitionOnAllTriples() {
    let deck = SetCard.fullDeck
    var disagreements = 0
    for i in deck.indices {
      for j in (i + 1)..<deck.count {
        for k in (j + 1)..<deck.count
        where SetCard.isSet(deck[i], deck[j], deck[k])
          != isSetByDefinition([deck[i], deck[j], deck[k]])
        {
          disagreements += 1
        }
      }
    }
    #expect(disagreements == 0)
  }

  @Test("isSet agrees with the definition on a seeded sample of triples in any order")
  func isSetAgreesWithDefinitionOnSample() {
    var generator = SeededGenerator(seed: 3)
    var sets = 0
    var repeated = 0
    for _ in 0..<5000 {
      // Independent draws, so some triples repeat a card.
      let triple = (0..<3).map { _ in SetCard.fullDeck[generator.below(81)] }
      let isSet = SetCard.isSet(triple[0], triple[1], triple[2])
      #expect(isSet == isSetByDefinition(triple), "\(triple)")
      #expect((SetCard.matchScore(triple) == 3) == isSet)
      if isSet { sets += 1 }
      if Set(triple).count < 3 { repeated += 1 }
    }
    // The sample must exercise both answers and repeated cards (1 triple in 79 is a set).
    #expect(sets > 20)
    #expect(repeated > 20)
  }

  @Test("Three copies of a card, or two copies and another, are not a set")
  func repeatedCardsAreNotASet() {
    for card in SetCard.fullDeck {
      #expect(!SetCard.isSet(card, card, card))
      let other = SetCard.fullDeck[(card.id + 1) % 81]
      #expect(!SetCard.isSet(card, card, other))
      #expect(!SetCard.isSet(card, other, card))
      #expect(!SetCard.isSet(other, card, card))
      #expect(SetCard.matchScore([card, card, card]) == 0)
    }
  }

  @Test("Only three cards can score as a set")
  func matchScoreNeedsThreeCards() throws {
    let set = try #require(SetCard.allSets(in: SetCard.fullDeck).first)
    #expect(SetCard.matchScore(set) == 3)
    #expect(SetCard.matchScore(Array(set.prefix(2))) == 0)
    #expect(SetCard.matchScore(set + [SetCard.fullDeck[80]]) == 0)
    #expect(SetCard.matchScore([]) == 0)
  }

  // MARK: 4. The third card

  @Test("Any two cards determine exactly one third card, whichever order they come in")
  func thirdCardIsUniqueAndSymmetric() {
    let deck = SetCard.fullDeck
    for a in deck {
      for b in deck where b != a {
        let c = SetCard.thirdCard(a, b)
        #expect(c != a && c != b)
        #expect(isSetByDefinition([a, b, c]))
        #expect(SetCard.thirdCard(b, a) == c)
        #expect(SetCard.thirdCard(a, c) == b)
        let completing = deck.filter { SetCard.isSet(a, b, $0) }
        #expect(completing == [c])
      }
    }
  }

  // MARK: 5. Finding a set on a board

  @Test("containsMatch and allSets agree with brute force on random boards of 3 to 21 cards")
  func containsMatchAgreesWithBruteForce() {
    var generator = SeededGenerator(seed: 5)
    var withSet = 0
    var withoutSet = 0
    for boardSize in 3...21 {
      for _ in 0..<120 {
        let board = randomCards(boardSize, of: SetCard.self, using: &generator)
        let expected = boardHasSetByBruteForce(board)
        #expect(SetCard.containsMatch(in: board, size: 3) == expected, "\(board.map(\.id))")
        let generic = DefaultSearchSetCard.containsMatch(
          in: board.map(DefaultSearchSetCard.init), size: 3)
        #expect(generic == expected, "\(board.map(\.id))")

        let sets = SetCard.allSets(in: board)
        #expect(sets.isEmpty == !expected)
        let bruteForceSets = combinations(of: board, choose: 3).filter(isSetByDefinition)
        #expect(sets == bruteForceSets)
        if expected { withSet += 1 } else { withoutSet += 1 }
      }
    }
    // Both answers must be exercised.
    #expect(withSet > 500)
    #expect(withoutSet > 200)
  }

  @Test("Only three-card matches exist in Set")
  func containsMatchNeedsSizeThree() throws {
    let set = try #require(SetCard.allSets(in: SetCard.fullDeck).first)
    #expect(SetCard.containsMatch(in: set, size: 3))
    #expect(!SetCard.containsMatch(in: set, size: 2))
    #expect(!SetCard.containsMatch(in: set, size: 4))
    #expect(!SetCard.containsMatch(in: Array(set.prefix(2)), size: 3))
    #expect(!SetCard.containsMatch(in: [], size: 3))
    #expect(SetCard.allSets(in: []).isEmpty)
  }

  @Test("Twenty cards can hold no set")
  func twentyCardsWithoutSet() {
    let board = twentyCardsWithoutASet.map { SetCard.fullDeck[$0] }
    #expect(Set(board).count == 20)
    #expect(!boardHasSetByBruteForce(board))
    #expect(!SetCard.containsMatch(in: board, size: 3))
    #expect(SetCard.allSets(in: board).isEmpty)
    // It is maximal: every other card completes a set with two of the twenty.
    for card in SetCard.fullDeck where !board.contains(card) {
      #expect(SetCard.containsMatch(in: board + [card], size: 3))
    }
  }

  @Test("Every sampled 21-card board holds a set")
  func twentyOneCardsAlwaysHoldASet() {
    var generator = SeededGenerator(seed: 21)
    for _ in 0..<5000 {
      let board = randomCards(21, of: SetCard.self, using: &generator)
      #expect(SetCard.containsMatch(in: board, size: 3), "\(board.map(\.id))")
    }
  }
}
