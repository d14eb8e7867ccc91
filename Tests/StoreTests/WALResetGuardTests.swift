import Foundation
import Lobby
import Testing

@testable import Store

/// SQLite before 3.51.3 can corrupt the database when a checkpoint starts on one connection
/// while another connection's commit starts the log again (its WAL-reset bug): the copy ahead
/// (``WALCheckpointer``) never checkpoints between a checkpoint that may have copied the whole
/// log and the writer's next commit.
@Suite struct WALResetGuardTests {
  /// A store copying ahead whose own copying thread never copies (its log stays far below the
  /// threshold): the tests take the copy's steps themselves.
  static func store() throws -> (SQLiteJournalStore, String) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("wal-reset-\(UUID().uuidString)").path
    let store = try SQLiteJournalStore(directory: folder, walCheckpointBytes: 256 << 20)
    try store.startCopyingAhead()
    try store.write([.table(JournalStoreTests.record("t1"))])
    return (store, folder)
  }

  static func move(_ index: Int) -> JournalEntry {
    .move(JournalStoreTests.move("t1", index, card: index % 81))
  }

  @Test func aCopyOfTheWholeLogWaitsForTheWritersNextCommit() throws {
    let (store, folder) = try Self.store()
    defer {
      store.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    for index in 0..<5 { try store.write([Self.move(index)]) }
    let first = store.checkpointer.copyAhead()
    guard case .copied(let frames, let copied) = first else {
      Issue.record("the first copy did not run: \(first)")
      return
    }
    #expect(frames > 0 && copied == frames)
    #expect(store.checkpointer.copyAheadWaitsForACommit)
    // The next commit may start the log again: no checkpoint until it has.
    #expect(store.checkpointer.copyAhead() == .waited)
    #expect(store.checkpointer.copyAhead() == .waited)
    try store.write([Self.move(5)])
    #expect(!store.checkpointer.copyAheadWaitsForACommit)
    // That commit started the log again: the copy finds only its pages.
    guard case .copied(let after, _) = store.checkpointer.copyAhead() else {
      Issue.record("the copy after the commit did not run")
      return
    }
    #expect(after > 0 && after < frames)
    #expect(try store.load().tables.first?.moves.count == 6)
  }

  @Test func theWritersCheckpointStopsTheCopyUntilItsNextCommit() throws {
    let (store, folder) = try Self.store()
    defer {
      store.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    try store.write([Self.move(0)])
    #expect(store.checkpointer.writerCheckpoints())
    #expect(store.checkpointer.copyAhead() == .waited)
    try store.write([Self.move(1)])
    #expect(store.checkpointer.copyAhead() != .waited)
  }

  /// While a copy is under way (it holds the gate), the writer does not wait for it: its
  /// checkpoint gives way, as when SQLite answers busy.
  @Test func theWriterNeverWaitsForACopyUnderWay() throws {
    let (store, folder) = try Self.store()
    defer {
      store.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    try store.write([Self.move(0)])
    let gaveWay = store.checkpointer.gate.withLock { _ in !store.checkpointer.writerCheckpoints() }
    #expect(gaveWay)
    #expect(!store.checkpointer.copyAheadWaitsForACommit)
    #expect(store.checkpointer.writerCheckpoints())
  }
}
