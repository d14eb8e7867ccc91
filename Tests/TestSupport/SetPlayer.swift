import Model

/// A seeded, scripted player of Set: mostly claims sets it finds on the board, sometimes
/// chooses a random card or un-chooses one, and now and then asks for a re-deal.
public struct SetPlayer {
  private var random: SeededGenerator
  private var plan: [Move] = []
  /// Chance in 100 of a re-deal instead of a choice.
  public var redealPercent = 0

  public init(seed: UInt64) { random = SeededGenerator(seed: seed) }

  /// The next move for `seat` in `game`.
  public mutating func nextMove(in game: CardMatchingGame<SetCard>, seat: Int = 0) -> Move {
    if !plan.isEmpty { return plan.removeFirst() }
    if game.isOver || random.below(100) < redealPercent { return .redeal(seat: seat) }
    let selection = game.players[seat].selection
    // Let go of the current selection first, so that a planned triple is exactly what is chosen.
    let letGo = selection.map { Move.choose(seat: seat, card: $0) }
    switch random.below(10) {
    case 0..<5:
      if let set = pick(SetCard.allSets(in: game.playableCards)) {
        plan = letGo + set.map { .choose(seat: seat, card: $0.id) }
        return plan.removeFirst()
      }
    case 5:
      if let wrong = wrongTriple(in: game.playableCards) {
        plan = letGo + wrong.map { .choose(seat: seat, card: $0.id) }
        return plan.removeFirst()
      }
    case 6:
      if let card = pick(selection) { return .choose(seat: seat, card: card) }
    default:
      break
    }
    let card = pick(game.playableCards) ?? SetCard.fullDeck[0]
    return .choose(seat: seat, card: card.id)
  }

  /// Three random cards of `cards` that are not a set, if a few tries find them.
  private mutating func wrongTriple(in cards: [SetCard]) -> [SetCard]? {
    guard cards.count >= 3 else { return nil }
    for _ in 0..<10 {
      var pool = cards
      let triple = (0..<3).map { _ in pool.remove(at: random.below(pool.count)) }
      if !SetCard.isSet(triple[0], triple[1], triple[2]) { return triple }
    }
    return nil
  }

  /// A random element of `items`.
  public mutating func pick<T>(_ items: [T]) -> T? {
    items.isEmpty ? nil : items[random.below(items.count)]
  }
}
