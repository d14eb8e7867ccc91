/// One card of the game of Set: four attributes, each with one of three values.
///
/// Attribute values are indices into ``SetCard/attributes``; names such as "diamond" or "red"
/// are data, and the rule never looks at them: three cards are a set when, for every attribute,
/// their values are all equal or all different — exactly when the three indices sum to a
/// multiple of three.
public struct SetCard: SetFamilyCard, CustomStringConvertible {
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

  /// Set has four features: number, symbol, shading, colour.
  public static var featureCount: Int { 4 }

  public init(setFamilyID id: Int) { self.id = id }

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
  public static let fullDeck: [SetCard] = (0..<81).map(SetCard.init(setFamilyID:))
}
