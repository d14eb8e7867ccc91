import Foundation
import Lobby
import Model
import Protocol
import Testing

@testable import Store

/// The embedded journal's recent moves: few whatever is played, and nothing of a table's current
/// deal lost when the oldest settle, in the file that is open and in the file opened again.
@Suite struct RecentMovesTests {
  typealias Tests = JournalStoreTests

  /// A store whose recent moves settle past `rows` rows.
  static func store(rows: Int, in folder: String? = nil) throws -> (SQLiteJournalStore, String) {
    let folder =
      folder
      ?? FileManager.default.temporaryDirectory
      .appendingPathComponent("recent-moves-\(UUID().uuidString)").path
    return (try SQLiteJournalStore(directory: folder, recentMoveRows: rows), folder)
  }

  /// Three tables played in turns, a commit at a time with the upkeep after each (as the writer
  /// runs it): t1 one long deal, t2 dealt again every 7 moves, t3 closed half way. The recent
  /// moves stay at their bound, and what is loaded is every move of each open table's current deal.
  @Test func theRecentMovesStayFewAndNoMoveOfACurrentDealIsLost() throws {
    let bound = 16
    let (store, folder) = try Self.store(rows: bound)
    try store.write([
      .table(Tests.record("t1")), .table(Tests.record("t2")), .table(Tests.record("t3")),
    ])
    var t1: [JournalMove] = []
    var t2: [JournalMove] = []
    var t2Deal = 1
    var longest = 0
    for step in 0..<200 {
      var batch: [JournalEntry] = []
      let move1 = Tests.move("t1", t1.count, card: step % 81)
      t1.append(move1)
      batch.append(.move(move1))
      if t2.count == 7 {
        t2Deal += 1
        t2 = []
        batch.append(.table(Tests.record("t2", deal: t2Deal)))
      }
      let move2 = Tests.move("t2", deal: t2Deal, t2.count, card: (step + 1) % 81)
      t2.append(move2)
      batch.append(.move(move2))
      if step < 100 { batch.append(.move(Tests.move("t3", step, card: 2))) }
      if step == 100 { batch.append(.tableClosed("t3")) }
      try store.write(batch)
      _ = try store.upkeep()
      longest = max(longest, try store.recentMoveRowCount())
    }
    // The bound and one commit's rows beyond it, never more.
    #expect(longest <= bound + 3)
    #expect(longest > bound / 2)
    // Every move of t1's one deal, from `move` and `recent_move` together, in order.
    let loaded = try store.load()
    #expect(loaded.tables.map(\.record.id) == ["t1", "t2"])
    #expect(loaded.tables[0].moves == t1)
    #expect(loaded.tables[1].moves == t2)
    // Nothing is kept of t2's earlier deals or of t3.
    #expect(try store.rowCounts().moves == t1.count + t2.count)
    // The file opened again reads the same.
    store.close()
    let (reopened, _) = try Self.store(rows: bound, in: folder)
    let again = try reopened.load()
    #expect(again.tables.map(\.record.id) == ["t1", "t2"])
    #expect(again.tables[0].moves == t1)
    #expect(again.tables[1].moves == t2)
  }

  /// Past the bound, an upkeep settles a 256th of the bound at once, not more: every move that
  /// comes meanwhile waits for it.
  @Test func aSettlingTakesASmallPartOfTheRows() throws {
    let bound = 1_024
    let (store, _) = try Self.store(rows: bound)
    #expect(store.recentMoveChunk == 4)
    try store.write([.table(Tests.record("t1"))])
    try store.write((0...bound).map { .move(Tests.move("t1", $0, card: $0 % 81)) })
    _ = try store.upkeep()
    #expect(try store.recentMoveRowCount() == bound + 1 - 4)
    // Under the bound again: nothing settles.
    try store.write([.move(Tests.move("t1", bound + 1, card: 1))])
    _ = try store.upkeep()
    #expect(try store.recentMoveRowCount() == bound + 2 - 4)
    #expect(try store.load().tables.first?.moves.count == bound + 2)
  }

  /// A move written again (the same deal and index) reads as its latest write, whether the
  /// earlier one has settled into `move` or is still recent.
  @Test func aMoveWrittenAgainReadsAsItsLatestWrite() throws {
    let (store, _) = try Self.store(rows: 4)
    try store.write([.table(Tests.record("t1"))])
    for index in 0..<10 {
      try store.write([.move(Tests.move("t1", index, card: 1))])
      _ = try store.upkeep()
    }
    // Index 2 has long settled into `move`, index 9 is recent.
    try store.write([.move(Tests.move("t1", 2, card: 40)), .move(Tests.move("t1", 9, card: 41))])
    try store.write([.move(Tests.move("t1", 9, card: 42))])
    var expected = (0..<10).map { Tests.move("t1", $0, card: 1) }
    expected[2] = Tests.move("t1", 2, card: 40)
    expected[9] = Tests.move("t1", 9, card: 42)
    #expect(try store.load().tables.first?.moves == expected)
    for _ in 0..<10 { _ = try store.upkeep() }
    for index in 10..<20 {
      try store.write([.move(Tests.move("t1", index, card: 3))])
      _ = try store.upkeep()
    }
    #expect(try store.recentMoveRowCount() <= 5)
    expected += (10..<20).map { Tests.move("t1", $0, card: 3) }
    #expect(try store.load().tables.first?.moves == expected)
  }

  /// A game longer than its table keeps in memory takes every move of its deal from `move`
  /// and `recent_move` together.
  @Test func aGameKeptFromTheJournalTakesItsMovesFromBoth() throws {
    let (store, _) = try Self.store(rows: 8)
    try store.write([.table(Tests.record("t1"))])
    for index in 0..<30 {
      try store.write([.move(Tests.move("t1", index, card: index))])
      _ = try store.upkeep()
    }
    #expect(try store.recentMoveRowCount() < 30)
    var game = ClosedTablesAndRetentionTests.game(endedAt: 7, source: "t1#1")
    game.moves = []
    try store.write([.finishedInJournal(game, table: "t1", deal: 1)])
    let kept = try #require(try store.finishedGame(id: "g1"))
    #expect(
      kept.moves
        == (0..<30).map {
          let move = Tests.move("t1", $0, card: $0)
          return FinishedMove(move.move, at: move.at)
        })
  }
}
