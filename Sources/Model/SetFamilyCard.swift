/// A card of Set's family (Set, Set Junior): `featureCount` features of three values each,
/// packed into its id as base-3 digits, first feature first. Three cards are a set when, for
/// every feature, their values are all equal or all different — exactly when each feature's
/// three values sum to a multiple of three; any two cards complete to exactly one third card.
/// The rule and the searches live here once, for every such card.
public protocol SetFamilyCard: MatchableCard {
  /// How many features a card has.
  static var featureCount: Int { get }
  /// The card whose id is `setFamilyID` (in `0..<3^featureCount`).
  init(setFamilyID: Int)
  /// The index (0...2) of the card's value for feature `feature`.
  func value(_ feature: Int) -> Int
}

extension SetFamilyCard {
  /// Whether `a`, `b` and `c` form a set.
  public static func isSet(_ a: Self, _ b: Self, _ c: Self) -> Bool {
    guard a != b, b != c, a != c else { return false }
    return (0..<featureCount).allSatisfy { (a.value($0) + b.value($0) + c.value($0)) % 3 == 0 }
  }

  /// The one card that makes a set with `a` and `b` (which must differ): in each feature, the
  /// value that makes the three all the same or all different. Looked up in a table of every
  /// pair (`thirdCardTables`) for up to four features, else built digit by digit: set
  /// searches, the look back and the lobby fuzz target call it for every pair of a board.
  public static func thirdCard(_ a: Self, _ b: Self) -> Self {
    if featureCount < thirdCardTables.count {
      let table = thirdCardTables[featureCount]
      return Self(setFamilyID: Int(table.ids[a.id * table.side + b.id]))
    }
    var id = 0
    for feature in 0..<featureCount {
      id = id * 3 + (6 - a.value(feature) - b.value(feature)) % 3
    }
    return Self(setFamilyID: id)
  }

  /// A set scores one point per card: a claimed set is worth 3 × the match bonus.
  public static func matchScore(_ cards: [Self]) -> Int {
    cards.count == 3 && isSet(cards[0], cards[1], cards[2]) ? 3 : 0
  }

  /// Every set among `cards`, each as three cards in board order.
  public static func allSets(in cards: [Self]) -> [[Self]] {
    matchPositions(in: cards, size: 3).map { $0.map { cards[$0] } }
  }

  /// Every set among `cards` as positions (``forEachSet(in:_:)``).
  public static func matchPositions(in cards: [Self], size: Int) -> [[Int]] {
    guard size == 3 else { return [] }
    var sets: [[Int]] = []
    forEachSet(in: cards) { i, j, k in
      sets.append([i, j, k])
      return true
    }
    return sets
  }

  /// The first set among `cards`, in the order of `cards` (the first card as early as can be,
  /// then the second). Whether `cards` hold a set is whether there is one (the protocol's
  /// `containsMatch`).
  public static func firstMatch(in cards: [Self], size: Int) -> [Self]? {
    guard size == 3 else { return nil }
    var found: [Self]?
    forEachSet(in: cards) { i, j, k in
      found = [cards[i], cards[j], cards[k]]
      return false
    }
    return found
  }

  /// Calls `body` with the positions of each set among `cards` (i < j < k, ordered by i, then
  /// j) until it returns false: one pass over the pairs (never over the C(n, 3) triples), each
  /// looking up its third card by id, with no dictionary.
  private static func forEachSet(in cards: [Self], _ body: (Int, Int, Int) -> Bool) {
    guard cards.count >= 3 else { return }
    var deckSize = 1
    for _ in 0..<featureCount { deckSize *= 3 }
    withUnsafeTemporaryAllocation(of: Int.self, capacity: deckSize) { position in
      position.initialize(repeating: -1)
      for (index, card) in cards.enumerated() { position[card.id] = index }
      for i in cards.indices {
        for j in (i + 1)..<cards.count {
          let k = position[thirdCard(cards[i], cards[j]).id]
          if k > j, !body(i, j, k) { return }
        }
      }
    }
  }
}

/// The third card's id of every pair of ids (`a * 3^n + b`), for the families of up to four
/// features (81 × 81 bytes for Set), each with its side (3^n): ``SetFamilyCard/thirdCard(_:_:)``
/// looks one up rather than working it out feature by feature. Entry n is for n features; a pair
/// of one card twice names that card.
private let thirdCardTables: [(side: Int, ids: [UInt8])] = (0...4).map { features in
  var size = 1
  for _ in 0..<features { size *= 3 }
  var table = [UInt8](repeating: 0, count: size * size)
  for a in 0..<size {
    for b in 0..<size {
      var (x, y, id, place) = (a, b, 0, 1)
      for _ in 0..<features {
        id += (6 - x % 3 - y % 3) % 3 * place
        place *= 3
        x /= 3
        y /= 3
      }
      table[a * size + b] = UInt8(id)
    }
  }
  return (size, table)
}
