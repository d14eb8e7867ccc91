import Model
import Testing

// Helpers shared by the model tests. Rules here are written from the game's definition, not by
// calling the model's own shortcuts, so that a test compares two independent answers.

/// The definition of a set, straight from the rules: three different cards such that, for each
/// attribute, the three value names are all equal or all different. It looks at names, not at the
/// model's index arithmetic.
func isSetByDefinition(_ cards: [SetCard]) -> Bool {
  guard cards.count == 3 else { return false }
  let (a, b, c) = (cards[0], cards[1], cards[2])
  guard a.id != b.id, b.id != c.id, a.id != c.id else { return false }
  return SetCard.attributes.indices.allSatisfy { attribute in
    let (x, y, z) = (a.valueName(attribute), b.valueName(attribute), c.valueName(attribute))
    return (x == y && y == z) || (x != y && y != z && x != z)
  }
}

/// Calls `body` with every `k`-element combination of the positions `0..<count`, in
/// lexicographic order, until it returns false (independent of the model's combination
/// walker). Positions in an array reused from call to call, nothing built per combination:
/// the brute-force tests run unoptimised, and a recursion that copied the rest of the items at
/// every step was most of their time.
func forEachCombination(of count: Int, choose k: Int, _ body: ([Int]) -> Bool) {
  guard k > 0 else {
    _ = body([])
    return
  }
  guard count >= k else { return }
  var positions = Array(0..<k)
  while body(positions) {
    // The rightmost position that can still move right, then the ones after it just behind.
    var moving = k - 1
    while moving >= 0 && positions[moving] == count - k + moving { moving -= 1 }
    guard moving >= 0 else { return }
    positions[moving] += 1
    for next in (moving + 1)..<k { positions[next] = positions[next - 1] + 1 }
  }
}

/// Every `k`-element combination of `items`, in lexicographic order of their positions.
func combinations<T>(of items: [T], choose k: Int) -> [[T]] {
  var result: [[T]] = []
  forEachCombination(of: items.count, choose: k) { positions in
    result.append(positions.map { items[$0] })
    return true
  }
  return result
}

/// Whether some three of `cards` form a set, by enumerating every triple with the definition.
func boardHasSetByBruteForce(_ cards: [SetCard]) -> Bool {
  for i in cards.indices {
    for j in (i + 1)..<cards.count {
      for k in (j + 1)..<cards.count where isSetByDefinition([cards[i], cards[j], cards[k]]) {
        return true
      }
    }
  }
  return false
}

/// `count` different random cards of `Card`'s deck, drawn with `generator`.
func randomCards<Card: MatchableCard>(
  _ count: Int, of _: Card.Type, using generator: inout SeededGenerator
) -> [Card] {
  var deck = Card.fullDeck
  generator.shuffle(&deck)
  return Array(deck.prefix(count))
}

/// The first match among the playable cards of `game`, found by brute force over combinations of
/// the match size, or nil when there is none.
func firstMatch<Card: MatchableCard>(in game: CardMatchingGame<Card>) -> [Card]? {
  let cards = game.playableCards
  var found: [Card]?
  forEachCombination(of: cards.count, choose: game.settings.matchSize) { positions in
    let chosen = positions.map { cards[$0] }
    if Card.matchScore(chosen) > 0 { found = chosen }
    return found == nil
  }
  return found
}

/// Applies `move`, expecting it to be accepted, and returns its events.
@discardableResult
func accept<Card: MatchableCard>(
  _ move: Move, in game: inout CardMatchingGame<Card>,
  sourceLocation: SourceLocation = #_sourceLocation
) -> [GameEvent<Card>] {
  do {
    return try game.apply(move)
  } catch {
    Issue.record("\(move) was refused: \(error)", sourceLocation: sourceLocation)
    return []
  }
}

/// Applies `move`, expecting it to be refused with `expected` and to change nothing.
func expectRejection<Card: MatchableCard>(
  _ move: Move, in game: inout CardMatchingGame<Card>, is expected: MoveRejection,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let before = game
  do {
    let events = try game.apply(move)
    Issue.record("\(move) was accepted: \(events)", sourceLocation: sourceLocation)
  } catch {
    #expect(error == expected, sourceLocation: sourceLocation)
  }
  #expect(game == before, "a refused move changed the game", sourceLocation: sourceLocation)
}

/// Chooses and un-chooses `card` `times` times for `seat`: each round costs exactly the cost to
/// choose, because un-choosing is free.
func spendChoices<Card: MatchableCard>(
  _ times: Int, choosing card: Card, seat: Int = 0, in game: inout CardMatchingGame<Card>,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for _ in 0..<times {
    let before = game.players[seat].score
    let handle = game.handle(of: card)
    accept(.choose(seat: seat, card: handle), in: &game, sourceLocation: sourceLocation)
    #expect(
      game.players[seat].score == before - game.settings.costToChoose,
      sourceLocation: sourceLocation)
    let events = accept(
      .choose(seat: seat, card: handle), in: &game, sourceLocation: sourceLocation)
    // A face-down card turns back down as it leaves the selection.
    let down: [GameEvent<Card>] = game.settings.faceDown ? [.turnedDown([card])] : []
    #expect(events == [.deselected(seat: seat, card: card)] + down, sourceLocation: sourceLocation)
    #expect(
      game.players[seat].score == before - game.settings.costToChoose,
      sourceLocation: sourceLocation)
  }
}

/// The cards that `events` report as matched, in order.
func matchedCards<Card: MatchableCard>(in events: [GameEvent<Card>]) -> [Card] {
  events.flatMap { event -> [Card] in
    if case .matched(_, let cards, _) = event { return cards }
    return []
  }
}

/// The `.ended` events among `events`.
func endings<Card: MatchableCard>(in events: [GameEvent<Card>]) -> [[Standing]] {
  events.compactMap { event in
    if case .ended(let standings) = event { return standings }
    return nil
  }
}

/// The fields of a ``Standing`` (whose initializer is not public), to write expected standings.
struct StandingRow: Hashable, CustomStringConvertible {
  var seat: Int
  var score: Int
  var matches: Int
  var rank: Int

  var description: String { "seat \(seat): \(score) (\(matches) matches), rank \(rank)" }
}

/// `standings` as rows.
func rows(_ standings: [Standing]) -> [StandingRow] {
  standings.map {
    StandingRow(seat: $0.seat, score: $0.score, matches: $0.matches, rank: $0.rank)
  }
}

/// Whether every seat of `game` is as a new game leaves it: no score, no matches, no selection.
func everySeatIsFresh<Card: MatchableCard>(_ game: CardMatchingGame<Card>) -> Bool {
  game.players.allSatisfy { $0.score == 0 && $0.matches == 0 && $0.selection.isEmpty }
}
