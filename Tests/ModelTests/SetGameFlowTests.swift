import Model
import Testing

/// One claim of a set in a game played to the end.
private struct Step {
  var before: CardMatchingGame<SetCard>
  var set: [SetCard]
  var seat: Int
  var events: [GameEvent<SetCard>]
  var after: CardMatchingGame<SetCard>
}

/// Chooses the cards of `set` for `seat` (whose selection must be empty) and returns the events of
/// the last choice.
@discardableResult
private func claim(
  _ set: [SetCard], seat: Int = 0, in game: inout CardMatchingGame<SetCard>,
  sourceLocation: SourceLocation = #_sourceLocation
) -> [GameEvent<SetCard>] {
  #expect(game.players[seat].selection.isEmpty, sourceLocation: sourceLocation)
  var events: [GameEvent<SetCard>] = []
  for card in set {
    events = accept(.choose(seat: seat, card: card.id), in: &game, sourceLocation: sourceLocation)
  }
  return events
}

/// Plays a Set game to its end, the seats taking turns to claim the first set on the board.
private func playToTheEnd(seed: UInt64, seats: Int = 1) -> (
  game: CardMatchingGame<SetCard>, steps: [Step]
) {
  var game = CardMatchingGame<SetCard>(settings: .set(seats: seats), seed: seed)
  var steps: [Step] = []
  // 27 sets at most; the bound only keeps a broken model from looping forever.
  while !game.isOver && steps.count < 30 {
    guard let set = SetCard.allSets(in: game.board).first else {
      Issue.record("seed \(seed): the game goes on but the board holds no set")
      break
    }
    let before = game
    let seat = steps.count % seats
    let events = claim(set, seat: seat, in: &game)
    steps.append(Step(before: before, set: set, seat: seat, events: events, after: game))
  }
  return (game, steps)
}

/// The standings by their definition: best score first, ties by seat; rank 1 + the number of seats
/// with a strictly better score.
private func standingsByDefinition(_ players: [PlayerState]) -> [StandingRow] {
  players.indices
    .sorted { a, b in
      players[a].score != players[b].score ? players[a].score > players[b].score : a < b
    }
    .map { seat in
      StandingRow(
        seat: seat, score: players[seat].score, matches: players[seat].matches,
        rank: 1 + players.filter { $0.score > players[seat].score }.count)
    }
}

/// The `.dealt` events among `events`.
private func deals(in events: [GameEvent<SetCard>]) -> [[SetCard]] {
  events.compactMap { event in
    if case .dealt(let cards, reason: .noMatch) = event { return cards }
    return nil
  }
}

/// Whether `events` report any replacement.
private func hasReplacement(_ events: [GameEvent<SetCard>]) -> Bool {
  events.contains { event in
    if case .replaced = event { return true }
    return false
  }
}

@Suite("Set game flow")
struct SetGameFlowTests {
  // MARK: 8. Dealing

  @Test("A new game shows 12 cards, and more only while they hold no set")
  func initialBoard() {
    var biggerBoards = 0
    for seed in UInt64(0)..<600 {
      let game = CardMatchingGame<SetCard>(settings: .set(), seed: seed)
      let board = game.board
      #expect(board.count >= 12 && board.count <= 21 && board.count % 3 == 0)
      #expect(Set(board).count == board.count)
      #expect(game.deckCount == 81 - board.count)
      #expect(game.boardHasMatch)
      #expect(SetCard.containsMatch(in: board, size: 3))
      // Every smaller board that was dealt on the way held no set.
      for size in stride(from: 12, to: board.count, by: 3) {
        #expect(!boardHasSetByBruteForce(Array(board.prefix(size))), "seed \(seed)")
      }
      #expect(!game.isOver)
      #expect(game.matchedOnBoard.isEmpty)
      #expect(game.players.count == 1 && everySeatIsFresh(game))
      if board.count > 12 { biggerBoards += 1 }
    }
    // About 3% of 12-card deals hold no set, so some of these 600 must have grown.
    #expect(biggerBoards > 0)
  }

  @Test("A claimed set is replaced in the same slots while the deck has cards")
  func claimedSetIsReplacedInPlace() throws {
    // A 12-card deal whose board still holds a set after the replacement (so nothing is dealt).
    var found: (before: Step, seed: UInt64)?
    for seed in UInt64(0)..<100 where found == nil {
      let before = CardMatchingGame<SetCard>(settings: .set(), seed: seed)
      guard before.board.count == 12, let set = SetCard.allSets(in: before.board).first else {
        continue
      }
      var after = before
      let events = claim(set, in: &after)
      if after.board.count == 12 {
        found = (Step(before: before, set: set, seat: 0, events: events, after: after), seed)
      }
    }
    let (step, seed) = try #require(found)
    let (before, set, events, game) = (step.before, step.set, step.events, step.after)

    let slots = set.map { before.board.firstIndex(of: $0)! }.sorted()
    #expect(game.board.count == 12)
    #expect(game.deckCount == 81 - 15)
    for slot in 0..<12 where !slots.contains(slot) {
      #expect(game.board[slot] == before.board[slot], "seed \(seed), slot \(slot)")
    }
    let newCards = slots.map { game.board[$0] }
    #expect(Set(newCards).count == 3)
    for card in newCards {
      #expect(!before.board.contains(card))
    }
    #expect(
      events == [
        .selected(seat: 0, card: set[2]), .scored(seat: 0, score: -3),
        .matched(seat: 0, cards: set, points: 12), .scored(seat: 0, score: 9),
      ] + zip(slots, newCards).map { GameEvent.replaced(slot: $0, card: $1) } + [.deckCount(66)])
    // The matched cards are gone for good.
    for card in set {
      var copy = game
      expectRejection(.choose(seat: 0, card: card.id), in: &copy, is: .cardNotOnTable(card.id))
    }
  }

  @Test("When the board holds no set, three more cards are dealt")
  func noSetDealsThreeMore() {
    var dealsSeen = 0
    for seed in UInt64(0)..<40 {
      for step in playToTheEnd(seed: seed).steps {
        let dealt = deals(in: step.events)
        guard !dealt.isEmpty else {
          // No deal: the board holds a set, or nothing is left to deal.
          #expect(step.after.boardHasMatch || step.after.deckCount == 0)
          continue
        }
        dealsSeen += dealt.count
        #expect(dealt.allSatisfy { $0.count == 3 })
        let added = dealt.flatMap { $0 }
        // The new cards are at the end; every board before each deal held no set.
        #expect(Array(step.after.board.suffix(added.count)) == added)
        for extra in stride(from: added.count, to: 0, by: -3) {
          let smaller = Array(step.after.board.dropLast(extra))
          #expect(!boardHasSetByBruteForce(smaller), "seed \(seed)")
        }
        #expect(step.after.boardHasMatch || step.after.deckCount == 0)
        // Each deal is followed by the new deck count.
        var deck = step.after.deckCount + added.count
        for (index, event) in step.events.enumerated() {
          guard case .dealt(let cards, _) = event else { continue }
          deck -= cards.count
          #expect(index + 1 < step.events.count && step.events[index + 1] == .deckCount(deck))
        }
      }
    }
    #expect(dealsSeen > 0)
  }

  @Test("After extra deals a claimed set is removed, not replaced")
  func overfullBoardShrinks() {
    var removalsSeen = 0
    for seed in UInt64(0)..<40 {
      for step in playToTheEnd(seed: seed).steps where step.before.board.count > 12 {
        removalsSeen += 1
        let inBoardOrder = step.before.board.filter { step.set.contains($0) }
        let rest = step.before.board.filter { !step.set.contains($0) }
        #expect(step.events.contains(.removed(inBoardOrder)))
        #expect(!hasReplacement(step.events))
        // The remaining cards keep their order; anything dealt afterwards goes at the end.
        #expect(Array(step.after.board.prefix(rest.count)) == rest)
        let dealtCount = deals(in: step.events).joined().count
        #expect(step.after.board.count == rest.count + dealtCount)
        #expect(step.after.deckCount == step.before.deckCount - dealtCount)
      }
    }
    #expect(removalsSeen > 0)
  }

  @Test("Once the deck is empty, a claimed set leaves a gap that is not filled")
  func emptyDeckShrinks() {
    var seen = 0
    for seed in UInt64(0)..<10 {
      for step in playToTheEnd(seed: seed).steps where step.before.deckCount == 0 {
        seen += 1
        #expect(step.after.board == step.before.board.filter { !step.set.contains($0) })
        #expect(!hasReplacement(step.events))
      }
    }
    #expect(seen > 0)
  }

  // MARK: 8. Ending

  @Test("The game ends exactly when the deck is empty and no set remains")
  func endsExactlyWhenNoSetRemains() throws {
    for seed in UInt64(0)..<40 {
      let (game, steps) = playToTheEnd(seed: seed)
      #expect(game.isOver, "seed \(seed)")
      for (index, step) in steps.enumerated() {
        let shouldEnd = step.after.deckCount == 0 && !boardHasSetByBruteForce(step.after.board)
        #expect(step.after.isOver == shouldEnd, "seed \(seed), claim \(index)")
        #expect(step.after.isOver == (index == steps.count - 1))
        let ended = endings(in: step.events)
        if step.after.isOver {
          #expect(ended == [step.after.standings])
          #expect(step.events.last == .ended(step.after.standings))
        } else {
          #expect(ended.isEmpty)
        }
      }
    }
  }

  @Test("After the end, choices are refused with gameOver and a re-deal starts again")
  func movesAfterTheEnd() throws {
    var game = playToTheEnd(seed: 8).game
    try #require(game.isOver)
    for card in game.board {
      expectRejection(.choose(seat: 0, card: card.id), in: &game, is: .gameOver)
    }
    let offBoard = try #require(SetCard.fullDeck.first { !game.board.contains($0) })
    expectRejection(.choose(seat: 0, card: offBoard.id), in: &game, is: .gameOver)
    expectRejection(.choose(seat: 0, card: 81), in: &game, is: .unknownCard(81))
    expectRejection(.choose(seat: 1, card: 0), in: &game, is: .unknownSeat(1))

    let events = accept(.redeal(seat: 0), in: &game)
    #expect(events == [.redealt(board: game.board, deckCount: game.deckCount)])
    #expect(!game.isOver)
    #expect(game.board.count >= 12)
    #expect(game.deckCount == 81 - game.board.count)
    #expect(game.players.count == 1 && everySeatIsFresh(game))
    // A re-deal reshuffles: it is not the first deal again.
    #expect(game.board != CardMatchingGame<SetCard>(settings: .set(), seed: 8).board)
  }

  @Test("A re-deal in the middle of a game starts afresh")
  func redealMidGame() throws {
    var game = CardMatchingGame<SetCard>(settings: .set(seats: 2), seed: 12)
    let set = try #require(SetCard.allSets(in: game.board).first)
    claim(set, seat: 1, in: &game)
    accept(.choose(seat: 0, card: game.board[0].id), in: &game)
    let events = accept(.redeal(seat: 0), in: &game)
    #expect(events == [.redealt(board: game.board, deckCount: game.deckCount)])
    #expect(game.players.count == 2 && everySeatIsFresh(game))
    #expect(game.deckCount == 81 - game.board.count)
  }

  @Test("Refused moves change nothing")
  func rejectionsChangeNothing() throws {
    var game = CardMatchingGame<SetCard>(settings: .set(), seed: 3)
    // Some state first, so that "nothing changed" covers a selection and a score.
    accept(.choose(seat: 0, card: game.board[5].id), in: &game)
    let inDeck = try #require(SetCard.fullDeck.first { !game.board.contains($0) })

    expectRejection(.choose(seat: 0, card: 81), in: &game, is: .unknownCard(81))
    expectRejection(.choose(seat: 0, card: -1), in: &game, is: .unknownCard(-1))
    expectRejection(.choose(seat: 0, card: inDeck.id), in: &game, is: .cardNotOnTable(inDeck.id))
    expectRejection(.choose(seat: 1, card: game.board[0].id), in: &game, is: .unknownSeat(1))
    expectRejection(.choose(seat: -1, card: game.board[0].id), in: &game, is: .unknownSeat(-1))
    expectRejection(.redeal(seat: 1), in: &game, is: .unknownSeat(1))
    #expect(game.players[0].score == -1)
    #expect(game.players[0].selection == [game.board[5].id])
  }

  // MARK: 9. A whole game

  @Test(
    "A whole solo game: every card seen once, 9 points a set, and an end",
    arguments: [
      0, 1, 2, 42, 2024, 0xFFFF_FFFF_FFFF_FFFF,
    ] as [UInt64])
  func wholeSoloGame(seed: UInt64) throws {
    let (game, steps) = playToTheEnd(seed: seed)
    #expect(game.isOver)
    let events = steps.flatMap(\.events)
    let matched = matchedCards(in: events)
    #expect(matched == steps.flatMap(\.set))
    let seen = game.board.map(\.id) + matched.map(\.id)
    #expect(seen.sorted() == Array(0..<81))
    #expect(game.deckCount == 0)
    #expect(game.players[0].matches == steps.count)
    #expect(game.players[0].score == 9 * steps.count)
    #expect(game.players[0].selection.isEmpty)
    #expect(!boardHasSetByBruteForce(game.board))
    #expect(
      endings(in: events).map(rows) == [
        [StandingRow(seat: 0, score: 9 * steps.count, matches: steps.count, rank: 1)]
      ])
    for step in steps {
      // Nothing is lost or duplicated along the way, and the board never outgrows 21 cards.
      #expect(Set(step.after.board).count == step.after.board.count)
      #expect(step.after.board.count <= 21)
      #expect(step.after.board.count >= 12 || step.after.deckCount == 0)
      #expect(step.after.board.allSatisfy { !step.set.contains($0) })
      #expect(
        step.after.board.count + step.after.deckCount
          == step.before.board.count + step.before.deckCount - 3)
    }
  }

  // MARK: 11. Several seats

  @Test("A match drops the matched cards from other seats' selections")
  func matchDropsCardsFromOtherSelections() throws {
    var game = CardMatchingGame<SetCard>(settings: .set(seats: 3), seed: 5)
    let set = try #require(SetCard.allSets(in: game.board).first)
    let (a, b, c) = (set[0], set[1], set[2])
    let z = try #require(game.board.first { !set.contains($0) })

    accept(.choose(seat: 1, card: a.id), in: &game)
    accept(.choose(seat: 1, card: z.id), in: &game)
    accept(.choose(seat: 2, card: c.id), in: &game)
    accept(.choose(seat: 2, card: b.id), in: &game)
    let events = claim(set, seat: 0, in: &game)
    #expect(
      Array(events.prefix(7)) == [
        .selected(seat: 0, card: c), .scored(seat: 0, score: -3),
        .matched(seat: 0, cards: set, points: 12), .scored(seat: 0, score: 9),
        .deselected(seat: 1, card: a),
        // In the order seat 2 chose them.
        .deselected(seat: 2, card: c), .deselected(seat: 2, card: b),
      ])
    #expect(game.players[0].selection.isEmpty)
    #expect(game.players[1].selection == [z.id])
    #expect(game.players[2].selection.isEmpty)
    // Losing a card to someone else's set costs nothing more, and refunds nothing.
    #expect(game.players.map(\.score) == [9, -2, -2])
    #expect(game.players.map(\.matches) == [1, 0, 0])
    // The cards are taken: a late claim on them is refused.
    expectRejection(.choose(seat: 1, card: a.id), in: &game, is: .cardNotOnTable(a.id))
  }

  @Test(
    "Standings: best score first, equal scores share a rank",
    arguments: [
      ([5, 5, 3], [0, 1, 2], [1, 1, 3]),
      ([3, 5, 5], [1, 2, 0], [1, 1, 3]),
      ([0, 0, 0, 0], [0, 1, 2, 3], [1, 1, 1, 1]),
      ([-2, 7, 7, -2], [1, 2, 0, 3], [1, 1, 3, 3]),
      ([4, 3, 2, 1], [0, 1, 2, 3], [1, 2, 3, 4]),
      ([-1, 10], [1, 0], [1, 2]),
      ([6], [0], [1]),
    ]
  )
  func standings(scores: [Int], order: [Int], ranks: [Int]) throws {
    var game = CardMatchingGame<SetCard>(settings: .set(seats: scores.count), seed: 77)
    for (seat, target) in scores.enumerated() {
      // Each set nets +9 and each choose-and-un-choose −1.
      let sets = target > 0 ? (target + 8) / 9 : 0
      for _ in 0..<sets {
        let set = try #require(SetCard.allSets(in: game.board).first)
        claim(set, seat: seat, in: &game)
      }
      spendChoices(9 * sets - target, choosing: game.board[0], seat: seat, in: &game)
    }
    #expect(game.players.map(\.score) == scores)
    #expect(game.standings.map(\.seat) == order)
    #expect(game.standings.map(\.rank) == ranks)
    #expect(game.standings.map(\.score) == order.map { scores[$0] })
    #expect(rows(game.standings) == standingsByDefinition(game.players))
  }

  @Test("A three-seat game ends with standings for every seat")
  func multiSeatGameEnds() throws {
    let (game, steps) = playToTheEnd(seed: 31, seats: 3)
    #expect(game.isOver)
    let ended = try #require(endings(in: steps.flatMap(\.events)).first)
    #expect(rows(ended) == standingsByDefinition(game.players))
    #expect(Set(ended.map(\.seat)) == [0, 1, 2])
    #expect(ended.map(\.matches).reduce(0, +) == steps.count)
  }
}
