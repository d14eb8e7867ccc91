import Lobby
import Model
import Protocol
import TestSupport
import Testing

@Suite struct TableStateTests {
  static func soloTable(seed: UInt64 = 42) -> TableState<SetCard> {
    TableState(id: "t1", settings: .set(), seed: seed, names: ["Ada"])
  }

  /// The move's outcome, which must be accepted.
  static func accept<Card>(
    _ move: Move, replyTo: MessageID? = nil, in state: inout TableState<Card>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (version: Int, events: [GameEvent<Card>], diff: JSONValue, frame: Frame) {
    let outcome = state.apply(move, replyTo: replyTo)
    guard case .accepted(let version, let events, let diff, let frame) = outcome else {
      Issue.record("\(move) was refused: \(outcome)", sourceLocation: sourceLocation)
      throw Refused()
    }
    return (version, events, diff, frame)
  }

  /// The move's refusal, which it must be.
  static func reject<Card>(
    _ move: Move, replyTo: MessageID? = nil, in state: inout TableState<Card>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> ProtocolError {
    let outcome = state.apply(move, replyTo: replyTo)
    guard case .rejected(let error) = outcome else {
      Issue.record("\(move) was accepted", sourceLocation: sourceLocation)
      throw Refused()
    }
    return error
  }

  struct Refused: Error {}

  @Test func newTableIsVersionZero() {
    let state = Self.soloTable()
    #expect(state.version == 0)
    #expect(state.record == GameLog(settings: .set(), seed: 42))
    #expect(state.record.record == GameRecord(settings: .set(), seed: 42))
    #expect(state.movesAccepted == 0)
    #expect(state.lastMove == nil)
    #expect(state.game == CardMatchingGame(settings: .set(), seed: 42))
    #expect(state.status == StatusLine.newGame)
  }

  @Test func acceptedMoveBumpsTheVersionByOne() throws {
    var state = Self.soloTable()
    let card = state.game.board[3].id
    let accepted = try Self.accept(.choose(seat: 0, card: card), replyTo: .int(3), in: &state)
    #expect(accepted.version == 1)
    #expect(state.version == 1)
    #expect(
      accepted.events == [
        .selected(seat: 0, card: SetCard.fullDeck[card]), .scored(seat: 0, score: -1),
      ])
    #expect(accepted.diff["type"] == "diff")
    #expect(accepted.diff["table"] == "t1")
    #expect(accepted.diff["version"] == .int(1))
    #expect(accepted.diff["seat"] == .int(0))
    #expect(accepted.diff["replyTo"] == .int(3))
    // The diff says the move's events, in order, and nothing else.
    #expect(
      accepted.diff["events"]
        == .array(accepted.events.map { Written.json($0, names: ["Ada"]) }))
    #expect(
      Set(accepted.diff.keys) == [
        "type", "table", "version", "seat", "replyTo", "events", "status",
      ])
    #expect(
      accepted.diff["status"]
        == .array(StatusLine.runs(for: accepted.events, names: ["Ada"]).map(\.json)))
    #expect(state.status == StatusLine.runs(for: accepted.events, names: ["Ada"]))
    #expect(Array(state.record.moves) == [.choose(seat: 0, card: card)])

    let second = try Self.accept(.choose(seat: 0, card: card), replyTo: .string("undo"), in: &state)
    #expect(second.version == 2)
    #expect(second.diff["replyTo"] == "undo")
    #expect(second.events == [.deselected(seat: 0, card: SetCard.fullDeck[card])])

    #expect(state.record.moves.count == 2)

    let redeal = try Self.accept(.redeal(seat: 0), in: &state)
    #expect(redeal.version == 3)
    #expect(redeal.diff["replyTo"] == nil)
    // Three moves accepted; the re-deal began a new game, whose record has none yet.
    #expect(state.movesAccepted == 3)
    #expect(state.lastMove == .redeal(seat: 0))
    #expect(state.record.moves.isEmpty)
    #expect(state.record.seed == state.game.dealSeed)
  }

  @Test func diffCarriesTheSeatThatMoved() throws {
    var state = TableState<SetCard>(
      id: "t7", settings: .set(seats: 3), seed: 9, names: ["Ada", "Bob", "Cy"])
    let card = state.game.board[0].id
    let accepted = try Self.accept(.choose(seat: 2, card: card), replyTo: .int(1), in: &state)
    #expect(accepted.diff["seat"] == .int(2))
    #expect(accepted.diff["table"] == "t7")
    #expect(Array(state.status.prefix(2)) == [.name("Cy", seat: 2), .text(" chose ")])
  }

  @Test func rejectedMovesChangeNothing() throws {
    var state = Self.soloTable()
    _ = try Self.accept(.choose(seat: 0, card: state.game.board[0].id), in: &state)
    let before = (state.version, state.game, state.record, state.status)
    let offBoard = try #require(SetCard.fullDeck.first { !state.game.board.contains($0) }).id

    let unknown = try Self.reject(.choose(seat: 0, card: 81), replyTo: .int(5), in: &state)
    #expect(unknown.code == .unknownCard)
    #expect(unknown.replyTo == .int(5))
    let negative = try Self.reject(.choose(seat: 0, card: -1), replyTo: .int(6), in: &state)
    #expect(negative.code == .unknownCard)
    let notOnTable = try Self.reject(
      .choose(seat: 0, card: offBoard), replyTo: .string("x"), in: &state)
    #expect(notOnTable.code == .cardNotOnTable)
    #expect(notOnTable.replyTo == .string("x"))
    #expect(notOnTable.message == "Card \(offBoard) is not on the table.")
    let noSeat = try Self.reject(.choose(seat: 1, card: state.game.board[1].id), in: &state)
    #expect(noSeat.code == .notAtTable)
    #expect(noSeat.replyTo == nil)

    #expect(state.version == before.0)
    #expect(state.game == before.1)
    #expect(state.record == before.2)
    #expect(state.status == before.3)
  }

  @Test func movesAfterTheGameEndsAreRefusedButRedealIsNot() throws {
    var state = Self.soloTable(seed: 7)
    var player = SetPlayer(seed: 7)
    for _ in 0..<3000 where !state.game.isOver {
      _ = state.apply(player.nextMove(in: state.game), replyTo: nil)
    }
    try #require(state.game.isOver)
    let version = state.version
    let moves = state.record.moves.count
    let game = state.game

    for card in state.game.board.map(\.id) + [0, 80] {
      let error = try Self.reject(.choose(seat: 0, card: card), replyTo: .int(card), in: &state)
      #expect(error.code == .gameOver)
      #expect(error.replyTo == .int(card))
    }
    // Once the game is over, every choice gets the same answer.
    #expect(try Self.reject(.choose(seat: 0, card: 81), in: &state).code == .gameOver)
    #expect(state.version == version)
    #expect(state.record.moves.count == moves)
    #expect(state.game == game)

    let redeal = try Self.accept(.redeal(seat: 0), in: &state)
    #expect(redeal.version == version + 1)
    #expect(!state.game.isOver)
    #expect(state.game.players[0].score == 0)
    #expect(state.game.players[0].matches == 0)
  }

  @Test func matchedCardOfAKeepGameIsNotOnTheTable() throws {
    var state = TableState<PlayingCard>(id: "m1", settings: .matchismo(), seed: 3, names: ["Ada"])
    let board = state.game.board
    var pairs: [(Int, Int)] = []
    for i in board.indices {
      for j in board.indices where j > i && PlayingCard.matchScore([board[i], board[j]]) > 0 {
        pairs.append((i, j))
      }
    }
    let pair = try #require(pairs.first)
    // Matchismo's cards are face down: the wire names them by slot.
    _ = try Self.accept(.choose(seat: 0, card: pair.0), in: &state)
    let match = try Self.accept(.choose(seat: 0, card: pair.1), in: &state)
    #expect(match.events.contains { if case .matched = $0 { true } else { false } })
    let error = try Self.reject(.choose(seat: 0, card: pair.0), replyTo: .int(1), in: &state)
    #expect(error.code == .cardNotOnTable)
    #expect(state.version == 2)
    // The snapshot lists the matched cards that stay face up, by slot, and shows their faces.
    let table = state.snapshot(replyTo: nil, you: 0)["table"]
    #expect(table?["matched"] == .array([pair.0, pair.1].map { .int($0) }))
    let entry = table?["board"]?.elements?[pair.0]
    #expect(entry?["faceUp"] == .bool(true))
    #expect(entry?["matched"] == .bool(true))
    #expect(entry?["rank"] == .int(board[pair.0].rank))
  }

  @Test(arguments: [1, 2, 3, 99, 12345, 0xDEAD_BEEF] as [UInt64])
  func recordReplaysToTheSameGame(seed: UInt64) throws {
    var state = TableState<SetCard>(
      id: "t1", settings: .set(seats: 2), seed: seed, names: ["Ada", "Bob"])
    var players = [SetPlayer(seed: seed), SetPlayer(seed: ~seed)]
    players[0].redealPercent = 1
    var chooser = SeededGenerator(seed: seed)
    var accepted = 0
    var redeals = 0
    for step in 0..<600 {
      let seat = chooser.below(2)
      // Now and then, a move that must be refused.
      let move =
        step % 17 == 0
        ? .choose(seat: seat, card: 81) : players[seat].nextMove(in: state.game, seat: seat)
      let before = state.record.moves.count
      switch state.apply(move, replyTo: .int(step)) {
      case .accepted:
        accepted += 1
        #expect(state.lastMove == move)
        if case .redeal = move {
          // A re-deal starts the record of a new game, from the new deal's seed.
          redeals += 1
          #expect(state.record.moves.isEmpty)
          #expect(state.record.seed == state.game.dealSeed)
        } else {
          #expect(state.record.moves.count == before + 1)
          #expect(state.record.moves.last == move)
        }
      case .rejected:
        #expect(state.record.moves.count == before)
      }
      #expect(state.version == accepted)
      #expect(state.movesAccepted == accepted)
      if step % 50 == 0 {
        #expect(
          try CardMatchingGame<SetCard>.replay(#require(state.record.record)).game == state.game)
      }
    }
    #expect(state.record.seed == (redeals == 0 ? seed : state.game.dealSeed))
    let replayed = try CardMatchingGame<SetCard>.replay(#require(state.record.record))
    #expect(replayed.game == state.game)
  }

  @Test func snapshotReflectsTheGame() throws {
    var state = TableState<SetCard>(
      id: "t3", settings: .set(seats: 2), seed: 5, names: ["Ada", "Bob"])
    var players = [SetPlayer(seed: 1), SetPlayer(seed: 2)]
    for step in 0..<120 {
      let seat = step % 2
      _ = state.apply(players[seat].nextMove(in: state.game, seat: seat), replyTo: nil)
      let snapshot = state.snapshot(replyTo: .int(step), you: 1)
      #expect(snapshot["type"] == "snapshot")
      #expect(snapshot["replyTo"] == .int(step))
      let table = try #require(snapshot["table"])
      #expect(table["id"] == "t3")
      #expect(table["game"] == "set")
      #expect(table["version"] == .int(state.version))
      #expect(table["you"] == .int(1))
      #expect(table["over"] == .bool(state.game.isOver))
      #expect(table["deckCount"] == .int(state.game.deckCount))
      #expect(table["board"]?.elements?.map { $0["id"] } == state.game.board.map { .int($0.id) })
      #expect(table["board"] == .array(state.game.board.map(\.wireObject)))
      let players = try #require(table["players"]?.elements)
      #expect(players.count == 2)
      for (seat, player) in players.enumerated() {
        #expect(player["seat"] == .int(seat))
        #expect(player["name"] == .string(["Ada", "Bob"][seat]))
        #expect(player["score"] == .int(state.game.players[seat].score))
        #expect(player["matches"] == .int(state.game.players[seat].matches))
        #expect(player["selection"] == .array(state.game.players[seat].selection.map { .int($0) }))
      }
      #expect(table["status"] == .array(state.status.map(\.json)))
    }
    #expect(state.snapshot(replyTo: nil, you: nil)["table"]?["you"] == nil)
  }
}
