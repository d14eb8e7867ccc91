import Model
import Testing

// Helpers shared by the model tests. Rules here are written from the game's definition, not by
// calling the model's own shortcuts, so that a test compares two independent answers.

/// The definition of a set, straight from the rules: three different cards such that, for each
/// attribute, the three value names are all equal or all different. It looks at names, not at the
/// model's index arithmetic.
func isSetByDefinition(_ cards: [SetCard]) -> Bool {
  guard cards.count == 3, Set(cards.map(\.id)).count == 3 else { return false }
  return SetCard.attributes.indices.allSatisfy { attribute in
    let distinct = Set(cards.map { $0.valueName(attribute) }).count
    return distinct == 1 || distinct == 3
  }
}

/// Every `k`-element combination of `items`, by brute force (independent of the model's
/// combination walker).
func combinations<T>(of items: [T], choose k: Int) -> [[T]] {
  guard k > 0 else { return [[]] }
  guard items.count >= k else { return [] }
  var result: [[T]] = []
  for (index, first) in items.enumerated() {
    for rest in combinations(of: Array(items[(index + 1)...]), choose: k - 1) {
      result.append([first] + rest)
    }
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
  combinations(of: game.playableCards, choose: game.settings.matchSize).first {
    Card.matchScore($0) > 0
  }
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
