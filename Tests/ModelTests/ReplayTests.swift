import Foundation
import Model
import Testing

/// What a random session did, to check that the sessions really exercise every kind of move.
private struct Tally {
  var accepted = 0
  var rejected = 0
  var matches = 0
  var mismatches = 0
  var unchoices = 0
  var redeals = 0
  var endings = 0

  static func + (a: Tally, b: Tally) -> Tally {
    Tally(
      accepted: a.accepted + b.accepted, rejected: a.rejected + b.rejected,
      matches: a.matches + b.matches, mismatches: a.mismatches + b.mismatches,
      unchoices: a.unchoices + b.unchoices, redeals: a.redeals + b.redeals,
      endings: a.endings + b.endings)
  }
}

/// A game played live: the game, the record of its accepted moves and every event in order,
/// and the record of the current deal alone (the deal's seed and the moves since), as a table
/// keeps it.
private struct Session<Card: MatchableCard> {
  var game: CardMatchingGame<Card>
  var record: GameRecord
  var current: GameRecord
  var events: [GameEvent<Card>] = []
  var tally = Tally()

  init(settings: GameSettings, seed: UInt64) {
    game = CardMatchingGame(settings: settings, seed: seed)
    record = GameRecord(settings: settings, seed: seed)
    current = record
  }

  /// Applies `move` as a live table would: an accepted move is recorded with its events; a refused
  /// one is not, and must change nothing.
  mutating func attempt(_ move: Move, sourceLocation: SourceLocation = #_sourceLocation) {
    let before = game
    do {
      let new = try game.apply(move)
      record.moves.append(move)
      if case .redeal = move {
        current = GameRecord(settings: game.settings, seed: game.dealSeed)
      } else {
        current.moves.append(move)
      }
      events += new
      tally.accepted += 1
      for event in new {
        switch event {
        case .matched: tally.matches += 1
        case .mismatched: tally.mismatches += 1
        case .redealt: tally.redeals += 1
        case .ended: tally.endings += 1
        case .deselected(let seat, _)
        where seat == move.seat
          && new.count(where: { if case .turnedDown = $0 { false } else { true } }) == 1:
          tally.unchoices += 1
        default: break
        }
      }
    } catch {
      tally.rejected += 1
      #expect(game == before, "refused \(move) changed the game", sourceLocation: sourceLocation)
    }
  }

  /// Whether the game is still sane: every selection is shorter than a match, without repeats,
  /// and made of playable cards; the board repeats no card.
  func isSane(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let playable = Set(game.playableCards.map(\.id))
    for (seat, player) in game.players.enumerated() {
      let selection = player.selection
      guard selection.count < game.settings.matchSize, Set(selection).count == selection.count,
        selection.allSatisfy(playable.contains)
      else {
        Issue.record(
          "seat \(seat) has an impossible selection \(selection)", sourceLocation: sourceLocation)
        return false
      }
    }
    guard Set(game.board).count == game.board.count else {
      Issue.record("the board repeats a card", sourceLocation: sourceLocation)
      return false
    }
    return true
  }

  /// Applies `move`, which must be refused with `expected`.
  mutating func attemptRefused(
    _ move: Move, expected: MoveRejection, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectRejection(move, in: &game, is: expected, sourceLocation: sourceLocation)
    tally.rejected += 1
  }
}

/// Plays a random session: valid matches, random (often wrong) choices, un-choices, refused
/// moves and the odd re-deal, from seats chosen at random.
private func playRandomly<Card: MatchableCard>(
  settings: GameSettings, seed: UInt64, moves: Int = 250,
  findMatch: (CardMatchingGame<Card>) -> [Card]?
) -> Session<Card> {
  var session = Session<Card>(settings: settings, seed: seed)
  // The test's own choices come from a different stream than the deal.
  var random = SeededGenerator(seed: ~seed)
  let deckSize = Card.fullDeck.count
  for _ in 0..<moves {
    guard session.isSane() else { break }
    let game = session.game
    let seat = random.below(settings.seats)
    if game.isOver {
      if !game.board.isEmpty {
        let card = game.board[random.below(game.board.count)]
        session.attemptRefused(
          .choose(seat: seat, card: game.handle(of: card)), expected: .gameOver)
      }
      if random.below(3) == 0 { break }
      session.attempt(.redeal(seat: seat))
      continue
    }
    let roll = random.below(100)
    switch roll {
    case 0..<35:
      // Claim a match: let go of the current selection (free), then choose the match.
      guard let match = findMatch(game) else {
        Issue.record("seed \(seed): the game goes on but no match is left")
        return session
      }
      for id in game.players[seat].selection {
        session.attempt(.choose(seat: seat, card: game.handle(of: Card.fullDeck[id])))
      }
      for card in match { session.attempt(.choose(seat: seat, card: game.handle(of: card))) }
    case 35..<65:
      let playable = game.playableCards
      let card = playable[random.below(playable.count)]
      session.attempt(.choose(seat: seat, card: game.handle(of: card)))
    case 65..<75:
      let selection = game.players[seat].selection
      if !selection.isEmpty {
        let id = selection[random.below(selection.count)]
        session.attempt(.choose(seat: seat, card: game.handle(of: Card.fullDeck[id])))
      }
    case 75..<90:
      switch random.below(4) {
      case 0:
        // Face down, a card is named by its slot: past the board is no card at all.
        let limit = settings.faceDown ? game.board.count : deckSize
        let id = random.below(2) == 0 ? limit + random.below(5) : -1 - random.below(5)
        session.attemptRefused(.choose(seat: seat, card: id), expected: .unknownCard(id))
      case 1:
        let offBoard = Card.fullDeck.filter { !game.board.contains($0) }
        if !offBoard.isEmpty && !settings.faceDown {
          let id = offBoard[random.below(offBoard.count)].id
          session.attemptRefused(.choose(seat: seat, card: id), expected: .cardNotOnTable(id))
        }
      case 2:
        let stranger = random.below(2) == 0 ? settings.seats + random.below(3) : -1
        let move: Move =
          random.below(2) == 0 ? .redeal(seat: stranger) : .choose(seat: stranger, card: 0)
        session.attemptRefused(move, expected: .unknownSeat(stranger))
      default:
        if let id = game.matchedOnBoard.sorted().first {
          let handle = game.handle(of: Card.fullDeck[id])
          session.attemptRefused(
            .choose(seat: seat, card: handle), expected: .cardAlreadyMatched(handle))
        }
      }
    case 90:
      session.attempt(.redeal(seat: seat))
    default:
      // Anything at all, from any seat or none; it may be accepted or refused.
      let anySeat = random.below(settings.seats + 2) - 1
      session.attempt(.choose(seat: anySeat, card: random.below(deckSize + 4) - 2))
    }
  }
  return session
}

/// Plays `seeds` random sessions, checks that each replays to the same game and events, and
/// returns what they did.
private func checkReplays<Card: MatchableCard>(
  settings: (UInt64) -> GameSettings, seeds: Range<UInt64>,
  findMatch: (CardMatchingGame<Card>) -> [Card]?
) throws -> Tally {
  var total = Tally()
  for seed in seeds {
    let session = playRandomly(settings: settings(seed), seed: seed, findMatch: findMatch)
    total = total + session.tally
    #expect(session.record.moves.count == session.tally.accepted)
    let replay = try CardMatchingGame<Card>.replay(session.record)
    #expect(replay.game == session.game, "seed \(seed)")
    // The current deal's record alone rebuilds the same game.
    #expect(try CardMatchingGame<Card>.replay(session.current).game == session.game, "seed \(seed)")
    #expect(session.current.seed == session.game.dealSeed)
    // Compared one by one, so that a failure names the first difference, not two long lists.
    #expect(replay.events.count == session.events.count, "seed \(seed)")
    let common = min(replay.events.count, session.events.count)
    if let index = (0..<common).first(where: { replay.events[$0] != session.events[$0] }) {
      let (replayed, live) = (replay.events[index], session.events[index])
      Issue.record("seed \(seed): event \(index) replays as \(replayed), was \(live)")
    }

    // A record survives being stored.
    if seed % 10 == 0 {
      let data = try JSONEncoder().encode(session.record)
      let decoded = try JSONDecoder().decode(GameRecord.self, from: data)
      #expect(decoded == session.record)
      #expect(try CardMatchingGame<Card>.replay(decoded).game == session.game)
    }
  }
  return total
}

/// Checks that random sessions did a bit of everything.
private func expectVariety(_ tally: Tally, sourceLocation: SourceLocation = #_sourceLocation) {
  #expect(tally.matches > 100, "\(tally)", sourceLocation: sourceLocation)
  #expect(tally.mismatches > 10, "\(tally)", sourceLocation: sourceLocation)
  #expect(tally.unchoices > 100, "\(tally)", sourceLocation: sourceLocation)
  #expect(tally.rejected > 100, "\(tally)", sourceLocation: sourceLocation)
  #expect(tally.redeals > 10, "\(tally)", sourceLocation: sourceLocation)
  #expect(tally.endings > 0, "\(tally)", sourceLocation: sourceLocation)
}

/// Replays `record`, expecting it to fail at move `index` for `rejection`.
private func expectReplayFailure<Card: MatchableCard>(
  _ record: GameRecord, of _: Card.Type, at index: Int, because rejection: MoveRejection,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    _ = try CardMatchingGame<Card>.replay(record)
    Issue.record("the record replayed without error", sourceLocation: sourceLocation)
  } catch {
    #expect(error.index == index, sourceLocation: sourceLocation)
    #expect(error.rejection == rejection, sourceLocation: sourceLocation)
  }
}

@Suite("Replay")
struct ReplayTests {
  @Test("Replaying a random Set session gives the same game and events", arguments: 1...4)
  func setSessionsReplay(seats: Int) throws {
    let tally = try checkReplays(
      settings: { _ in .set(seats: seats) }, seeds: 0..<50,
      findMatch: { (game: CardMatchingGame<SetCard>) in
        SetCard.allSets(in: game.board).first
      })
    expectVariety(tally)
  }

  @Test("Replaying a random Matchismo session gives the same game and events", arguments: [2, 3])
  func matchismoSessionsReplay(matchSize: Int) throws {
    let tally = try checkReplays(
      settings: { seed in .matchismo(matchSize: matchSize, seats: 1 + Int(seed % 4)) },
      seeds: 0..<50,
      findMatch: { (game: CardMatchingGame<PlayingCard>) in firstMatch(in: game) })
    expectVariety(tally)
  }

  @Test("The same seed deals the same game; different seeds deal different boards")
  func seedsDetermineTheDeal() {
    var boards = Set<[Int]>()
    for seed in UInt64(0)..<200 {
      let game = CardMatchingGame<SetCard>(settings: .set(), seed: seed)
      let again = CardMatchingGame<SetCard>(settings: .set(), seed: seed)
      #expect(game == again)
      #expect(game.board == again.board)
      boards.insert(game.board.map(\.id))
      // An empty record replays to the fresh deal.
      #expect(
        (try? CardMatchingGame<SetCard>.replay(GameRecord(settings: .set(), seed: seed)))?.game
          == game)
    }
    #expect(boards.count == 200)

    let matchismo = (UInt64(0)..<50).map {
      CardMatchingGame<PlayingCard>(settings: .matchismo(), seed: $0).board
    }
    #expect(Set(matchismo).count == 50)
  }

  // Before deals had their own seeds, a re-deal shuffled on with the same generator; now it
  // draws the new deal's seed from that generator, so it is still a function of the first seed
  // (a record from it with every re-deal replays) and the new deal is also its own record.
  @Test("A re-deal draws its seed from the seeded stream, so it replays too")
  func redealIsDeterministic() throws {
    var first = CardMatchingGame<SetCard>(settings: .set(), seed: 99)
    #expect(first.dealSeed == 99)
    var second = first
    let a = accept(.redeal(seat: 0), in: &first)
    let b = accept(.redeal(seat: 0), in: &second)
    #expect(a == b)
    #expect(first == second)
    #expect(first.board != CardMatchingGame<SetCard>(settings: .set(), seed: 99).board)
    #expect(first.dealSeed != 99)
    // The new deal is the game its seed deals.
    #expect(first == CardMatchingGame<SetCard>(settings: .set(), seed: first.dealSeed))
    let record = GameRecord(settings: .set(), seed: first.dealSeed)
    #expect(try CardMatchingGame<SetCard>.replay(record).game == first)
  }

  @Test("After many re-deals, each deal's own record replays to the live game")
  func everyDealIsItsOwnRecord() throws {
    var game = CardMatchingGame<SetCard>(settings: .set(seats: 2), seed: 5)
    var current = GameRecord(settings: game.settings, seed: game.dealSeed)
    var seeds: Set<UInt64> = [game.dealSeed]
    for round in 0..<30 {
      // A few choices, then a re-deal.
      for slot in 0..<(round % 4) {
        let move = Move.choose(seat: round % 2, card: game.board[slot].id)
        _ = accept(move, in: &game)
        current.moves.append(move)
      }
      #expect(try CardMatchingGame<SetCard>.replay(current).game == game)
      _ = accept(.redeal(seat: 0), in: &game)
      current = GameRecord(settings: game.settings, seed: game.dealSeed)
      seeds.insert(game.dealSeed)
    }
    #expect(seeds.count == 31)
    #expect(try CardMatchingGame<SetCard>.replay(current).game == game)
  }

  @Test(
    "Replaying a record with a refused move reports its index and reason",
    arguments: [
      (Move.choose(seat: 0, card: 81), MoveRejection.unknownCard(81)),
      (Move.choose(seat: 2, card: 0), MoveRejection.unknownSeat(2)),
      (Move.redeal(seat: -1), MoveRejection.unknownSeat(-1)),
    ]
  )
  func replayReportsRefusedMove(bad: Move, rejection: MoveRejection) throws {
    let game = CardMatchingGame<SetCard>(settings: .set(seats: 2), seed: 1)
    let set = try #require(SetCard.allSets(in: game.board).first)
    let good = set.map { Move.choose(seat: 1, card: $0.id) }
    let record = GameRecord(settings: .set(seats: 2), seed: 1, moves: good + [bad])
    expectReplayFailure(record, of: SetCard.self, at: 3, because: rejection)
    // Moves after the refused one do not matter.
    let longer = GameRecord(
      settings: record.settings, seed: record.seed, moves: record.moves + good)
    expectReplayFailure(longer, of: SetCard.self, at: 3, because: rejection)
  }

  @Test("Replaying a claim on a card that is gone reports the move that made it")
  func replayReportsCardNoLongerOnTable() throws {
    let game = CardMatchingGame<SetCard>(settings: .set(seats: 2), seed: 4)
    let set = try #require(SetCard.allSets(in: game.board).first)
    let moves =
      [Move.choose(seat: 1, card: set[0].id)] + set.map { Move.choose(seat: 0, card: $0.id) }
      + [Move.choose(seat: 1, card: set[1].id)]
    let record = GameRecord(settings: .set(seats: 2), seed: 4, moves: moves)
    expectReplayFailure(record, of: SetCard.self, at: 4, because: .cardNotOnTable(set[1].id))
  }

  @Test("Replaying a choice of a card already matched in Matchismo is refused")
  func replayReportsAlreadyMatched() throws {
    let game = CardMatchingGame<PlayingCard>(settings: .matchismo(), seed: 4)
    let pair = try #require(firstMatch(in: game))
    let handles = pair.map { game.handle(of: $0) }
    let moves =
      handles.map { Move.choose(seat: 0, card: $0) } + [.choose(seat: 0, card: handles[0])]
    let record = GameRecord(settings: .matchismo(), seed: 4, moves: moves)
    expectReplayFailure(
      record, of: PlayingCard.self, at: 2, because: .cardAlreadyMatched(handles[0]))
  }
}
