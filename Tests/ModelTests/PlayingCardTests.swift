import Model
import Testing

/// The card of rank `rank` (1...13) and suit `suit` ("♠", "♥", "♦" or "♣").
private func card(_ rank: Int, _ suit: String) -> PlayingCard {
  PlayingCard(rank: rank, suit: PlayingCard.suits.firstIndex(of: suit)!)
}

@Suite("Playing cards")
struct PlayingCardTests {
  @Test("The deck is 52 different cards, every rank of every suit once, in id order")
  func deckIsFiftyTwoCards() {
    let deck = PlayingCard.fullDeck
    #expect(deck.count == 52)
    #expect(deck.map(\.id) == Array(0..<52))
    #expect(Set(deck).count == 52)
    #expect(PlayingCard.suits == ["♠", "♥", "♦", "♣"])
    var pairs = Set<[Int]>()
    for card in deck {
      #expect((1...13).contains(card.rank))
      #expect((0..<4).contains(card.suit))
      pairs.insert([card.rank, card.suit])
      #expect(PlayingCard(rank: card.rank, suit: card.suit) == card)
    }
    #expect(pairs.count == 52)
    #expect(Set(deck.map(\.description)).count == 52)
    #expect(PlayingCard.card(withID: 52) == nil)
    #expect(PlayingCard.card(withID: -1) == nil)
  }

  @Test(
    "Cards are named rank then suit",
    arguments: [
      (1, "♠", "A♠"), (10, "♥", "10♥"), (11, "♦", "J♦"), (12, "♣", "Q♣"), (13, "♠", "K♠"),
    ]
  )
  func description(rank: Int, suit: String, name: String) {
    #expect(card(rank, suit).description == name)
  }

  @Test(
    "Two or three cards score the sum over their pairs: same suit 1, same rank 4",
    arguments: [
      ([card(3, "♠"), card(9, "♠")], 1),
      ([card(6, "♠"), card(6, "♥")], 4),
      ([card(6, "♠"), card(7, "♥")], 0),
      ([card(1, "♦"), card(13, "♦")], 1),
      ([card(2, "♠"), card(7, "♠"), card(9, "♠")], 3),
      ([card(12, "♠"), card(12, "♥"), card(12, "♦")], 12),
      ([card(1, "♠"), card(5, "♠"), card(1, "♥")], 5),
      ([card(1, "♠"), card(5, "♥"), card(9, "♦")], 0),
      ([card(4, "♣"), card(8, "♣"), card(8, "♥")], 5),
      ([card(4, "♣"), card(8, "♥"), card(9, "♦")], 0),
    ]
  )
  func matchScore(cards: [PlayingCard], score: Int) {
    #expect(PlayingCard.matchScore(cards) == score)
    #expect(PlayingCard.matchScore(cards.reversed()) == score)
  }

  @Test("Every pair of different cards: 12 suit matches and 3 rank matches each")
  func everyPair() {
    let deck = PlayingCard.fullDeck
    for a in deck {
      var suitMatches = 0
      var rankMatches = 0
      for b in deck where b != a {
        let score = PlayingCard.matchScore([a, b])
        let sameSuit = a.description.last == b.description.last
        let sameRank = a.description.dropLast() == b.description.dropLast()
        #expect(score == (sameSuit ? 1 : 0) + (sameRank ? 4 : 0))
        if sameSuit { suitMatches += 1 }
        if sameRank { rankMatches += 1 }
      }
      #expect(suitMatches == 12)
      #expect(rankMatches == 3)
    }
  }

  @Test("A single card or none is no match")
  func fewerThanTwoCards() {
    #expect(PlayingCard.matchScore([]) == 0)
    #expect(PlayingCard.matchScore([card(5, "♥")]) == 0)
    #expect(!PlayingCard.containsMatch(in: [card(5, "♥")], size: 2))
  }

  @Test("The generic containsMatch finds pairs and triples only when they score")
  func genericContainsMatch() {
    let noPair = [card(1, "♠"), card(2, "♥"), card(3, "♦"), card(4, "♣")]
    #expect(!PlayingCard.containsMatch(in: noPair, size: 2))
    #expect(!PlayingCard.containsMatch(in: noPair, size: 3))
    let onePair = noPair + [card(9, "♥")]
    #expect(PlayingCard.containsMatch(in: onePair, size: 2))
    // Any three of five cards that include the two hearts score.
    #expect(PlayingCard.containsMatch(in: onePair, size: 3))
    #expect(!PlayingCard.containsMatch(in: onePair, size: 6))
    #expect(!PlayingCard.containsMatch(in: onePair, size: 0))
  }
}
