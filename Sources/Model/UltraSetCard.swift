/// A card of UltraSet: one of Set's 81 cards, matched by another rule. Four cards are an
/// UltraSet when they split into two pairs that both need the same third card to make a set
/// (``SetCard/thirdCard(_:_:)``); that card need not be on the board, nor in play.
///
/// Seen as vectors of attribute values mod 3, the third card of a and b is −(a + b), so four
/// different cards a, b, c, d are an UltraSet when a + b = c + d for one of their three splits
/// into pairs. Some facts the search and the tests rely on:
/// - at most one split works (two would make two of the cards equal), and the shared third card
///   is never one of the four;
/// - two different pairs that need the same third card share no card, so every two pairs of a
///   board with the same third card are an UltraSet;
/// - a set and any fourth card are never an UltraSet (that would make the fourth card one of the
///   set's);
/// - the 81 cards hold 63,180 UltraSets (for each third card, 40 pairs need it: C(40, 2) = 780
///   UltraSets each), and any ten cards hold one (the largest boards without one have nine).
public struct UltraSetCard: MatchableCard, CustomStringConvertible {
  /// The Set card this is.
  public let card: SetCard

  /// The UltraSet card that is Set card `card`.
  public init(_ card: SetCard) { self.card = card }

  /// The Set card's id.
  public var id: Int { card.id }

  public var description: String { card.description }

  /// All 81 cards, in id order.
  public static let fullDeck: [UltraSetCard] = SetCard.fullDeck.map(UltraSetCard.init)

  /// The card both pairs of `cards` need, when they are four different cards that split into
  /// two pairs needing the same third card; nil otherwise.
  public static func sharedThird(_ cards: [UltraSetCard]) -> SetCard? {
    guard cards.count == 4 else { return nil }
    let (a, b, c, d) = (cards[0].card, cards[1].card, cards[2].card, cards[3].card)
    guard Set([a.id, b.id, c.id, d.id]).count == 4 else { return nil }
    for (first, second) in [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))] {
      let third = SetCard.thirdCard(first.0, first.1)
      if third == SetCard.thirdCard(second.0, second.1) { return third }
    }
    return nil
  }

  /// An UltraSet scores one point per card, as a set does: a claimed UltraSet is worth 4 × the
  /// match bonus.
  public static func matchScore(_ cards: [UltraSetCard]) -> Int {
    sharedThird(cards) == nil ? 0 : 4
  }

  /// The pairs of `cards` (as positions, each pair in board order) that need each third card,
  /// keyed by the third card's id, for the third cards that two pairs or more need.
  private static func pairsByThird(in cards: [UltraSetCard]) -> [Int: [(Int, Int)]] {
    var pairs: [Int: [(Int, Int)]] = [:]
    for i in cards.indices {
      for j in (i + 1)..<cards.count where cards[i] != cards[j] {
        pairs[SetCard.thirdCard(cards[i].card, cards[j].card).id, default: []].append((i, j))
      }
    }
    return pairs.filter { $0.value.count > 1 }
  }

  /// Every UltraSet among `cards` (which must differ, as a board's do): every two pairs that
  /// need the same third card, each pair in board order, ordered by that card's id.
  public static func allUltraSets(in cards: [UltraSetCard]) -> [[UltraSetCard]] {
    var found: [[UltraSetCard]] = []
    for (_, pairs) in pairsByThird(in: cards).sorted(by: { $0.key < $1.key }) {
      for p in pairs.indices {
        for q in (p + 1)..<pairs.count {
          found.append(
            [pairs[p].0, pairs[p].1, pairs[q].0, pairs[q].1].map { cards[$0] })
        }
      }
    }
    return found
  }

  /// Every UltraSet among `cards` as positions, each group ascending, the groups in
  /// lexicographic order (one pass over the pairs).
  public static func matchPositions(in cards: [UltraSetCard], size: Int) -> [[Int]] {
    guard size == 4 else { return [] }
    var found: [[Int]] = []
    for (_, pairs) in pairsByThird(in: cards) {
      for p in pairs.indices {
        for q in (p + 1)..<pairs.count {
          found.append([pairs[p].0, pairs[p].1, pairs[q].0, pairs[q].1].sorted())
        }
      }
    }
    return found.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// Whether `cards` (which must differ, as a board's do) hold an UltraSet: two pairs that need
  /// the same third card. One pass over the pairs, never over the C(n, 4) groups of four.
  public static func containsMatch(in cards: [UltraSetCard], size: Int) -> Bool {
    guard size == 4 else { return false }
    var needed = [Bool](repeating: false, count: SetCard.fullDeck.count)
    for i in cards.indices {
      for j in (i + 1)..<cards.count where cards[i] != cards[j] {
        let third = SetCard.thirdCard(cards[i].card, cards[j].card).id
        if needed[third] { return true }
        needed[third] = true
      }
    }
    return false
  }

  /// The first UltraSet among `cards` (which must differ, as a board's do): the first pair,
  /// in board order, whose third card an earlier pair needs too, after that earlier pair. One
  /// pass over the pairs.
  public static func firstMatch(in cards: [UltraSetCard], size: Int) -> [UltraSetCard]? {
    guard size == 4 else { return nil }
    var firstPair = [(Int, Int)?](repeating: nil, count: SetCard.fullDeck.count)
    for i in cards.indices {
      for j in (i + 1)..<cards.count where cards[i] != cards[j] {
        let third = SetCard.thirdCard(cards[i].card, cards[j].card).id
        if let (a, b) = firstPair[third] { return [cards[a], cards[b], cards[i], cards[j]] }
        firstPair[third] = (i, j)
      }
    }
    return nil
  }

  /// An UltraSet is four cards; otherwise as ``GameSettings/problem(deckSize:)`` says.
  public static func problem(with settings: GameSettings) -> String? {
    if settings.matchSize != 4 { return "an UltraSet is four cards" }
    return settings.problem(deckSize: fullDeck.count)
  }
}
