import Model
import Protocol
import TestSupport
import Testing

@testable import Lobby

/// A table keeps in memory only the record of the game being played: the current deal's seed
/// and its moves, two bytes each, up to a cap; a re-deal lets the old game go.
@Suite("Table record memory")
struct RecordMemoryTests {
  /// A solo Set table already playing, whose record keeps at most `cap` moves.
  static func table(seed: UInt64 = 11, seats: Int = 1, cap: Int = MoveLog.defaultCap)
    -> TableState<SetCard>
  {
    var rules = TableRules()
    rules.recordCap = cap
    let names = (0..<seats).map { "P\($0)" }
    return TableState(
      id: "m1", settings: .set(seats: seats), seed: seed, names: names, rules: rules)
  }

  /// Applies `move`, which must be accepted.
  static func accept(
    _ move: Move, in state: inout TableState<SetCard>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if case .rejected(let error) = state.apply(move, replyTo: nil) {
      Issue.record("\(move) was refused: \(error)", sourceLocation: sourceLocation)
    }
  }

  @Test("After re-deals, the current record replays to the live game", arguments: [1, 2, 4])
  func currentRecordReplaysAfterRedeals(seats: Int) throws {
    var state = Self.table(seed: 77, seats: seats)
    var players = (0..<seats).map { SetPlayer(seed: 77 &+ UInt64($0)) }
    var turns = SeededGenerator(seed: 78)
    var redeals = 0
    for step in 0..<1500 {
      let seat = turns.below(seats)
      let move: Move =
        step % 97 == 96 || state.game.isOver
        ? .redeal(seat: seat) : players[seat].nextMove(in: state.game, seat: seat)
      if case .accepted = state.apply(move, replyTo: nil), case .redeal = move { redeals += 1 }
      if step % 25 == 0 {
        let record = try #require(state.record.record)
        #expect(try CardMatchingGame<SetCard>.replay(record).game == state.game)
      }
    }
    #expect(redeals >= 10)
    #expect(state.record.seed == state.game.dealSeed)
    let record = try #require(state.record.record)
    #expect(record.moves.count < state.movesAccepted)
    #expect(try CardMatchingGame<SetCard>.replay(record).game == state.game)
  }

  @Test("The record stops at its cap; play goes on; a re-deal starts a whole record again")
  func recordStopsAtTheCap() throws {
    var state = Self.table(cap: 8)
    let card = state.game.board[0].id
    for _ in 0..<20 { Self.accept(.choose(seat: 0, card: card), in: &state) }
    #expect(state.movesAccepted == 20)
    #expect(state.version == 20)
    #expect(state.record.moves.count == 8)
    #expect(state.record.isTruncated)
    #expect(state.record.record == nil)
    #expect(Array(state.record.moves) == Array(repeating: .choose(seat: 0, card: card), count: 8))

    Self.accept(.redeal(seat: 0), in: &state)
    #expect(!state.record.isTruncated)
    #expect(state.record.moves.isEmpty)
    #expect(state.record.moves.cap == 8)
    let fresh = state.game.board[1].id
    Self.accept(.choose(seat: 0, card: fresh), in: &state)
    let record = try #require(state.record.record)
    #expect(record.moves == [.choose(seat: 0, card: fresh)])
    #expect(try CardMatchingGame<SetCard>.replay(record).game == state.game)
  }

  @Test("Toggling one card 10,000 times leaves the record at its cap")
  func togglingDoesNotGrowMemory() {
    var state = Self.table(seats: 4)
    let card = state.game.board[2].id
    for step in 0..<10_000 { Self.accept(.choose(seat: step % 4, card: card), in: &state) }
    #expect(state.movesAccepted == 10_000)
    #expect(state.record.moves.count == MoveLog.defaultCap)
    #expect(state.record.moves.byteCount == 2 * MoveLog.defaultCap)
    #expect(state.record.isTruncated)
    // The game itself is as it was: every seat toggled the card an even number of times.
    #expect(state.game.players.allSatisfy { $0.selection.isEmpty })
  }

  @Test("A re-deal voted in by a tick also starts a new record")
  func tickRedealStartsANewRecord() throws {
    var state = Self.table(seats: 3)
    Self.accept(.choose(seat: 1, card: state.game.board[0].id), in: &state)
    _ = state.requestRedeal(by: 1, replyTo: nil)
    #expect(state.record.moves.count == 1)
    // Seats 0 and 2 drop: one vote of the one connected seat is a majority, and the next tick
    // carries it out.
    _ = state.disconnect(seat: 0, now: 0)
    _ = state.disconnect(seat: 2, now: 0)
    _ = state.tick(now: 1)
    #expect(state.lastMove == .redeal(seat: 1))
    #expect(state.record.moves.isEmpty)
    #expect(state.record.seed == state.game.dealSeed)
    let record = try #require(state.record.record)
    #expect(try CardMatchingGame<SetCard>.replay(record).game == state.game)
  }
}
