import Foundation
import Lobby
import Model
import Store
import Testing

/// The same checks for every store: what is written is read back, a new deal lets the old one's
/// moves go, a closed table and an ended session are not read back, and a store opened again
/// finds what the last one wrote.
@Suite struct JournalStoreTests {
  enum Kind: String, CaseIterable, Sendable { case memory, sqlite }

  /// A store of `kind` in a fresh folder (returned, for reopening).
  static func make(_ kind: Kind, in folder: String? = nil) throws -> (any JournalStore, String) {
    let folder =
      folder
      ?? FileManager.default.temporaryDirectory
      .appendingPathComponent("journal-test-\(UUID().uuidString)").path
    switch kind {
    case .memory: return (MemoryJournalStore(), folder)
    case .sqlite: return (try SQLiteJournalStore(directory: folder), folder)
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
    #expect(contents.lastTableNumber == 12)
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
    #expect(contents.lastTableNumber == 2)
  }

  @Test func aReopenedFileFindsWhatWasWritten() throws {
    let (first, folder) = try Self.make(.sqlite)
    try first.write([.table(Self.record("t5")), .move(Self.move("t5", 0, card: 3))])
    let (second, _) = try Self.make(.sqlite, in: folder)
    let contents = try second.load()
    #expect(contents.tables.first?.moves.map(\.move) == [.choose(seat: 0, card: 3)])
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
