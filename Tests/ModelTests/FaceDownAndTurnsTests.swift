import TestSupport
import Testing

@testable import Model

/// Face-down boards (Matchismo, Concentration), turns (Concentration) and Set's classic
/// scoring: the rules that make the three games differ, in the one engine.
@Suite("Face down, turns and classic scoring")
struct FaceDownAndTurnsTests {
  @Test("Matchismo is dealt face down and names cards by slot; choosing turns a card up")
  func matchismoFaceDown() throws {
    var game = CardMatchingGame<PlayingCard>(settings: .matchismo(), seed: 11)
    #expect(game.board.allSatisfy { !game.isFaceUp($0) })
    let card = game.board[5]
    #expect(game.handle(of: card) == 5)
    let events = accept(.choose(seat: 0, card: 5), in: &game)
    #expect(
      events == [
        .selected(seat: 0, card: card), .turnedUp(seat: 0, card: card),
        .scored(seat: 0, score: -1),
      ])
    #expect(game.isFaceUp(card))
    #expect(game.players[0].flips == 1)
    // A slot past the board is no card, whatever card ids exist.
    expectRejection(.choose(seat: 0, card: 24), in: &game, is: .unknownCard(24))
    expectRejection(.choose(seat: 0, card: -1), in: &game, is: .unknownCard(-1))
    // Choosing it again turns it back down.
    let back = accept(.choose(seat: 0, card: 5), in: &game)
    #expect(back == [.deselected(seat: 0, card: card), .turnedDown([card])])
    #expect(!game.isFaceUp(card))
  }

  @Test("A card another seat holds up stays up when one seat lets it go")
  func sharedFaceUpCard() {
    var game = CardMatchingGame<PlayingCard>(settings: .matchismo(seats: 2), seed: 3)
    let card = game.board[0]
    accept(.choose(seat: 0, card: 0), in: &game)
    accept(.choose(seat: 1, card: 0), in: &game)
    let events = accept(.choose(seat: 0, card: 0), in: &game)
    #expect(events == [.deselected(seat: 0, card: card)])
    #expect(game.isFaceUp(card))
  }

  @Test("A Matchismo match stays face up and out of play; a mismatch turns the older card down")
  func matchismoMatchAndMismatch() throws {
    var game = CardMatchingGame<PlayingCard>(settings: .matchismo(), seed: 21)
    let (i, j, k) = try #require(pairAndStranger(game.board))
    accept(.choose(seat: 0, card: i), in: &game)
    accept(.choose(seat: 0, card: k), in: &game)
    // Mismatch: i turns down, k (the newest) stays up and chosen.
    #expect(!game.isFaceUp(game.board[i]))
    #expect(game.isFaceUp(game.board[k]))
    accept(.choose(seat: 0, card: k), in: &game)
    accept(.choose(seat: 0, card: i), in: &game)
    let events = accept(.choose(seat: 0, card: j), in: &game)
    #expect(events.contains { if case .matched = $0 { true } else { false } })
    #expect(game.isFaceUp(game.board[i]) && game.isFaceUp(game.board[j]))
    expectRejection(
      .choose(seat: 0, card: i), in: &game, is: .cardAlreadyMatched(i))
    #expect(game.players[0].flips == 4, "un-choosing is no flip")
  }

  @Test("Concentration deals pairs of one theme's emoji, face down")
  func concentrationDeal() {
    #expect(EmojiCard.themes.count >= 6)
    #expect(EmojiCard.themes.allSatisfy { $0.emoji.count >= 8 })
    #expect(Set(EmojiCard.themes.flatMap { $0.emoji.map(\.glyph) }).count == 60)
    for theme in EmojiCard.themes.indices {
      for pairs in [4, 8, 10] {
        let game = CardMatchingGame<EmojiCard>(
          settings: .concentration(pairs: pairs, theme: theme, seats: 2), seed: UInt64(theme * 7))
        #expect(game.board.count == 2 * pairs)
        #expect(game.deckCount == 0)
        #expect(game.board.allSatisfy { $0.theme == theme })
        let glyphs = Dictionary(grouping: game.board, by: \.glyph)
        #expect(glyphs.count == pairs)
        #expect(glyphs.values.allSatisfy { $0.count == 2 })
        #expect(game.turn == 0)
      }
    }
    #expect(
      EmojiCard.problem(with: GameSettings.concentration(pairs: 11)) != nil,
      "a theme has only ten emoji")
    #expect(EmojiCard.problem(with: GameSettings.concentration(theme: 6)) != nil)
  }

  @Test("Concentration: a pair keeps the turn, a miss turns both back and passes it")
  func concentrationTurns() throws {
    var game = CardMatchingGame<EmojiCard>(settings: .concentration(seats: 3), seed: 5)
    let (i, j, k) = try #require(pairAndStranger(game.board))
    // Seat 1 may not play on seat 0's turn.
    expectRejection(.choose(seat: 1, card: i), in: &game, is: .notYourTurn(1))
    accept(.choose(seat: 0, card: i), in: &game)
    // A card turned up this turn cannot be turned back for a free peek.
    expectRejection(.choose(seat: 0, card: i), in: &game, is: .alreadyChosen(i))
    let miss = accept(.choose(seat: 0, card: k), in: &game)
    let (a, c) = (game.board[i], game.board[k])
    #expect(
      miss == [
        .selected(seat: 0, card: c), .turnedUp(seat: 0, card: c),
        .mismatched(seat: 0, cards: [a, c], penalty: 0),
        .deselected(seat: 0, card: a), .deselected(seat: 0, card: c), .turnedDown([a, c]),
        .turn(seat: 1),
      ])
    #expect(game.turn == 1)
    #expect(game.players[0].score == 0)
    accept(.choose(seat: 1, card: i), in: &game)
    let pair = accept(.choose(seat: 1, card: j), in: &game)
    #expect(pair.contains(.matched(seat: 1, cards: [a, game.board[j]], points: 1)))
    #expect(!pair.contains { if case .turn = $0 { true } else { false } })
    #expect(game.turn == 1)
    #expect(game.players[1].score == 1)
    #expect(game.players[1].flips == 2)
    #expect(game.players[0].flips == 2)
  }

  @Test("A pass turns the passer's card down and moves the turn on; only the seat to play passes")
  func concentrationPass() throws {
    var game = CardMatchingGame<EmojiCard>(settings: .concentration(seats: 2), seed: 8)
    expectRejection(.pass(seat: 1), in: &game, is: .notYourTurn(1))
    accept(.choose(seat: 0, card: 3), in: &game)
    let card = game.board[3]
    let events = accept(.pass(seat: 0), in: &game)
    #expect(events == [.deselected(seat: 0, card: card), .turnedDown([card]), .turn(seat: 1)])
    let around = accept(.pass(seat: 1), in: &game)
    #expect(around == [.turn(seat: 0)])
    var set = CardMatchingGame<SetCard>(settings: .set(), seed: 1)
    expectRejection(.pass(seat: 0), in: &set, is: .notTurnBased)
  }

  @Test("Concentration ends when every pair is found, ranked by pairs", arguments: [1, 2, 4])
  func concentrationToTheEnd(seats: Int) throws {
    var game = CardMatchingGame<EmojiCard>(
      settings: .concentration(pairs: 6, seats: seats), seed: UInt64(seats))
    var found = 0
    var missed = 0
    var last: [GameEvent<EmojiCard>] = []
    for _ in 0..<100 where !game.isOver {
      let seat = try #require(game.turn)
      let open = game.board.indices.filter { !game.matchedOnBoard.contains(game.board[$0].id) }
      let i = open[0]
      let j = try #require(open.first { $0 != i && game.board[$0].glyph == game.board[i].glyph })
      // Every other pair comes after a miss, so the turn goes round.
      if found % 2 == 1 && missed == found / 2,
        let miss = open.first(where: { game.board[$0].glyph != game.board[i].glyph })
      {
        accept(.choose(seat: seat, card: i), in: &game)
        accept(.choose(seat: seat, card: miss), in: &game)
        missed += 1
        #expect(game.turn == (seat + 1) % seats)
        continue
      }
      accept(.choose(seat: game.turn!, card: i), in: &game)
      last = accept(.choose(seat: game.turn!, card: j), in: &game)
      found += 1
    }
    #expect(found == 6)
    #expect(game.matchedOnBoard.count == 12)
    #expect(game.players.map(\.score).reduce(0, +) == 6)
    #expect(last.contains { if case .ended = $0 { true } else { false } })
  }

  @Test(
    "Set's classic scoring: a set is a point, a wrong triple costs one and clears the selection")
  func classicSetScoring() throws {
    var game = CardMatchingGame<SetCard>(settings: .set(seats: 2, scoring: .classic), seed: 9)
    #expect(game.settings.scoring == .classic)
    #expect(GameSettings.set().scoring == .course)
    let set = try #require(SetCard.allSets(in: game.board).first)
    let wrong = try #require(
      combinations(of: game.board, choose: 3).first { !SetCard.isSet($0[0], $0[1], $0[2]) })
    for card in wrong.prefix(2) {
      let events = accept(.choose(seat: 1, card: card.id), in: &game)
      #expect(!events.contains { if case .scored = $0 { true } else { false } }, "choosing is free")
    }
    let miss = accept(.choose(seat: 1, card: wrong[2].id), in: &game)
    #expect(miss.contains(.mismatched(seat: 1, cards: wrong, penalty: 1)))
    #expect(game.players[1].selection.isEmpty, "the whole selection goes")
    #expect(game.players[1].score == -1)
    for card in set { accept(.choose(seat: 0, card: card.id), in: &game) }
    #expect(game.players[0].score == 1)
    #expect(game.players[0].matches == 1)
    // Ranked by sets found first.
    let rows = [
      Standing(seat: 0, score: 2, matches: 3, rank: 0),
      Standing(seat: 1, score: 5, matches: 5, rank: 0),
      Standing(seat: 2, score: 3, matches: 3, rank: 0),
    ]
    #expect(Standing.ranked(rows, byMatches: true).map(\.seat) == [1, 2, 0])
    #expect(Standing.ranked(rows, byMatches: true).map(\.rank) == [1, 2, 3])
    #expect(Standing.ranked(rows, byMatches: false).map(\.seat) == [1, 2, 0])
  }

  @Test("Passes are logged in two bytes and replay")
  func passesReplay() throws {
    var game = CardMatchingGame<EmojiCard>(settings: .concentration(seats: 2), seed: 4)
    var moves: [Move] = []
    for move: Move in [.choose(seat: 0, card: 1), .pass(seat: 0), .pass(seat: 1), .redeal(seat: 1)]
    {
      accept(move, in: &game)
      moves.append(move)
    }
    let log = MoveLog(moves)
    #expect(Array(log) == moves)
    let replayed = try CardMatchingGame<EmojiCard>.replay(
      GameRecord(settings: game.settings, seed: 4, moves: moves))
    #expect(replayed.game == game)
  }
}
