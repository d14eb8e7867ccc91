import Foundation
import Lobby
import Model
import Protocol
import Testing

@testable import Store

/// What a store lets go of: a closed table's row and moves (its number stays used), finished
/// games older than the days kept (a batch at a time, their ids never given again), and what a
/// game longer than a table's move log needs from the journal to be kept whole.
@Suite struct ClosedTablesAndRetentionTests {
  typealias Kind = JournalStoreTests.Kind

  /// How many table and move rows `store` holds.
  static func rows(_ store: any JournalStore) throws -> (tables: Int, moves: Int) {
    switch store {
    case let store as MemoryJournalStore: store.rowCounts()
    case let store as SQLiteJournalStore: try store.rowCounts()
    case let store as PostgresJournalStore: try store.rowCounts()
    default: (-1, -1)
    }
  }

  /// A table dealt again keeps only the new deal's moves; another table's stay.
  @Test(arguments: Kind.allCases)
  func aNewDealLeavesOnlyItsOwnMovesStored(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    try store.write([
      .table(JournalStoreTests.record("t1")), .move(JournalStoreTests.move("t1", 0, card: 1)),
      .move(JournalStoreTests.move("t1", 1, card: 2)),
      .table(JournalStoreTests.record("t2")), .move(JournalStoreTests.move("t2", 0, card: 3)),
    ])
    try store.write([
      .table(JournalStoreTests.record("t1", deal: 2)),
      .move(JournalStoreTests.move("t1", deal: 2, 0, card: 5)),
    ])
    #expect(try Self.rows(store).moves == 2)
    try store.write([.table(JournalStoreTests.record("t2", deal: 4))])
    #expect(try Self.rows(store).moves == 1)
  }

  @Test(arguments: Kind.allCases)
  func aClosedTableLeavesNoRowsAndItsNumberIsNotUsedAgain(_ kind: Kind) throws {
    let (store, place) = try JournalStoreTests.make(kind)
    try store.write([
      .table(JournalStoreTests.record("t4")), .move(JournalStoreTests.move("t4", 0, card: 1)),
      .table(JournalStoreTests.record("t9")), .move(JournalStoreTests.move("t9", 0, card: 2)),
    ])
    // t9 closes in a batch of its own; t4 in the batch that writes its record again.
    try store.write([.tableClosed("t9")])
    try store.write([
      .table(JournalStoreTests.record("t4", deal: 2)),
      .move(JournalStoreTests.move("t4", deal: 2, 0, card: 5)), .tableClosed("t4"),
    ])
    let counts = try Self.rows(store)
    #expect(counts.tables == 0 && counts.moves == 0)
    #expect(try store.load().tables.isEmpty)
    // The highest number used is remembered without its row, in a reopened file too.
    #expect(try store.load().lastTableNumber >= 9)
    if kind == .sqlite {
      let (reopened, _) = try JournalStoreTests.make(kind, in: place)
      #expect(try reopened.load().lastTableNumber == 9)
    }
    // A table opened again after its close is a row again.
    try store.write([.table(JournalStoreTests.record("t4", deal: 3))])
    #expect(try Self.rows(store).tables == 1)
  }

  @Test func aVersionTwoJournalLosesItsClosedTablesButNotTheirNumbers() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("journal-v2-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let queue = try SQLiteConnection(path: folder + "/journal.sqlite")
    try SQLiteJournalStore.migrate(queue, upTo: "v2: finished games, players")
    let open = String(
      decoding: try JSONEncoder().encode(JournalStoreTests.record("t3")), as: UTF8.self)
    try queue.transaction { db in
      try db.run(
        "INSERT INTO game_table VALUES ('t3', 3, 1, 1, ?), ('t40', 40, 0, 1, '{}')", [.text(open)])
      try db.execute(
        "INSERT INTO move VALUES ('t3', 1, 0, 0, 0, 7, 0.5, 8), ('t40', 1, 0, 0, 0, 7, 0.5, 8)")
    }
    queue.close()
    let store = try SQLiteJournalStore(directory: folder)
    let contents = try store.load()
    #expect(contents.tables.map(\.record.id) == ["t3"])
    #expect(contents.lastTableNumber == 40)
    let counts = try store.rowCounts()
    #expect(counts.tables == 1 && counts.moves == 1)
  }

  /// A finished game of `source`, ended at `endedAt`, played by `player`.
  static func game(endedAt: Double, source: String, player: String? = "pa") -> FinishedGame {
    FinishedGameTests.game(
      score: 1, seconds: 10, endedAt: endedAt, player: player, source: source)
  }

  @Test(arguments: Kind.allCases)
  func oldFinishedGamesAreRemovedInBatchesOldestFirst(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    // Written out of order of their ends: g1 ended at 5000, g2 at 1000, …
    let ends: [Double] = [5000, 1000, 4000, 2000, 3000]
    for (index, end) in ends.enumerated() {
      try store.write([.finished(Self.game(endedAt: end, source: "t\(index)#1"))])
    }
    #expect(try store.removeFinishedGames(endedBefore: 3500, limit: 2) == 2)
    // The oldest two went first (g2 at 1000, g4 at 2000).
    #expect(try store.finishedGame(id: "g2") == nil)
    #expect(try store.finishedGame(id: "g4") == nil)
    #expect(try store.finishedGame(id: "g5") != nil)
    #expect(try store.removeFinishedGames(endedBefore: 3500, limit: 2) == 1)
    #expect(try store.removeFinishedGames(endedBefore: 3500, limit: 2) == 0)
    let left = try store.scores(ScoresQuery(game: "set", pageSize: 50))
    #expect(left.total == 2)
    #expect(Set(left.games.map(\.id)) == ["g1", "g3"])
    // The players' rows went with their games.
    let mine = try store.scores(ScoresQuery(game: "set", mine: true, player: "pa"))
    #expect(mine.total == 2)
    // Ids are never given again.
    try store.write([.finished(Self.game(endedAt: 6000, source: "t9#1"))])
    #expect(try store.finishedGame(id: "g6")?.endedAt == 6000)
    #expect(try store.scores(ScoresQuery(game: "set")).total == 3)
  }

  @Test(arguments: Kind.allCases)
  func aGameKeptFromTheJournalHasEveryMoveOfItsDeal(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    func move(_ index: Int, deal: Int = 2) -> JournalMove {
      JournalMove(
        table: "t1", deal: deal, index: index, move: .choose(seat: index % 2, card: index % 81),
        at: Double(index) / 4, version: index + 1)
    }
    // The first deal's moves, then a new deal with 3,000 moves over a few batches.
    try store.write(
      [.table(JournalStoreTests.record("t1"))] + (0..<10).map { .move(move($0, deal: 1)) })
    try store.write([.table(JournalStoreTests.record("t1", deal: 2))])
    for start in stride(from: 0, to: 3_000, by: 500) {
      try store.write((start..<start + 500).map { .move(move($0)) })
    }
    // The batch with the last moves keeps the game, and closes the table after it.
    var game = Self.game(endedAt: 7, source: "t1#2")
    game.moves = []
    try store.write(
      (3_000..<3_005).map { .move(move($0)) } + [
        .finishedInJournal(game, table: "t1", deal: 2), .tableClosed("t1"),
      ])
    let kept = try #require(try store.finishedGame(id: "g1"))
    #expect(kept.moves.count == 3_005)
    #expect(kept.moves == (0..<3_005).map { FinishedMove(move($0).move, at: move($0).at) })
    #expect(try Self.rows(store).moves == 0)
  }
}
