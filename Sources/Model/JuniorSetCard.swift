/// One card of Set Junior: a Set card without its shading (every symbol is solid). Three
/// attributes — number, symbol and colour — each with one of three values make 27 cards.
///
/// The rule is Set's: three cards are a set when, for every attribute, their values are all
/// equal or all different — exactly when the three indices sum to a multiple of three. With one
/// attribute fewer, any two cards still complete to exactly one third card, so the 27 cards hold
/// 117 sets, and any ten cards hold one (the largest boards without a set have nine).
public struct JuniorSetCard: SetFamilyCard, CustomStringConvertible {
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

  /// Set Junior has three features: number, symbol, colour.
  public static var featureCount: Int { 3 }

  public init(setFamilyID id: Int) { self.id = id }

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
  public static let fullDeck: [JuniorSetCard] = (0..<27).map(JuniorSetCard.init(setFamilyID:))

  /// Set Junior's sets are three cards; otherwise as ``GameSettings/problem(deckSize:)`` says.
  public static func problem(with settings: GameSettings) -> String? {
    if settings.matchSize != 3 { return "a set is three cards" }
    return settings.problem(deckSize: fullDeck.count)
  }
}
