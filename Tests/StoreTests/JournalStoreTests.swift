import Foundation
import Lobby
import Model
import Store
import TestSupport
import Testing

/// The same checks for every store: what is written is read back, a new deal lets the old one's
/// moves go, a closed table and an ended session are not read back, and a store opened again
/// finds what the last one wrote. PostgreSQL runs in a cluster of the tests' own
/// (``PostgresCluster``), a fresh database per test.
@Suite struct JournalStoreTests {
  enum Kind: String, CaseIterable, Sendable { case memory, sqlite, postgres }

  /// A store of `kind` in a fresh folder or database, or in `place` (a folder, or a database's
  /// URL) as returned before, for reopening.
  static func make(_ kind: Kind, in place: String? = nil) throws -> (any JournalStore, String) {
    switch kind {
    case .memory: return (MemoryJournalStore(), "")
    case .sqlite:
      let folder =
        place
        ?? FileManager.default.temporaryDirectory
        .appendingPathComponent("journal-test-\(UUID().uuidString)").path
      return (try SQLiteJournalStore(directory: folder), folder)
    case .postgres:
      let location =
        try place.map(PostgresLocation.init(url:))
        ?? PostgresCluster.shared.get().newDatabase()
      return (
        try PostgresJournalStore(location: location, owner: "test", logger: PostgresCluster.quiet),
        "\(location)"
      )
    }
  }

  static func record(_ id: String, deal: Int = 1, seed: UInt64 = 0xFEED_FACE_CAFE_BEEF)
    -> TableRecord
  {
    TableRecord(
      id: id, game: "set", settings: .set(seats: 2), code: "ABCDEFGHJK", isPrivate: false,
      showSelections: false, turnSeconds: nil, phase: "playing", host: 0,
      seats: [SeatRecord(name: "Ada", token: "hash-ada"), nil], names: ["Ada", "Seat 2"],
      everSeated: [0], votes: [], version: 7, deal: deal, dealSeed: seed, creator: "hash-ada",
      solo: false)
  }

  static func move(_ table: String, deal: Int = 1, _ index: Int, card: Int) -> JournalMove {
    JournalMove(
      table: table, deal: deal, index: index, move: .choose(seat: 0, card: card),
      at: Double(index) + 0.5, version: 8 + index)
  }

  @Test(arguments: Kind.allCases)
  func whatIsWrittenIsReadBack(_ kind: Kind) throws {
    let (store, _) = try Self.make(kind)
    try store.write([
      .table(Self.record("t3")),
      .move(Self.move("t3", 0, card: 17)),
      .move(Self.move("t3", 1, card: 40)),
      .session(SessionRecord(token: "hash-ada", name: "Ada", tableID: "t3", seat: 0)),
      .session(SessionRecord(token: "hash-eve", name: "Eve", tableID: "t3", seat: nil)),
      .table(Self.record("t12")),
    ])
    try store.write([
      .move(JournalMove(table: "t12", deal: 1, index: 0, move: .pass(seat: 1), at: 2, version: 9))
    ])
    let contents = try store.load()
    #expect(contents.tables.map(\.record.id) == ["t3", "t12"])
    // A 64-bit seed comes back exact.
    #expect(contents.tables[0].record == Self.record("t3"))
    #expect(
      contents.tables[0].moves == [Self.move("t3", 0, card: 17), Self.move("t3", 1, card: 40)])
    #expect(contents.tables[1].moves.map(\.move) == [.pass(seat: 1)])
    #expect(contents.sessions.map(\.token) == ["hash-ada", "hash-eve"])
    #expect(contents.sessions[1].seat == nil && contents.sessions[1].tableID == "t3")
    // New tables are numbered after every number used (PostgreSQL: in a range of their own).
    #expect(contents.lastTableNumber >= 12)
    if kind != .postgres { #expect(contents.lastTableNumber == 12) }
  }

  @Test(arguments: Kind.allCases)
  func aNewDealClosedTablesAndEndedSessionsAreNotReadBack(_ kind: Kind) throws {
    let (store, _) = try Self.make(kind)
    try store.write([
      .table(Self.record("t1")), .move(Self.move("t1", 0, card: 1)),
      .table(Self.record("t2")), .move(Self.move("t2", 0, card: 2)),
      .session(SessionRecord(token: "a", name: "A", tableID: nil, seat: nil)),
      .session(SessionRecord(token: "b", name: "B", tableID: nil, seat: nil)),
    ])
    // t1 is dealt again: its first deal's moves go; one move of the new deal.
    try store.write([
      .table(Self.record("t1", deal: 2, seed: 5)), .move(Self.move("t1", deal: 2, 0, card: 9)),
      .tableClosed("t2"), .sessionEnded("a"),
    ])
    let contents = try store.load()
    #expect(contents.tables.map(\.record.id) == ["t1"])
    #expect(contents.tables[0].record.deal == 2)
    #expect(contents.tables[0].moves.map(\.move) == [.choose(seat: 0, card: 9)])
    #expect(contents.sessions.map(\.token) == ["b"])
    // Table numbers are never used twice, closed tables included.
    #expect(contents.lastTableNumber >= 2)
    if kind != .postgres { #expect(contents.lastTableNumber == 2) }
  }

  @Test(arguments: [Kind.sqlite, .postgres])
  func aReopenedStoreFindsWhatWasWritten(_ kind: Kind) throws {
    let (first, place) = try Self.make(kind)
    try first.write([
      .table(Self.record("t5")), .move(Self.move("t5", 0, card: 3)),
      .move(JournalMove(table: "t5", deal: 1, index: 1, move: .redeal(seat: 1), at: 4, version: 9)),
    ])
    let (second, _) = try Self.make(kind, in: place)
    let contents = try second.load()
    #expect(
      contents.tables.first?.moves.map(\.move) == [.choose(seat: 0, card: 3), .redeal(seat: 1)])
  }

  /// Random runs of entries over a few tables and sessions, written in random batches: the
  /// store reads back what the memory store does (whose meaning is the plainest).
  @Test(arguments: [Kind.sqlite, .postgres])
  func randomBatchesMeanWhatTheyMeanInMemory(_ kind: Kind) throws {
    let (store, _) = try Self.make(kind)
    let memory = MemoryJournalStore()
    var random = SeededGenerator(seed: 2024)
    var deals: [String: Int] = [:]
    var indexes: [String: Int] = [:]
    for _ in 0..<40 {
      var batch: [JournalEntry] = []
      for _ in 0..<random.below(12) {
        let table = "t\(random.below(4) + 1)"
        let token = "hash-\(random.below(5))"
        switch random.below(10) {
        case 0, 1:
          // A record, sometimes of a new deal.
          if random.below(3) == 0 { deals[table, default: 1] += 1 }
          indexes[table] = random.below(2) == 0 ? 0 : indexes[table]
          batch.append(
            .table(
              Self.record(
                table, deal: deals[table, default: 1], seed: UInt64(random.below(1000)))))
        case 2:
          batch.append(.tableClosed(table))
        case 3, 4:
          batch.append(
            .session(
              SessionRecord(
                token: token, name: "N\(random.below(9))",
                tableID: random.below(2) == 0 ? nil : table,
                seat: random.below(2) == 0 ? nil : random.below(4))))
        case 5:
          batch.append(.sessionEnded(token))
        default:
          // A move of the current deal, now and then one of an old deal or a repeated index.
          let deal = max(1, deals[table, default: 1] - (random.below(6) == 0 ? 1 : 0))
          let index = indexes[table, default: 0] - (random.below(8) == 0 ? 1 : 0)
          indexes[table] = index + 1
          batch.append(
            .move(
              JournalMove(
                table: table, deal: deal, index: max(0, index),
                move: [
                  Move.choose(seat: random.below(2), card: random.below(81)),
                  .pass(seat: random.below(2)), .redeal(seat: 0),
                ][random.below(3)], at: Double(random.below(1000)) / 8,
                version: random.below(500))))
        }
      }
      try store.write(batch)
      try memory.write(batch)
    }
    let expected = try memory.load()
    let contents = try store.load()
    #expect(contents.tables.map(\.record) == expected.tables.map(\.record))
    #expect(contents.tables.map(\.moves) == expected.tables.map(\.moves))
    #expect(contents.sessions == expected.sessions)
  }

  @Test func aFileThatIsNotAJournalIsRefusedAndLeftAlone() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("journal-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/journal.sqlite"
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    try garbage.write(to: URL(fileURLWithPath: path))
    #expect(throws: StoreError.self) { try SQLiteJournalStore(directory: folder) }
    // Nothing was written over it.
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
  }
}
