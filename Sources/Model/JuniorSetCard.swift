/// One card of Set Junior: a Set card without its shading (every symbol is solid). Three
/// attributes — number, symbol and colour — each with one of three values make 27 cards.
///
/// The rule is Set's: three cards are a set when, for every attribute, their values are all
/// equal or all different — exactly when the three indices sum to a multiple of three. With one
/// attribute fewer, any two cards still complete to exactly one third card, so the 27 cards hold
/// 117 sets, and any ten cards hold one (the largest boards without a set have nine).
public struct JuniorSetCard: MatchableCard, CustomStringConvertible {
  /// The three attributes, in the order they are packed into a card id: Set's number, symbol
  /// and colour, with their value names.
  public static let attributes: [SetCard.Attribute] = [
    SetCard.attributes[0], SetCard.attributes[1], SetCard.attributes[3],
  ]

  /// The card's id: its attribute values as the digits of a base-3 number, number first.
  public let id: Int

  /// Creates the card with these attribute value indices (each 0...2).
  public init(number: Int, symbol: Int, color: Int) {
    precondition([number, symbol, color].allSatisfy { (0..<3).contains($0) })
    id = number * 9 + symbol * 3 + color
  }

  private init(id: Int) { self.id = id }

  /// The index of the card's value for attribute `attribute` (0...2: number, symbol, colour).
  public func value(_ attribute: Int) -> Int {
    switch attribute {
    case 0: id / 9
    case 1: id / 3 % 3
    default: id % 3
    }
  }

  /// The card's three attribute value indices, number first.
  public var values: [Int] { (0..<3).map(value) }

  /// How many symbols the card shows (1...3).
  public var number: Int { value(0) + 1 }
  /// Index of the card's symbol in `attributes[1].values`.
  public var symbol: Int { value(1) }
  /// Index of the card's colour in `attributes[2].values`.
  public var color: Int { value(2) }

  /// The name of the card's value for `attribute`, e.g. "squiggle".
  public func valueName(_ attribute: Int) -> String {
    Self.attributes[attribute].values[value(attribute)]
  }

  public var description: String {
    (0..<3).map(valueName).joined(separator: " ")
  }

  /// The Set card that looks like this one: the same number, symbol and colour, solid. How the
  /// card is drawn, never how it is matched or named.
  public var face: SetCard {
    SetCard(number: value(0), symbol: symbol, shading: 0, color: color)
  }

  /// All 27 cards, in id order.
  public static let fullDeck: [JuniorSetCard] = (0..<27).map(JuniorSetCard.init(id:))

  /// Whether `a`, `b` and `c` form a set.
  public static func isSet(_ a: JuniorSetCard, _ b: JuniorSetCard, _ c: JuniorSetCard) -> Bool {
    guard a != b, b != c, a != c else { return false }
    return (0..<3).allSatisfy { (a.value($0) + b.value($0) + c.value($0)) % 3 == 0 }
  }

  /// The one card that makes a set with `a` and `b` (which must differ): in each attribute, the
  /// value that makes the three all the same or all different.
  public static func thirdCard(_ a: JuniorSetCard, _ b: JuniorSetCard) -> JuniorSetCard {
    var id = 0
    for attribute in 0..<3 {
      id = id * 3 + (6 - a.value(attribute) - b.value(attribute)) % 3
    }
    return JuniorSetCard(id: id)
  }

  /// A set scores one point per card, as in Set: a claimed set is worth 3 × the match bonus.
  public static func matchScore(_ cards: [JuniorSetCard]) -> Int {
    cards.count == 3 && isSet(cards[0], cards[1], cards[2]) ? 3 : 0
  }

  /// Every set among `cards`, each as three cards in board order.
  public static func allSets(in cards: [JuniorSetCard]) -> [[JuniorSetCard]] {
    var position = [Int: Int]()
    for (index, card) in cards.enumerated() { position[card.id] = index }
    var sets = [[JuniorSetCard]]()
    for i in cards.indices {
      for j in (i + 1)..<cards.count {
        if let k = position[thirdCard(cards[i], cards[j]).id], k > j {
          sets.append([cards[i], cards[j], cards[k]])
        }
      }
    }
    return sets
  }

  /// Whether `cards` hold a set: a pair whose third card is among them.
  public static func containsMatch(in cards: [JuniorSetCard], size: Int) -> Bool {
    guard size == 3 else { return false }
    let ids = Set(cards.map(\.id))
    for i in cards.indices {
      for j in (i + 1)..<cards.count where ids.contains(thirdCard(cards[i], cards[j]).id) {
        return true
      }
    }
    return false
  }

  /// Set Junior's sets are three cards; otherwise as ``GameSettings/problem(deckSize:)`` says.
  public static func problem(with settings: GameSettings) -> String? {
    if settings.matchSize != 3 { return "a set is three cards" }
    return settings.problem(deckSize: fullDeck.count)
  }
}
