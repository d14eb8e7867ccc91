import Foundation
import Lobby
import Model
import Protocol
import Synchronization
import Testing

@testable import Store

/// The SQLite journal's write-ahead log stays under its bound whatever the commit rate: the
/// writer checkpoints it between commits (``WALCheckpoints``) and the next commit starts it
/// again.
@Suite struct WALBoundTests {
  /// The bound README gives for the log's file.
  static let bound = 64 << 20

  @Test func aCheckpointIsDueAtTheThresholdAndAfterAPartialOneOnlyOnceTheLogGrewMore() {
    var checkpoints = WALCheckpoints(threshold: 1000)
    #expect(!checkpoints.due(walPages: 999))
    #expect(checkpoints.due(walPages: 1000))
    // Everything copied: the log starts again, due at the threshold.
    checkpoints.checkpointed(walPages: 1003, copied: 1003)
    #expect(checkpoints.dueAt == 1000)
    // A reader kept part of the log: not again after every commit, but a quarter later.
    checkpoints.checkpointed(walPages: 1003, copied: 700)
    #expect(!checkpoints.due(walPages: 1004))
    #expect(!checkpoints.due(walPages: 1252))
    #expect(checkpoints.due(walPages: 1253))
    checkpoints.failed(walPages: 1300)
    #expect(checkpoints.dueAt == 1550)
    checkpoints.checkpointed(walPages: 1600, copied: 1600)
    #expect(checkpoints.dueAt == 1000)
    // Copied ahead by another thread: due from three quarters of the threshold on, once the
    // copy has ended.
    #expect(checkpoints.aheadAt == 750)
    #expect(!checkpoints.due(walPages: 749, uncopied: 0))
    #expect(checkpoints.due(walPages: 750, uncopied: 0))
    #expect(!checkpoints.due(walPages: 750, uncopied: nil))
  }

  /// With a thread copying the log ahead, the writer catches up only right after a copy that
  /// left little to copy; a slow copy (a disk that pauses) is not taken over while the log has
  /// room, until a quarter past the threshold.
  @Test func withACopyAheadTheWriterWaitsForItWhileTheLogHasRoom() {
    var checkpoints = WALCheckpoints(threshold: 1024)
    checkpoints.copiesAhead()
    #expect(checkpoints.aheadAt == 768 && checkpoints.catchUpLimit == 32)
    #expect(checkpoints.aloneAt == 1280 && checkpoints.dueAt == 1280)
    // The copy is under way (or none ended): past the threshold, the writer goes on.
    #expect(!checkpoints.due(walPages: 1024, uncopied: nil))
    #expect(!checkpoints.due(walPages: 1279, uncopied: nil))
    // A copy ended; what came since is little: the writer catches up.
    #expect(checkpoints.due(walPages: 800, uncopied: 32))
    // Too much came during a slow copy: the copy goes again first.
    #expect(!checkpoints.due(walPages: 1100, uncopied: 33))
    // The room is spent: the writer checkpoints alone, whatever the copy does.
    #expect(checkpoints.due(walPages: 1280, uncopied: nil))
    checkpoints.checkpointed(walPages: 1281, copied: 1281)
    #expect(checkpoints.dueAt == 1280)
    checkpoints.checkpointed(walPages: 1281, copied: 900)
    #expect(checkpoints.dueAt == 1281 + 256)
  }

  private static func folder() -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("wal-test-\(UUID().uuidString)").path
  }

  /// The page size of the journal file in `folder`.
  private static func pageSize(in folder: String) throws -> Int? {
    try SQLiteConnection(path: folder + "/journal.sqlite", readonly: true)
      .withLock { try $0.value("PRAGMA page_size") }
  }

  /// A commit puts whole pages in the log: a new journal's are 1 KiB, a quarter of SQLite's
  /// default, so a move costs the disk about a quarter of the bytes. A file made with another
  /// page size keeps it, and works as before.
  @Test func aNewJournalHasSmallPagesAndAnOlderFileKeepsItsOwn() throws {
    let fresh = Self.folder()
    defer { try? FileManager.default.removeItem(atPath: fresh) }
    do {
      let store = try SQLiteJournalStore(directory: fresh)
      try store.write([.table(JournalStoreTests.record("t1"))])
      store.close()
    }
    #expect(try Self.pageSize(in: fresh) == SQLiteJournalStore.pageSize)
    #expect(SQLiteJournalStore.pageSize == 1024)

    let older = Self.folder()
    defer { try? FileManager.default.removeItem(atPath: older) }
    try FileManager.default.createDirectory(atPath: older, withIntermediateDirectories: true)
    try SQLiteConnection(path: older + "/journal.sqlite").execute(
      "PRAGMA page_size = 4096; PRAGMA user_version = 0; VACUUM")
    #expect(try Self.pageSize(in: older) == 4096)
    do {
      let store = try SQLiteJournalStore(directory: older)
      try store.write([
        .table(JournalStoreTests.record("t1")), .move(JournalStoreTests.move("t1", 0, card: 5)),
      ])
      store.close()
    }
    let reopened = try SQLiteJournalStore(directory: older)
    defer { reopened.close() }
    let contents = try reopened.load()
    #expect(contents.tables.map(\.0.id) == ["t1"])
    #expect(contents.tables.first?.1.map(\.index) == [0])
    #expect(try Self.pageSize(in: older) == 4096)
  }

  /// 250 tables' moves, one move per commit as an idle writer commits them, with the writer's
  /// upkeep after each; a reader asks for high scores all along on another thread. The log's
  /// file is looked at every 100 commits. With the log copied ahead on another thread (as the
  /// server runs) and without (the writer alone).
  @Test(arguments: [true, false])
  func sustainedCommitsKeepTheLogUnderItsBound(copyingAhead: Bool) throws {
    let directory = Self.folder()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try SQLiteJournalStore(directory: directory)
    if copyingAhead { try store.startCopyingAhead() }
    defer { store.close() }
    let tables = (0..<250).map { "t\($0 + 1)" }
    try store.write(tables.map { .table(JournalStoreTests.record($0)) })
    let stop = Atomic<Bool>(false)
    let reads = Atomic<Int>(0)
    let reader = Thread {
      while !stop.load(ordering: .relaxed) {
        _ = try? store.scores(ScoresQuery(game: "set"))
        reads.add(1, ordering: .relaxed)
      }
    }
    reader.start()
    defer { stop.store(true, ordering: .relaxed) }

    let commits = 80_000
    var largest = 0
    var checkpoints = 0
    for index in 0..<commits {
      let table = tables[index % tables.count]
      try store.write([
        .move(JournalStoreTests.move(table, index / tables.count, card: index % 81))
      ])
      if try store.upkeep().checkpointed { checkpoints += 1 }
      if index % 100 == 0 { largest = max(largest, store.walFileBytes) }
    }
    largest = max(largest, store.walFileBytes)
    stop.store(true, ordering: .relaxed)
    // Every commit appends at least one 4 KiB page: far more went through the log than the
    // bound, which holds all the same.
    #expect(commits * 4096 > 3 * Self.bound)
    #expect(largest <= Self.bound, "the log reached \(largest) bytes")
    #expect(checkpoints >= 3)
    #expect(reads.load(ordering: .relaxed) > 0)
    // Nothing was lost on the way.
    let contents = try SQLiteJournalStore(directory: directory).load()
    #expect(contents.tables.map(\.moves.count).reduce(0, +) == commits)
  }

  /// The copy ahead copies the log the writer wrote: its connection, which has written
  /// nothing and read nothing, must find the log first (until it reads the database once, a
  /// connection sees none, and its checkpoints copy nothing: the writer's catch-up then copied
  /// and flushed the whole log while every move waited, 0.1 s on this machine's disk).
  @Test func theCopyAheadFindsTheLogAndCopiesIt() throws {
    let directory = Self.folder()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let threshold = 256 << 10
    let store = try SQLiteJournalStore(directory: directory, walCheckpointBytes: threshold)
    defer { store.close() }
    try store.startCopyingAhead()
    try store.write([.table(JournalStoreTests.record("t1"))])
    let aheadAt = WALCheckpoints(threshold: threshold / SQLiteJournalStore.pageSize).aheadAt
    var index = 0
    var logBytes = 0
    while logBytes < aheadAt * SQLiteJournalStore.pageSize {
      try store.write([.move(JournalStoreTests.move("t1", index, card: index % 81))])
      logBytes = try store.upkeep().logBytes ?? 0
      index += 1
    }
    // The copying thread looks every 20 ms: wait for its copy (60 s at most).
    let deadline = Date(timeIntervalSinceNow: 60)
    while store.pagesCopiedAhead == 0 && Date() < deadline { usleep(5_000) }
    #expect(
      store.pagesCopiedAhead >= aheadAt, "the copy ahead found \(store.pagesCopiedAhead) pages")
  }

  @Test func aReaderThatKeepsTheLogDelaysItsStartOnlyWhileItReads() throws {
    let directory = Self.folder()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let threshold = 64 << 10
    let store = try SQLiteJournalStore(directory: directory, walCheckpointBytes: threshold)
    try store.write([.table(JournalStoreTests.record("t1"))])
    var index = 0
    func commit(_ count: Int) throws {
      for _ in 0..<count {
        try store.write([.move(JournalStoreTests.move("t1", index, card: index % 81))])
        _ = try store.upkeep()
        index += 1
      }
    }
    // A reader inside a read transaction keeps the log from starting again…
    let other = try SQLiteConnection(path: store.path)
    let reading = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      _ = try? other.transaction { db in
        _ = try db.value("SELECT count(*) FROM move") as Int?
        reading.signal()
        done.wait()
      }
    }
    reading.wait()
    try commit(60)
    let whileRead = store.walFileBytes
    #expect(whileRead > threshold)
    // …and once it is done, the next checkpoint starts it again and the file is cut back.
    done.signal()
    try commit(200)
    #expect(store.walFileBytes <= threshold + 8 * 4096, "\(store.walFileBytes) bytes")
    #expect(try store.load().tables.first?.moves.count == 260)
  }

  @Test func aCleanCloseLeavesNoLog() throws {
    let directory = Self.folder()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try SQLiteJournalStore(directory: directory)
    try store.write([.table(JournalStoreTests.record("t1"))])
    #expect(store.walFileBytes > 0)
    store.close()
    #expect(store.walFileBytes == 0)
    #expect(try SQLiteJournalStore(directory: directory).load().tables.count == 1)
  }
}
