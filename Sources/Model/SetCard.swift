/// One card of the game of Set: four attributes, each with one of three values.
///
/// Attribute values are indices into ``SetCard/attributes``; names such as "diamond" or "red"
/// are data, and the rule never looks at them: three cards are a set when, for every attribute,
/// their values are all equal or all different — exactly when the three indices sum to a
/// multiple of three.
public struct SetCard: MatchableCard, CustomStringConvertible {
  /// One attribute of a Set card and the names of its three values, in index order.
  public struct Attribute: Hashable, Sendable {
    /// The attribute's name: "number", "symbol", "shading" or "color".
    public let name: String
    /// The names of its values, index 0 first.
    public let values: [String]
  }

  /// The four attributes, in the order they are packed into a card id.
  public static let attributes: [Attribute] = [
    Attribute(name: "number", values: ["1", "2", "3"]),
    Attribute(name: "symbol", values: ["diamond", "squiggle", "oval"]),
    Attribute(name: "shading", values: ["solid", "striped", "open"]),
    Attribute(name: "color", values: ["red", "green", "purple"]),
  ]

  /// The card's id: its attribute values as the digits of a base-3 number, number first.
  public let id: Int

  /// Creates the card with these attribute value indices (each 0...2).
  public init(number: Int, symbol: Int, shading: Int, color: Int) {
    precondition([number, symbol, shading, color].allSatisfy { (0..<3).contains($0) })
    id = number * 27 + symbol * 9 + shading * 3 + color
  }

  /// Creates the card with attribute values `values` (number, symbol, shading, color).
  public init(values: [Int]) {
    precondition(values.count == 4)
    self.init(number: values[0], symbol: values[1], shading: values[2], color: values[3])
  }

  private init(id: Int) { self.id = id }

  /// The index of the card's value for attribute `attribute` (0...3).
  public func value(_ attribute: Int) -> Int {
    switch attribute {
    case 0: id / 27
    case 1: id / 9 % 3
    case 2: id / 3 % 3
    default: id % 3
    }
  }

  /// The card's four attribute value indices, number first.
  public var values: [Int] { (0..<4).map(value) }

  /// How many symbols the card shows (1...3).
  public var number: Int { value(0) + 1 }
  /// Index of the card's symbol in `attributes[1].values`.
  public var symbol: Int { value(1) }
  /// Index of the card's shading in `attributes[2].values`.
  public var shading: Int { value(2) }
  /// Index of the card's colour in `attributes[3].values`.
  public var color: Int { value(3) }

  /// The name of the card's value for `attribute`, e.g. "squiggle".
  public func valueName(_ attribute: Int) -> String {
    Self.attributes[attribute].values[value(attribute)]
  }

  public var description: String {
    (0..<4).map(valueName).joined(separator: " ")
  }

  /// All 81 cards, in id order.
  public static let fullDeck: [SetCard] = (0..<81).map(SetCard.init(id:))

  /// Whether `a`, `b` and `c` form a set.
  public static func isSet(_ a: SetCard, _ b: SetCard, _ c: SetCard) -> Bool {
    guard a != b, b != c, a != c else { return false }
    return (0..<4).allSatisfy { (a.value($0) + b.value($0) + c.value($0)) % 3 == 0 }
  }

  /// The one card that makes a set with `a` and `b` (which must differ): in each attribute, the
  /// value that makes the three all the same or all different. Built digit by digit, without an
  /// array: set searches and the lobby fuzz target call it for every pair of a board.
  public static func thirdCard(_ a: SetCard, _ b: SetCard) -> SetCard {
    var id = 0
    for attribute in 0..<4 {
      id = id * 3 + (6 - a.value(attribute) - b.value(attribute)) % 3
    }
    return SetCard(id: id)
  }

  /// A set scores one point per card: a claimed set is worth 3 × the match bonus.
  public static func matchScore(_ cards: [SetCard]) -> Int {
    cards.count == 3 && isSet(cards[0], cards[1], cards[2]) ? 3 : 0
  }

  /// Every set among `cards`, each as three cards in board order.
  public static func allSets(in cards: [SetCard]) -> [[SetCard]] {
    var position = [Int: Int]()
    for (index, card) in cards.enumerated() { position[card.id] = index }
    var sets = [[SetCard]]()
    for i in cards.indices {
      for j in (i + 1)..<cards.count {
        if let k = position[thirdCard(cards[i], cards[j]).id], k > j {
          sets.append([cards[i], cards[j], cards[k]])
        }
      }
    }
    return sets
  }

  public static func containsMatch(in cards: [SetCard], size: Int) -> Bool {
    guard size == 3 else { return false }
    let ids = Set(cards.map(\.id))
    for i in cards.indices {
      for j in (i + 1)..<cards.count where ids.contains(thirdCard(cards[i], cards[j]).id) {
        return true
      }
    }
    return false
  }
}
