import Model
import Testing

private typealias ChainGame = CardMatchingGame<SetChainCard>

/// The chain sets of `game` by the rules, without the model's searches: one card of the chain
/// and two of the board that are a set by the definition (value names all equal or all
/// different), each as [chain card, board card, board card] in board order.
private func chainSetsByDefinition(_ game: ChainGame) -> [[SetChainCard]] {
  game.chain.flatMap { anchor in
    combinations(of: game.board, choose: 2).map { [anchor] + $0 }.filter {
      isSetByDefinition($0.map(\.card))
    }
  }
}

/// Every set among `cards` by the definition.
private func setsByDefinition(_ cards: [SetChainCard]) -> [[SetChainCard]] {
  combinations(of: cards, choose: 3).filter { isSetByDefinition($0.map(\.card)) }
}

/// Chooses `cards` for `seat` and returns the events of the last choice.
@discardableResult
private func claim(
  _ cards: [SetChainCard], seat: Int = 0, in game: inout ChainGame,
  sourceLocation: SourceLocation = #_sourceLocation
) -> [GameEvent<SetChainCard>] {
  var events: [GameEvent<SetChainCard>] = []
  for card in cards {
    events = accept(.choose(seat: seat, card: card.id), in: &game, sourceLocation: sourceLocation)
  }
  return events
}

/// A game of `settings` whose first set is taken (the first set on the board by the
/// definition), so that a chain shows.
private func chainedGame(seed: UInt64, settings: GameSettings = .setChain()) -> ChainGame {
  var game = ChainGame(settings: settings, seed: seed)
  let first = setsByDefinition(game.board)[0]
  claim(first, in: &game)
  return game
}

@Suite("Set-Chain")
struct SetChainTests {
  @Test("The deck is Set's 81 cards; the settings are Set's; only Set-Chain chains")
  func deckAndSettings() {
    #expect(SetChainCard.fullDeck.map(\.card) == SetCard.fullDeck)
    #expect(SetChainCard.fullDeck.map(\.id) == Array(0..<81))
    #expect(GameSettings.setChain() == GameSettings.set())
    #expect(GameSettings.setChain(seats: 2, scoring: .classic) == .set(seats: 2, scoring: .classic))
    #expect(SetChainCard.chainsMatches)
    #expect(!SetCard.chainsMatches && !UltraSetCard.chainsMatches && !JuniorSetCard.chainsMatches)
    #expect(!PlayingCard.chainsMatches && !EmojiCard.chainsMatches)
    #expect(SetChainCard.problem(with: .setChain()) == nil)
    #expect(SetChainCard.problem(with: .ultraSet()) == "a set is three cards")
    #expect(SetChainCard.problem(with: .matchismo(matchSize: 3)) != nil)
    // A Set game never shows a chain.
    var set = CardMatchingGame<SetCard>(settings: .set(), seed: 5)
    let first = SetCard.allSets(in: set.board)[0]
    for card in first { accept(.choose(seat: 0, card: card.id), in: &set) }
    #expect(set.chain.isEmpty && !set.isChained)
  }

  @Test("The first set is any set on the board, and becomes the chain", arguments: 1...6)
  func firstSet(seed: UInt64) throws {
    var game = ChainGame(settings: .setChain(), seed: seed)
    #expect(game.chain.isEmpty && !game.isChained)
    #expect(game.board.count == 12 && game.deckCount == 69)
    let sets = setsByDefinition(game.board)
    try #require(!sets.isEmpty)
    // Any of them: the last one found, chosen in reverse order.
    let first = Array(sets.last!.reversed())
    let before = game.board
    let events = claim(first, in: &game)
    #expect(events.contains(.matched(seat: 0, cards: first, points: 12)))
    #expect(events.contains(.chained(first)))
    #expect(game.chain == first)
    #expect(game.isChained)
    // The chain is beside the board, not on it; the board is refilled from the deck.
    #expect(game.board.count == 12 && game.deckCount == 66)
    #expect(first.allSatisfy { !game.board.contains($0) })
    for slot in before.indices where !first.contains(before[slot]) {
      #expect(game.board[slot] == before[slot])
    }
    #expect(game.players[0].matches == 1 && game.players[0].score == 12 - 3)
  }

  @Test("A set of one chain card and two board cards is taken, in any order", arguments: 1...6)
  func secondSetWithOneChainCard(seed: UInt64) throws {
    var game = chainedGame(seed: seed)
    let sets = chainSetsByDefinition(game)
    #expect(game.hasChainMatch == !sets.isEmpty)
    let set = try #require(sets.first, "the deal keeps a chain set on the board")
    // The chain card last, then first.
    let order = seed.isMultiple(of: 2) ? [set[1], set[2], set[0]] : set
    let oldChain = game.chain
    let events = claim(order, in: &game)
    #expect(events.contains(.matched(seat: 0, cards: order, points: 12)))
    #expect(game.players[0].matches == 2)
    // The new chain: the chain card used, then the two board cards in the order chosen.
    let expected = [set[0]] + order.filter { $0 != set[0] }
    #expect(game.chain == expected)
    #expect(events.contains(.chained(expected)))
    #expect(expected.allSatisfy { !game.board.contains($0) })
    // The old chain's other cards are out of play: on neither the board nor the chain.
    for card in oldChain where card != set[0] {
      #expect(!game.board.contains(card) && !game.chain.contains(card))
      var copy = game
      expectRejection(.choose(seat: 0, card: card.id), in: &copy, is: .cardNotOnTable(card.id))
    }
    #expect(game.board.count >= 12)
  }

  @Test("Chain cards are chosen by id, like board cards, and let go again")
  func chainCardsAreChoosable() {
    var game = chainedGame(seed: 3)
    for card in game.chain {
      #expect(!game.board.contains(card))
      #expect(game.handle(of: card) == card.id)
      let chosen = accept(.choose(seat: 0, card: card.id), in: &game)
      #expect(chosen.first == .selected(seat: 0, card: card))
      #expect(game.players[0].selection == [card.id])
      let letGo = accept(.choose(seat: 0, card: card.id), in: &game)
      #expect(letGo == [.deselected(seat: 0, card: card)])
      #expect(game.players[0].selection.isEmpty)
    }
  }

  @Test("Three board cards are refused once a chain shows, even a set", arguments: 1...8)
  func threeBoardCardsRefused(seed: UInt64) throws {
    var game = chainedGame(seed: seed)
    // A set of three board cards when there is one, otherwise any three.
    let triple = setsByDefinition(game.board).first ?? Array(game.board.prefix(3))
    claim(Array(triple.prefix(2)), in: &game)
    expectRejection(
      .choose(seat: 0, card: triple[2].id), in: &game, is: .chainCardNeeded(triple[2].id))
    #expect(game.players[0].selection == triple.prefix(2).map(\.id))
    // A chain card still completes the selection (a set or a miss, judged by Set's rule).
    let events = accept(.choose(seat: 0, card: game.chain[0].id), in: &game)
    let judged = events.contains {
      switch $0 {
      case .matched, .mismatched: true
      default: false
      }
    }
    #expect(judged)
  }

  @Test("A second card of the chain is refused; the first stays chosen")
  func twoChainCardsRefused() {
    var game = chainedGame(seed: 4)
    let (a, b) = (game.chain[0], game.chain[1])
    accept(.choose(seat: 0, card: a.id), in: &game)
    expectRejection(.choose(seat: 0, card: b.id), in: &game, is: .secondChainCard(b.id))
    // With a board card between them, too.
    accept(.choose(seat: 0, card: game.board[0].id), in: &game)
    expectRejection(.choose(seat: 0, card: b.id), in: &game, is: .secondChainCard(b.id))
    #expect(game.players[0].selection == [a.id, game.board[0].id])
    // Letting the first go frees the way for another.
    accept(.choose(seat: 0, card: a.id), in: &game)
    accept(.choose(seat: 0, card: b.id), in: &game)
    #expect(game.players[0].selection == [game.board[0].id, b.id])
  }

  @Test("A chain card and two board cards that are no set are a miss")
  func chainMiss() throws {
    var game = chainedGame(seed: 2)
    let anchor = game.chain[0]
    let pair = try #require(
      combinations(of: game.board, choose: 2).first {
        !isSetByDefinition(([anchor] + $0).map(\.card))
      })
    let chain = game.chain
    let score = game.players[0].score
    let events = claim([anchor] + pair, in: &game)
    #expect(events.contains(.mismatched(seat: 0, cards: [anchor] + pair, penalty: 2)))
    #expect(game.chain == chain, "a miss leaves the chain")
    #expect(game.players[0].score == score - 3 - 2)
    // The course's rule keeps the newest card chosen.
    #expect(game.players[0].selection == [pair[1].id])
  }

  @Test("Other seats lose the matched cards and the chain's other cards from their selections")
  func otherSeatsLoseChainCards() throws {
    var game = chainedGame(seed: 6, settings: .setChain(seats: 2, scoring: .classic))
    let set = try #require(chainSetsByDefinition(game).first)
    let unused = try #require(game.chain.first { $0 != set[0] })
    accept(.choose(seat: 1, card: unused.id), in: &game)
    let events = claim(set, seat: 0, in: &game)
    #expect(events.contains(.deselected(seat: 1, card: unused)))
    #expect(game.players[1].selection.isEmpty)
    #expect(game.players[0].matches == 2)
  }

  /// A no-match deal in Set-Chain looks at chain sets only: a board can hold sets of three
  /// board cards and still get three more cards when no set takes a card of the chain.
  @Test("No chain set on the board: three more cards are dealt, even with a set on the board")
  func noChainSetDealsThreeMore() throws {
    var seen = 0
    var withBoardSet = 0
    for seed in UInt64(1)...40 {
      var game = ChainGame(settings: .setChain(), seed: seed)
      while !game.isOver, seen < 6 || withBoardSet < 1 {
        let set =
          game.isChained ? chainSetsByDefinition(game).first : setsByDefinition(game.board).first
        guard let set else {
          Issue.record("no set to claim in a game not over")
          return
        }
        let events = claim(set, in: &game)
        let dealt = events.flatMap { event -> [SetChainCard] in
          if case .dealt(let cards, .noMatch) = event { return cards }
          return []
        }
        guard !dealt.isEmpty else {
          #expect(!chainSetsByDefinition(game).isEmpty || game.isOver)
          continue
        }
        seen += 1
        // Before the deal (the dealt cards are the board's last), no chain set.
        let kept = Array(game.board.dropLast(dealt.count))
        #expect(dealt.count % 3 == 0)
        #expect(
          game.chain.allSatisfy { anchor in
            combinations(of: kept, choose: 2).allSatisfy {
              !isSetByDefinition(([anchor] + $0).map(\.card))
            }
          })
        if !setsByDefinition(kept).isEmpty { withBoardSet += 1 }
        // After it, one (or the deck is out).
        #expect(!chainSetsByDefinition(game).isEmpty || game.deckCount == 0)
        #expect(kept.count >= 12 || game.deckCount == 0)
      }
    }
    #expect(seen >= 6)
    #expect(withBoardSet >= 1)
  }

  @Test("A game ends when the deck is out and no chain set is left", arguments: 1...5)
  func gameToTheEnd(seed: UInt64) throws {
    var game = ChainGame(settings: .setChain(), seed: seed)
    var matches = 0
    var ended: [GameEvent<SetChainCard>] = []
    while !game.isOver {
      let sets = game.isChained ? chainSetsByDefinition(game) : setsByDefinition(game.board)
      #expect(sets.isEmpty == false, "a game not over has a set to claim")
      guard let set = sets.first else { return }
      ended = claim(set, in: &game)
      matches += 1
      if !game.isOver {
        #expect(game.boardHasMatch)
        #expect(endings(in: ended).isEmpty)
      }
    }
    #expect(endings(in: ended).count == 1)
    #expect(game.deckCount == 0)
    #expect(chainSetsByDefinition(game).isEmpty)
    #expect(!game.boardHasMatch && game.claimableMatches.isEmpty)
    // Each set but the first takes two cards of the board; the first takes three.
    #expect(game.board.count == 81 - 3 - 2 * (matches - 1))
    #expect(game.players[0].matches == matches)
    // A choice after the end is refused.
    expectRejection(
      .choose(seat: 0, card: game.board[0].id), in: &game, is: .gameOver)
  }

  @Test("The model's chain search agrees with the definition on random chains and boards")
  func chainSearchAgrees() {
    var generator = SeededGenerator(seed: 0xC4A1)
    var game = chainedGame(seed: 9)
    // Boards of the game as it is played, checked at every step.
    for _ in 0..<15 where !game.isOver {
      let byDefinition = Set(chainSetsByDefinition(game).map { Set($0.map(\.id)) })
      #expect(Set(game.claimableMatches.map { Set($0.map(\.id)) }) == byDefinition)
      #expect(game.hasChainMatch == !byDefinition.isEmpty)
      let sets = chainSetsByDefinition(game)
      claim(sets[Int(generator.next() % UInt64(sets.count))], in: &game)
    }
  }

  @Test("A re-deal empties the chain; the record replays to the same game, chain and all")
  func redealAndReplay() throws {
    var game = chainedGame(seed: 12)
    // The moves so far, written again from scratch for the record.
    var moves: [Move] = []
    var replayed = ChainGame(settings: .setChain(), seed: 12)
    let first = setsByDefinition(replayed.board)[0]
    moves += first.map { .choose(seat: 0, card: $0.id) }
    claim(first, in: &replayed)
    #expect(replayed == game)
    let set = try #require(chainSetsByDefinition(game).first)
    claim(set, in: &game)
    moves += set.map { .choose(seat: 0, card: $0.id) }
    let chain = game.chain
    let record = GameRecord(settings: .setChain(), seed: 12, moves: moves)
    let (again, events) = try ChainGame.replay(record)
    #expect(again == game && again.chain == chain)
    #expect(events.contains(.chained(chain)))

    accept(.redeal(seat: 0), in: &game)
    #expect(game.chain.isEmpty && !game.isChained)
    // The first set of the new deal is any set again.
    let fresh = try #require(setsByDefinition(game.board).first)
    claim(fresh, in: &game)
    #expect(game.chain == fresh)
  }

  /// Checked against a count made move by move from the definition, with the times: a set of
  /// three board cards would be "there" from when it came onto the board; a chain set is there
  /// only from when its card joined the chain (or its board cards came), so the times differ
  /// wherever the rule matters.
  @Test(
    "The look back's sets are those a player could take: chain sets", arguments: [7, 8] as [UInt64])
  func lookBackCountsChainSets(seed: UInt64) throws {
    var game = ChainGame(settings: .setChain(), seed: seed)
    var moves: [Move] = []
    var times: [Double] = []
    // What could be taken, by the definition: before the first set any set of the board, after
    // it the chain sets; each with when it became so.
    func claimable(_ game: ChainGame) -> Set<[Int]> {
      let sets = game.isChained ? chainSetsByDefinition(game) : setsByDefinition(game.board)
      return Set(sets.map { $0.map(\.id).sorted() })
    }
    var there: [[Int]: Double] = Dictionary(uniqueKeysWithValues: claimable(game).map { ($0, 0) })
    var missed: [[Double]] = []
    var found: [Double] = []
    var onBoardSince: [[Int]: Double] = [:]
    var ruleMatters = 0
    var clock = 0.0
    while !game.isOver {
      let sets = game.isChained ? chainSetsByDefinition(game) : setsByDefinition(game.board)
      let set = try #require(sets.last)
      for card in set {
        clock += 1
        accept(.choose(seat: 0, card: card.id), in: &game)
        moves.append(.choose(seat: 0, card: card.id))
        times.append(clock)
      }
      let taken = set.map(\.id).sorted()
      found.append(clock - (there[taken] ?? 0))
      let now = claimable(game)
      for (ids, since) in there where !now.contains(ids) {
        there[ids] = nil
        if ids != taken { missed.append(ids.map(Double.init) + [since, clock]) }
      }
      for ids in now where there[ids] == nil {
        there[ids] = clock
        // Its cards were all on the board (or in the chain) before: Set's rule would have
        // counted it from then.
        if let since = onBoardSince[ids], since < clock { ruleMatters += 1 }
      }
      // Every three cards of the board and the chain that are a set, with when they were first
      // all in view.
      for ids in setsByDefinition(game.board + game.chain).map({ $0.map(\.id).sorted() })
      where onBoardSince[ids] == nil {
        onBoardSince[ids] = clock
      }
    }
    let lookBack = try #require(
      GameLookBack.of(
        SetChainCard.self, settings: .setChain(), seed: seed, moves: moves, times: times))
    #expect(ruleMatters > 0, "no set whose times the chain rule changes")
    #expect(!missed.isEmpty)
    #expect(lookBack.found.map(\.seconds) == found)
    #expect(lookBack.found.count == game.players[0].matches)
    let got = lookBack.missed.map { $0.cards.map(Double.init) + [$0.from, $0.until] }
    #expect(Set(got) == Set(missed))
    #expect(got.count == missed.count)
  }
}
