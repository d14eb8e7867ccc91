/// The chain rule (Set-Chain, ``MatchableCard/chainsMatches``): the first match is any match on
/// the board; after it, the match just made stays beside the board as the chain, and every match
/// is exactly one card of the chain with the rest from the board, and becomes the next chain.
///
/// A selection breaking the rule is refused before it is made, never judged: a second card of
/// the chain (``MoveRejection/secondChainCard(_:)``), or a board card beyond the board cards a
/// chain match takes while no card of the chain is chosen (``MoveRejection/chainCardNeeded(_:)``).
/// So a full selection always holds one chain card, and a miss is a miss of the cards' own rule.
extension CardMatchingGame {
  /// Whether the chain rule is in force now: the cards chain and a chain is showing.
  public var isChained: Bool { Card.chainsMatches && !chain.isEmpty }

  /// Whether one card of the chain and `matchSize − 1` playable board cards make a match.
  public var hasChainMatch: Bool {
    !chainMatches(stoppingAtFirst: true).isEmpty
  }

  /// The first chain match on the board (its chain card first), or nil when there is none.
  var firstChainMatch: [Card]? {
    chainMatches(stoppingAtFirst: true).first
  }

  /// Every match a player may claim now, each as its cards: with a chain showing, one card of
  /// the chain (first) and board cards in board order; otherwise every match among the
  /// playable cards, in board order.
  public var claimableMatches: [[Card]] {
    if isChained { return chainMatches(stoppingAtFirst: false) }
    let cards = playableCards
    return Card.matchPositions(in: cards, size: settings.matchSize).map { $0.map { cards[$0] } }
  }

  /// The chain matches on the board (only the first one when `stoppingAtFirst`).
  private func chainMatches(stoppingAtFirst: Bool) -> [[Card]] {
    let cards = playableCards
    var found: [[Card]] = []
    for anchor in chain {
      forEachCombination(of: cards.count, choose: settings.matchSize - 1) { indices in
        let chosen = [anchor] + indices.map { cards[$0] }
        if Card.matchScore(chosen) > 0 { found.append(chosen) }
        return !(stoppingAtFirst && !found.isEmpty)
      }
      if stoppingAtFirst && !found.isEmpty { break }
    }
    return found
  }

  /// Why `card` may not join `selection` under the chain rule, or nil when it may.
  func chainRefusal(adding card: Card, to selection: [Int]) -> MoveRejection? {
    guard isChained else { return nil }
    // A loop, not `chain.map(\.id)`: for the reason in `retire`.
    var chainIDs = Set<Int>()
    for card in chain { chainIDs.insert(card.id) }
    let fromChain = selection.count { chainIDs.contains($0) }
    if chainIDs.contains(card.id) {
      return fromChain > 0 ? .secondChainCard(card.id) : nil
    }
    let fromBoard = selection.count - fromChain
    return fromChain == 0 && fromBoard >= settings.matchSize - 1
      ? .chainCardNeeded(card.id) : nil
  }

  /// After a match of `cards` (in the order chosen), they are the chain: the card of the old
  /// chain first, then the board's. Nothing happens in a game whose matches do not chain.
  mutating func advanceChain(to cards: [Card]) -> [GameEvent<Card>] {
    guard Card.chainsMatches else { return [] }
    let old = chain
    chain = cards.filter { old.contains($0) } + cards.filter { !old.contains($0) }
    return [.chained(chain)]
  }
}
