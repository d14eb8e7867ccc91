/// A hint: one match a player may claim now, found by the card type's own search
/// (``MatchableCard/firstMatch(in:size:)``) or, once a chain shows, the chain's.
extension CardMatchingGame {
  /// A match on the board that a player may claim now, or nil when there is none: with a chain
  /// showing, a card of the chain (first) and board cards that make a match with it; otherwise
  /// the first match among the playable cards, in board order. Chooses nothing, changes nothing.
  public var hint: [Card]? {
    guard !isOver else { return nil }
    if isChained { return firstChainMatch }
    return Card.firstMatch(in: playableCards, size: settings.matchSize)
  }
}
