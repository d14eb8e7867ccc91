/// A card of Set-Chain: one of Set's 81 cards, matched by Set's rule, with the chain rule on top
/// (``MatchableCard/chainsMatches``): the first set is any set on the board; every set after it
/// is one card of the previous set (the chain, shown beside the board) and two cards of the
/// board, and becomes the next chain.
///
/// Each chain card is in 40 sets, so a random board of 12 holds a chain set about 95% of the
/// time; without one, three more cards are dealt as in Set.
public struct SetChainCard: SetFamilyCard, CustomStringConvertible {
  /// The Set card this is.
  public let card: SetCard

  /// The Set-Chain card that is Set card `card`.
  public init(_ card: SetCard) { self.card = card }

  /// Set-Chain has Set's four features.
  public static var featureCount: Int { 4 }

  public init(setFamilyID id: Int) { card = SetCard(setFamilyID: id) }

  /// The Set card's id.
  public var id: Int { card.id }

  /// The index of the card's value for feature `feature` (Set's).
  public func value(_ feature: Int) -> Int { card.value(feature) }

  public var description: String { card.description }

  /// All 81 cards, in id order.
  public static let fullDeck: [SetChainCard] = SetCard.fullDeck.map(SetChainCard.init)

  /// Every set after the first takes one card of the one before.
  public static var chainsMatches: Bool { true }

  /// A chain set is three cards; otherwise as ``GameSettings/problem(deckSize:)`` says.
  public static func problem(with settings: GameSettings) -> String? {
    if settings.matchSize != 3 { return "a set is three cards" }
    if settings.matchedCards != .replace { return "chain sets leave the board" }
    return settings.problem(deckSize: fullDeck.count)
  }
}
