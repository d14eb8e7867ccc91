import Protocol
import TestSupport
import Testing

@testable import Lobby
@testable import Model

/// Every match and mismatch of a game, with the cards, the player, the points and the time into
/// the game: kept by the table, in its snapshot, grown by diffs, styled like the status line.
@Suite struct HistoryTests {
  static func historyEvents(_ diff: JSONValue) -> [JSONValue] {
    (diff["events"]?.elements ?? []).filter { $0["kind"] == "history" }.compactMap { $0["entry"] }
  }

  @Test func matchesAndMismatchesAreRecordedAndSentStyled() throws {
    var state = TableState<SetCard>(
      id: "t1", settings: .set(seats: 2), seed: 42, names: ["Ada", "Bob"], now: 100)
    let board = state.game.board
    let set = try #require(SetCard.allSets(in: board).first)
    let wrong = try #require(
      board.indices.lazy.flatMap { i in board.indices.map { (i, $0) } }
        .compactMap { (i, j) -> [SetCard]? in
          guard i < j,
            let k = board.indices.first(where: {
              $0 > j && !SetCard.isSet(board[i], board[j], board[$0])
            })
          else { return nil }
          return [board[i], board[j], board[k]]
        }.first)
    for card in wrong.prefix(2) {
      _ = state.apply(.choose(seat: 1, card: card.id), replyTo: nil, now: 101)
    }
    guard
      case .accepted(_, _, let missDiff, _) = state.apply(
        .choose(seat: 1, card: wrong[2].id), replyTo: nil, now: 112.34)
    else { throw TableStateTests.Refused() }
    let miss = try #require(Self.historyEvents(missDiff).first)
    #expect(miss["n"] == .int(1))
    #expect(miss["kind"] == "mismatch")
    #expect(miss["seat"] == .int(1))
    #expect(miss["penalty"] == .int(2))
    // Its three choices cost 3 more: the entry says so, so that its points add up to the
    // score's change (issue 34, point 5).
    #expect(miss["choices"] == .int(3))
    #expect(miss["at"] == .double(12.3))
    let runs = try #require(miss["runs"]?.elements)
    #expect(runs.first?["text"] == "Bob")
    #expect(runs.compactMap { $0["card"]?.intValue } == wrong.map(\.id))
    #expect(runs.compactMap { $0["label"]?.stringValue } == wrong.map(\.spokenName))

    _ = state.apply(.choose(seat: 1, card: wrong[2].id), replyTo: nil, now: 113)  // let go
    for card in set.prefix(2) {
      _ = state.apply(.choose(seat: 0, card: card.id), replyTo: nil, now: 120)
    }
    guard
      case .accepted(_, _, let matchDiff, _) = state.apply(
        .choose(seat: 0, card: set[2].id), replyTo: nil, now: 130)
    else { throw TableStateTests.Refused() }
    let match = try #require(Self.historyEvents(matchDiff).first)
    #expect(match["n"] == .int(2))
    #expect(match["kind"] == "match")
    #expect(match["points"] == .int(12))
    #expect(match["at"] == .double(30))
    #expect(match["choices"] == .int(3))
    let said = (match["runs"]?.elements ?? []).compactMap { $0["text"]?.stringValue }
    #expect(Array(said.suffix(5)) == [" for ", "+12", ", ", "−3", " for the choices"])

    // Late joiners and spectators see the whole history in the snapshot.
    let snapshot = state.snapshot(replyTo: nil, you: nil)
    #expect(snapshot["table"]?["history"]?.elements == [miss, match])

    // A new game starts a new history.
    _ = state.apply(.redeal(seat: 0), replyTo: nil, now: 200)
    #expect(state.history.isEmpty)
    #expect(state.snapshot(replyTo: nil, you: 0)["table"]?["history"] == nil)
  }

  @Test func theHistoryKeepsItsLastEntriesOnly() throws {
    var state = TableState<PlayingCard>(
      id: "m", settings: .matchismo(), seed: 7, names: ["Ada"])
    let board = state.game.board
    let (i, _, k) = try #require(pairAndStranger(board))
    // Mismatch the same two cards over and over: every second choice is a mismatch.
    var mismatches = 0
    for round in 0..<(2 * TableState<PlayingCard>.historyCap + 60) {
      let slot = round % 2 == 0 ? i : k
      if case .accepted(_, let events, _, _) = state.apply(
        .choose(seat: 0, card: slot), replyTo: nil)
      {
        mismatches += events.count { if case .mismatched = $0 { true } else { false } }
      }
    }
    #expect(mismatches > TableState<PlayingCard>.historyCap)
    #expect(state.history.count == TableState<PlayingCard>.historyCap)
    #expect(state.history.last?.number == mismatches)
    #expect(state.history.first?.number == mismatches - TableState<PlayingCard>.historyCap + 1)
  }

  @Test func aChoiceThatLostTheRaceSaysWhoTookTheCards() throws {
    var state = TableState<SetCard>(
      id: "t1", settings: .set(seats: 2), seed: 42, names: ["Ada", "Bob"])
    let set = try #require(SetCard.allSets(in: state.game.board).first)
    for card in set { _ = state.apply(.choose(seat: 0, card: card.id), replyTo: nil) }
    guard
      case .rejected(let error) = state.apply(.choose(seat: 1, card: set[1].id), replyTo: .int(4))
    else { throw TableStateTests.Refused() }
    #expect(error.code == .cardNotOnTable)
    #expect(error.replyTo == .int(4))
    #expect(error.message.hasPrefix("Ada took those cards first: "))
    #expect(error.message.contains(set[1].spokenName))
  }
}
