import Model
import Testing

/// Every match a player may claim in `game` now, by brute force over the combinations (not the
/// card types' searches): with a chain showing, a card of the chain and board cards; otherwise
/// `matchSize` playable cards. `isMatch` is the rule, written apart from the model's where the
/// game's tests define one.
private func claimable<Card: MatchableCard>(
  _ game: CardMatchingGame<Card>, isMatch: ([Card]) -> Bool
) -> [[Card]] {
  if game.isChained {
    return game.chain.flatMap { anchor in
      combinations(of: game.playableCards, choose: game.settings.matchSize - 1)
        .map { [anchor] + $0 }.filter(isMatch)
    }
  }
  return combinations(of: game.playableCards, choose: game.settings.matchSize).filter(isMatch)
}

/// Plays `game` from its deal to its end (or `limit` claims), checking its hint against
/// brute force before every claim: a hint exactly when a match may be claimed, and then one of
/// them (a chain match's chain card first, the rest from the board). Each claim takes the hint,
/// or every third time another match, so boards and chains differ from the hint's own path.
private func checkHints<Card: MatchableCard>(
  _ game: inout CardMatchingGame<Card>, limit: Int = 40, isMatch: ([Card]) -> Bool,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for claim in 0..<limit {
    let all = claimable(game, isMatch: isMatch)
    guard let hint = game.hint else {
      // The engine deals more while no match may be claimed: none left is the game's end.
      #expect(
        all.isEmpty && game.isOver, "no hint, yet \(all.count) matches",
        sourceLocation: sourceLocation)
      return
    }
    #expect(!game.isOver, sourceLocation: sourceLocation)
    #expect(
      all.contains { Set($0.map(\.id)) == Set(hint.map(\.id)) },
      "the hint \(hint.map(\.id)) is none of the \(all.count) matches",
      sourceLocation: sourceLocation)
    #expect(Set(hint.map(\.id)).count == game.settings.matchSize, sourceLocation: sourceLocation)
    if game.isChained {
      #expect(
        game.chain.contains(hint[0]), "a chain hint starts with the chain's card",
        sourceLocation: sourceLocation)
      #expect(
        hint.dropFirst().allSatisfy { game.board.contains($0) }, sourceLocation: sourceLocation)
    } else {
      #expect(hint.allSatisfy { game.playableCards.contains($0) }, sourceLocation: sourceLocation)
    }
    let taken = claim % 3 == 2 ? all[all.count / 2] : hint
    for card in taken {
      accept(
        .choose(seat: 0, card: game.handle(of: card)), in: &game, sourceLocation: sourceLocation)
    }
    if game.isOver {
      #expect(game.hint == nil, "a game that is over has no hint", sourceLocation: sourceLocation)
      return
    }
  }
}

/// A set of three Junior cards by the definition: each of number, symbol and colour all the same
/// or all different, read from the cards' value names.
private func isJuniorSetByDefinition(_ cards: [JuniorSetCard]) -> Bool {
  guard cards.count == 3, Set(cards.map(\.id)).count == 3 else { return false }
  return JuniorSetCard.attributes.indices.allSatisfy { attribute in
    let distinct = Set(cards.map { $0.valueName(attribute) }).count
    return distinct == 1 || distinct == 3
  }
}

/// An UltraSet by the definition: four different cards that split into two pairs whose third
/// card (the card making a set with the pair: in each attribute the value both share, or the
/// value neither has, by name) is the same.
private func isUltraSetByDefinition(_ cards: [UltraSetCard]) -> Bool {
  guard cards.count == 4, Set(cards.map(\.id)).count == 4 else { return false }
  func third(_ a: SetCard, _ b: SetCard) -> [String] {
    SetCard.attributes.indices.map { attribute in
      let (x, y) = (a.valueName(attribute), b.valueName(attribute))
      return x == y ? x : SetCard.attributes[attribute].values.first { $0 != x && $0 != y }!
    }
  }
  let c = cards.map(\.card)
  return [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))].contains { p, q in
    third(c[p.0], c[p.1]) == third(c[q.0], c[q.1])
  }
}

@Suite("Hints")
struct HintTests {
  @Test("Set: the hint is a set on the board whenever there is one, to the end of the game")
  func set() {
    for seed in UInt64(1)...12 {
      var game = CardMatchingGame<SetCard>(settings: .set(), seed: seed)
      // The first hint is the first set in board order, as brute force lists them.
      #expect(game.hint == claimable(game, isMatch: isSetByDefinition).first)
      checkHints(&game, isMatch: isSetByDefinition)
      #expect(game.isOver, "played to the end, where no hint is left")
    }
  }

  @Test("Set Junior: the hint is a set of its 27 cards")
  func junior() {
    for seed in UInt64(1)...12 {
      var game = CardMatchingGame<JuniorSetCard>(settings: .setJunior(), seed: seed)
      checkHints(&game, isMatch: isJuniorSetByDefinition)
      #expect(game.isOver)
    }
  }

  @Test("UltraSet: the hint is four cards, two pairs needing the same third card")
  func ultraSet() {
    for seed in UInt64(1)...6 {
      var game = CardMatchingGame<UltraSetCard>(settings: .ultraSet(), seed: seed)
      checkHints(&game, limit: 8, isMatch: isUltraSetByDefinition)
    }
    // Small boards, where an UltraSet often lacks: the search finds one exactly when brute
    // force does.
    var generator = SeededGenerator(seed: 9)
    var (with, without) = (0, 0)
    for round in 0..<80 {
      let cards = randomCards(5 + round % 5, of: UltraSetCard.self, using: &generator)
      let found = UltraSetCard.firstMatch(in: cards, size: 4)
      let any = combinations(of: cards, choose: 4).contains(where: isUltraSetByDefinition)
      #expect((found != nil) == any)
      if let found { #expect(isUltraSetByDefinition(found)) }
      if found == nil { without += 1 } else { with += 1 }
    }
    #expect(with > 0 && without > 0, "boards with and without an UltraSet were tried")
  }

  @Test("Set-Chain: before a chain any set; after it a chain set, its chain card first")
  func setChain() {
    var chained = 0
    for seed in UInt64(1)...12 {
      var game = CardMatchingGame<SetChainCard>(settings: .setChain(), seed: seed)
      checkHints(&game, isMatch: { isSetByDefinition($0.map(\.card)) })
      if game.isChained || game.isOver { chained += 1 }
    }
    #expect(chained == 12)
  }

  @Test("Face-down games offer no hints; face-up games do")
  func offers() {
    #expect(GameSettings.set().offersHints && GameSettings.ultraSet().offersHints)
    #expect(!GameSettings.matchismo().offersHints && !GameSettings.concentration().offersHints)
  }
}
