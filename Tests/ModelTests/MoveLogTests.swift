import Model
import Testing

/// The compact, capped log of a game's moves, and the record of the current deal built on it.
@Suite("MoveLog")
struct MoveLogTests {
  @Test("Every move that fits comes back as it went in, two bytes each")
  func roundTrip() {
    var moves: [Move] = []
    for seat in [0, 1, 7, 127] {
      moves += [0, 1, 80, 255].map { Move.choose(seat: seat, card: $0) }
      moves.append(.redeal(seat: seat))
    }
    let log = MoveLog(moves)
    #expect(Array(log) == moves)
    #expect(log.count == moves.count)
    #expect(log.byteCount == 2 * moves.count)
    #expect(!log.isTruncated)
    #expect(log.last == .redeal(seat: 127))
  }

  @Test(
    "A move two bytes cannot hold truncates the log",
    arguments: [
      Move.choose(seat: 128, card: 0), .choose(seat: 0, card: 256), .choose(seat: -1, card: 0),
      .choose(seat: 0, card: -1), .redeal(seat: 200),
    ])
  func movesThatDoNotFit(move: Move) {
    #expect(!MoveLog.fits(move))
    var log = MoveLog([.choose(seat: 0, card: 3)])
    log.append(move)
    #expect(log.isTruncated)
    #expect(Array(log) == [.choose(seat: 0, card: 3)])
    // Nothing is logged after a gap: the log is a prefix of the game.
    log.append(.choose(seat: 0, card: 4))
    #expect(log.count == 1)
  }

  @Test("The log stops at its cap and says it is truncated")
  func stopsAtTheCap() {
    var log = MoveLog(cap: 5)
    for card in 0..<5 { log.append(.choose(seat: 1, card: card)) }
    #expect(log.count == 5)
    #expect(!log.isTruncated)
    log.append(.choose(seat: 1, card: 5))
    #expect(log.count == 5)
    #expect(log.isTruncated)
    #expect(Array(log) == (0..<5).map { Move.choose(seat: 1, card: $0) })
  }

  @Test("10,000 toggles of one card leave the log at its cap")
  func togglingDoesNotGrowIt() {
    var log = MoveLog()
    for _ in 0..<10_000 { log.append(.choose(seat: 3, card: 17)) }
    #expect(log.count == MoveLog.defaultCap)
    #expect(log.byteCount == 2 * MoveLog.defaultCap)
    #expect(log.isTruncated)
  }

  @Test("A game log is a replayable record until it is truncated")
  func gameLogRecord() throws {
    var game = CardMatchingGame<SetCard>(settings: .set(), seed: 8)
    var log = GameLog(settings: .set(), seed: 8, cap: 6)
    let card = game.board[0].id
    for _ in 0..<6 {
      try game.apply(.choose(seat: 0, card: card))
      log.append(.choose(seat: 0, card: card))
    }
    let record = try #require(log.record)
    #expect(record == GameRecord(settings: .set(), seed: 8, moves: Array(log.moves)))
    #expect(try CardMatchingGame<SetCard>.replay(record).game == game)
    log.append(.choose(seat: 0, card: card))
    #expect(log.isTruncated)
    #expect(log.record == nil)
  }
}
