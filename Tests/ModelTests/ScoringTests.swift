import Model
import Testing

/// A seeded Matchismo deal whose board shows two spades of different ranks and two sixes, as in
/// the lecture's demo, with the four cards all different.
private struct LectureDeal {
  var game: CardMatchingGame<PlayingCard>
  var spades: [PlayingCard]
  var sixes: [PlayingCard]
  var other: PlayingCard

  init?(seed: UInt64) {
    game = CardMatchingGame(settings: .matchismo(), seed: seed)
    let board = game.board
    let isSpade = { (card: PlayingCard) in card.description.hasSuffix("♠") }
    let isSix = { (card: PlayingCard) in card.description.hasPrefix("6") }
    let sixes = board.filter(isSix)
    // Spades that are not sixes, so the suit match cannot also be a rank match.
    let spades = board.filter { isSpade($0) && !isSix($0) }
    guard sixes.count >= 2, spades.count >= 2 else { return nil }
    self.sixes = Array(sixes.prefix(2))
    self.spades = Array(spades.prefix(2))
    let used = self.sixes + self.spades
    guard let other = board.first(where: { !used.contains($0) }) else { return nil }
    self.other = other
  }
}

@Suite("Scoring")
struct ScoringTests {
  @Test("The table constants are the course's")
  func constants() {
    for settings in [GameSettings.matchismo(), .matchismo(matchSize: 3), .set()] {
      #expect(settings.costToChoose == 1)
      #expect(settings.mismatchPenalty == 2)
      #expect(settings.matchBonus == 4)
    }
    #expect(GameSettings.matchismo().matchSize == 2)
    #expect(GameSettings.matchismo().boardSize == 24)
    #expect(GameSettings.set().matchSize == 3)
    #expect(GameSettings.set().boardSize == 12)
  }

  /// Lecture 2 (about 01:05:16–01:06:12): at −5 with a spade chosen, choosing another spade costs 1
  /// (−6) and the suit match earns 1 × 4 (−2); later, at −9 with a six chosen, choosing another six
  /// costs 1 (−10) and the rank match earns 4 × 4 (+6).
  @Test("Matchismo reproduces the lecture's worked examples")
  func lectureExamples() throws {
    let deal = try #require((UInt64(0)..<500).lazy.compactMap(LectureDeal.init).first)
    var game = deal.game
    let (spadeA, spadeB) = (deal.spades[0], deal.spades[1])
    let (sixA, sixB) = (deal.sixes[0], deal.sixes[1])

    // Get to −4 by choosing and un-choosing another card: each round costs 1.
    spendChoices(4, choosing: deal.other, in: &game)
    #expect(game.players[0].score == -4)

    var events = accept(.choose(seat: 0, card: game.handle(of: spadeA)), in: &game)
    #expect(
      events == [
        .selected(seat: 0, card: spadeA), .turnedUp(seat: 0, card: spadeA),
        .scored(seat: 0, score: -5),
      ])

    events = accept(.choose(seat: 0, card: game.handle(of: spadeB)), in: &game)
    #expect(
      events == [
        .selected(seat: 0, card: spadeB), .turnedUp(seat: 0, card: spadeB),
        .scored(seat: 0, score: -6),
        .matched(seat: 0, cards: [spadeA, spadeB], points: 4), .scored(seat: 0, score: -2),
      ])
    #expect(game.players[0].score == -2)
    #expect(game.players[0].matches == 1)
    #expect(game.players[0].selection.isEmpty)

    spendChoices(6, choosing: deal.other, in: &game)
    events = accept(.choose(seat: 0, card: game.handle(of: sixA)), in: &game)
    #expect(
      events == [
        .selected(seat: 0, card: sixA), .turnedUp(seat: 0, card: sixA),
        .scored(seat: 0, score: -9),
      ])

    events = accept(.choose(seat: 0, card: game.handle(of: sixB)), in: &game)
    #expect(
      events == [
        .selected(seat: 0, card: sixB), .turnedUp(seat: 0, card: sixB),
        .scored(seat: 0, score: -10),
        .matched(seat: 0, cards: [sixA, sixB], points: 16), .scored(seat: 0, score: 6),
      ])
    #expect(game.players[0].score == 6)
    #expect(game.players[0].matches == 2)

    // Matched cards stay on the board, out of play.
    #expect(game.board.count == 24)
    #expect(game.matchedOnBoard == Set([spadeA, spadeB, sixA, sixB].map(\.id)))
    #expect(game.playableCards.count == 20)
    #expect(!game.playableCards.contains(spadeA))
    expectRejection(
      .choose(seat: 0, card: game.handle(of: sixA)), in: &game,
      is: .cardAlreadyMatched(game.handle(of: sixA)))
  }

  @Test("A Matchismo mismatch costs 2, lets the other card go, and keeps the new one chosen")
  func matchismoMismatch() throws {
    var game = CardMatchingGame<PlayingCard>(settings: .matchismo(), seed: 1)
    let first = game.board[0]
    let second = try #require(game.board.first { PlayingCard.matchScore([first, $0]) == 0 })

    var events = accept(.choose(seat: 0, card: game.handle(of: first)), in: &game)
    #expect(
      events == [
        .selected(seat: 0, card: first), .turnedUp(seat: 0, card: first),
        .scored(seat: 0, score: -1),
      ])
    events = accept(.choose(seat: 0, card: game.handle(of: second)), in: &game)
    #expect(
      events == [
        .selected(seat: 0, card: second), .turnedUp(seat: 0, card: second),
        .scored(seat: 0, score: -2),
        .mismatched(seat: 0, cards: [first, second], penalty: 2), .scored(seat: 0, score: -4),
        .deselected(seat: 0, card: first), .turnedDown([first]),
      ])
    #expect(game.players[0].selection == [second.id])
    #expect(game.players[0].matches == 0)
    #expect(game.matchedOnBoard.isEmpty)

    // Un-choosing the card that stayed chosen is free.
    events = accept(.choose(seat: 0, card: game.handle(of: second)), in: &game)
    #expect(events == [.deselected(seat: 0, card: second), .turnedDown([second])])
    #expect(game.players[0].score == -4)
    #expect(game.players[0].selection.isEmpty)
  }

  @Test("Three-card Matchismo scores the sum over the three pairs, times 4")
  func matchismoThreeCards() throws {
    // Find a deal with three cards of one suit and three other cards that share nothing.
    var found: (CardMatchingGame<PlayingCard>, [PlayingCard], [PlayingCard])?
    for seed in UInt64(0)..<500 where found == nil {
      let game = CardMatchingGame<PlayingCard>(settings: .matchismo(matchSize: 3), seed: seed)
      let triples = combinations(of: game.board, choose: 3)
      let sameSuit = triples.first { triple in
        Set(triple.map(\.suit)).count == 1 && Set(triple.map(\.rank)).count == 3
      }
      guard let sameSuit else { continue }
      let unrelated = triples.first { triple in
        Set(triple.map(\.suit)).count == 3 && Set(triple.map(\.rank)).count == 3
          && Set(triple).isDisjoint(with: sameSuit)
      }
      if let unrelated { found = (game, sameSuit, unrelated) }
    }
    let (deal, sameSuit, unrelated) = try #require(found)
    var game = deal

    for card in sameSuit { accept(.choose(seat: 0, card: game.handle(of: card)), in: &game) }
    // −3 for three choices, then 3 suit pairs × 1 × 4.
    #expect(game.players[0].score == -3 + 12)
    #expect(game.players[0].matches == 1)

    var events: [GameEvent<PlayingCard>] = []
    for card in unrelated {
      events = accept(.choose(seat: 0, card: game.handle(of: card)), in: &game)
    }
    #expect(game.players[0].score == 9 - 3 - 2)
    #expect(events.contains(.mismatched(seat: 0, cards: unrelated, penalty: 2)))
    #expect(game.players[0].selection == [unrelated[2].id])
  }

  @Test("A set scores −3 for the choices and 3 × 4 for the set")
  func setScoresNine() throws {
    var game = CardMatchingGame<SetCard>(settings: .set(), seed: 2)
    let set = try #require(SetCard.allSets(in: game.board).first)

    var events = accept(.choose(seat: 0, card: game.handle(of: set[0])), in: &game)
    #expect(events == [.selected(seat: 0, card: set[0]), .scored(seat: 0, score: -1)])
    events = accept(.choose(seat: 0, card: game.handle(of: set[1])), in: &game)
    #expect(events == [.selected(seat: 0, card: set[1]), .scored(seat: 0, score: -2)])
    events = accept(.choose(seat: 0, card: game.handle(of: set[2])), in: &game)
    #expect(
      Array(events.prefix(4)) == [
        .selected(seat: 0, card: set[2]), .scored(seat: 0, score: -3),
        .matched(seat: 0, cards: set, points: 12), .scored(seat: 0, score: 9),
      ])
    #expect(game.players[0].score == 9)
    #expect(game.players[0].matches == 1)
    #expect(game.players[0].selection.isEmpty)
  }

  @Test("A wrong triple costs 2 more and leaves only the third card chosen")
  func setMismatch() throws {
    var game = CardMatchingGame<SetCard>(settings: .set(), seed: 2)
    let (a, b) = (game.board[0], game.board[1])
    let c = try #require(game.board.first { $0 != a && $0 != b && !SetCard.isSet(a, b, $0) })
    let before = game.board

    accept(.choose(seat: 0, card: game.handle(of: a)), in: &game)
    accept(.choose(seat: 0, card: game.handle(of: b)), in: &game)
    let events = accept(.choose(seat: 0, card: game.handle(of: c)), in: &game)
    #expect(
      events == [
        .selected(seat: 0, card: c), .scored(seat: 0, score: -3),
        .mismatched(seat: 0, cards: [a, b, c], penalty: 2), .scored(seat: 0, score: -5),
        .deselected(seat: 0, card: a), .deselected(seat: 0, card: b),
      ])
    #expect(game.players[0].score == -5)
    #expect(game.players[0].selection == [c.id])
    #expect(game.board == before)
  }

  @Test("Un-choosing is free and reported")
  func unchoosingIsFree() {
    var game = CardMatchingGame<SetCard>(settings: .set(), seed: 4)
    let (a, b) = (game.board[3], game.board[7])
    accept(.choose(seat: 0, card: game.handle(of: a)), in: &game)
    accept(.choose(seat: 0, card: game.handle(of: b)), in: &game)
    #expect(game.players[0].score == -2)
    #expect(game.players[0].selection == [a.id, b.id])
    let events = accept(.choose(seat: 0, card: game.handle(of: a)), in: &game)
    #expect(events == [.deselected(seat: 0, card: a)])
    #expect(game.players[0].score == -2)
    #expect(game.players[0].selection == [b.id])
  }

  @Test("Scoring follows the table's constants", arguments: [0, 1, 3])
  func customConstants(cost: Int) throws {
    let settings = GameSettings(
      boardSize: 12, matchSize: 3, costToChoose: cost, mismatchPenalty: 5, matchBonus: 7,
      matchedCards: .replace, dealsMoreWhenNoMatch: true)
    var game = CardMatchingGame<SetCard>(settings: settings, seed: 6)
    let set = try #require(SetCard.allSets(in: game.board).first)
    var events: [GameEvent<SetCard>] = []
    for card in set { events = accept(.choose(seat: 0, card: game.handle(of: card)), in: &game) }
    #expect(game.players[0].score == -3 * cost + 3 * 7)
    // No score line for a free choice.
    #expect(events.contains(.scored(seat: 0, score: -3 * cost)) == (cost != 0))

    let (a, b) = (game.board[0], game.board[1])
    let c = try #require(game.board.first { $0 != a && $0 != b && !SetCard.isSet(a, b, $0) })
    for card in [a, b, c] { accept(.choose(seat: 0, card: game.handle(of: card)), in: &game) }
    #expect(game.players[0].score == -6 * cost + 3 * 7 - 5)
  }
}
