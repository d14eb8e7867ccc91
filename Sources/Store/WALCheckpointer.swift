import CSQLite
import Foundation
import Synchronization

/// Keeps an SQLite journal's write-ahead log under its bound (``WALCheckpoints`` decides when)
/// while moves are committed every few hundred microseconds, without holding them up for long.
///
/// A checkpoint that lets the log start again must copy the whole log into the database file
/// and `fsync` both, with nothing committed meanwhile: only the writer can do that, between two
/// commits, and the moves that come meanwhile wait for it. Measured at 5,000 moves/s, a whole
/// 16 MiB log took 10–25 ms, every 0.7 s: that was the p99. So the work is split:
/// - **Copying ahead** (a thread and a connection of its own, ``startCopyingAhead()``): once the
///   log holds three quarters of the threshold, a passive checkpoint copies what is there while
///   the writer goes on committing, and the database file is flushed to the disk (a passive
///   checkpoint that does not reach the log's end leaves that to the next one).
/// - **The writer's catch-up** (``upkeep(on:)``, between two commits): right after that, a
///   RESTART checkpoint copies only what was committed during the copy ahead (at most
///   ``WALCheckpoints/catchUpLimit`` pages) and waits for the disk once more, just after the
///   copy found it answering; the next commit starts the log again. When more than that came
///   meanwhile (a slow copy: a disk that pauses), the copy goes again rather than the writer.
/// Without the copying thread (tests) the writer checkpoints alone at the threshold; with it,
/// only should the copy fall behind by a quarter of the threshold more (``WALCheckpoints``),
/// which keeps the bound all the same.
///
/// **SQLite's WAL-reset bug.** SQLite before 3.51.3 (Debian bookworm has 3.40.1) can corrupt
/// the database when a checkpoint on one connection starts while another connection's commit
/// starts the log again after a complete checkpoint (sqlite.org/wal.html#walresetbug): found
/// here by `WALBoundTests`, a b-tree page's row ids out of order after 80,000 commits with the
/// copy ahead running. A log starts again only at the writer's first commit after a checkpoint
/// that copied the whole log, or in a `TRUNCATE` checkpoint. So the copy ahead never checkpoints
/// from the moment a checkpoint may have copied the whole log until the writer's next commit
/// (``resetMayFollow``, set under ``gate``, which the copy holds while it checkpoints); the
/// writer's own checkpoints set it first. ``copyAhead()`` is the copying thread's one step.
final class WALCheckpointer: @unchecked Sendable {
  /// The longest the writer's checkpoint waits for a reader (a question about finished games)
  /// to leave the log, in seconds; then it is tried again once the log has grown a little more.
  static let readerWait = 0.1
  /// How often the copying thread looks at the log's length, in seconds.
  static let lookEvery = 0.02

  let pageSize: Int
  /// The log's length in pages after the latest commit (`sqlite3_wal_hook`, on the writer's
  /// thread), read by the copying thread.
  private let walPages = Atomic<Int>(0)
  /// The log's length in pages when the copying thread last copied it ahead, 0 when it has
  /// not since the writer's latest catch-up. A log shorter than that started again since (the
  /// copy reached its end, so the next commit restarted it): that copy is spent.
  private let copiedAt = Atomic<Int>(0)
  private let stopping = Atomic<Bool>(false)
  /// Whether the copying thread is copying now (the writer does not catch up meanwhile: it
  /// would wait for the copy's lock).
  private let copying = Atomic<Bool>(false)
  /// The log's length, in pages, that the latest copy ahead found (0: none yet; -1: it found
  /// no log, so copied nothing). For the tests.
  private let logCopiedAhead = Atomic<Int>(0)
  /// Whether the writer's next commit may start the log again: a checkpoint may have copied
  /// all of it. Set under ``gate`` (by the copy ahead after a checkpoint that copied the whole
  /// log, by the writer before a checkpoint of its own); cleared after the writer's next commit
  /// (`sqlite3_wal_hook`). The copy ahead does not checkpoint while it is set.
  private let resetMayFollow = Atomic<Bool>(false)
  /// Held by the copy ahead for the whole of its checkpoint, and by the writer to set
  /// ``resetMayFollow``: once the writer has set it, no copy is under way or starts. The
  /// writer never waits for it (``writerCheckpoints()``).
  let gate = Mutex(())
  /// When the writer checkpoints next (writer's thread only).
  private var checkpoints: WALCheckpoints
  /// The copying thread's connection, made when it starts.
  private var copier: SQLiteConnection?
  private let path: String

  /// A checkpointer for the database at `path`, checkpointing at `thresholdBytes` of log.
  init(path: String, pageSize: Int, thresholdBytes: Int) {
    self.path = path
    self.pageSize = pageSize
    checkpoints = WALCheckpoints(threshold: max(1, thresholdBytes / pageSize))
  }

  /// Listens to the writer's connection for the log's length after each commit (replacing
  /// SQLite's own checkpoints, which the connection has off).
  func listen(to database: SQLiteConnection) {
    let context = Unmanaged.passUnretained(self).toOpaque()
    database.withLock { db in
      _ = sqlite3_wal_hook(
        db.handle,
        { context, _, _, pages in
          Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue()
            .committed(walPages: Int(pages))
          return SQLITE_OK
        }, context)
    }
  }

  /// After each commit of the writer (on its thread): the log's length, and no reset of the
  /// log can follow any more (it happened in this commit, or the commit added to the log).
  private func committed(walPages pages: Int) {
    walPages.store(pages, ordering: .relaxed)
    if resetMayFollow.load(ordering: .acquiring) {
      resetMayFollow.store(false, ordering: .releasing)
    }
  }

  /// Whether the copy ahead waits for the writer's next commit (for the tests).
  var copyAheadWaitsForACommit: Bool { resetMayFollow.load(ordering: .acquiring) }

  /// The log's length, in pages, that the latest copy ahead found: 0 before the first, -1
  /// when it found no log (a connection that has not read the database yet sees none).
  var pagesCopiedAhead: Int { logCopiedAhead.load(ordering: .relaxed) }

  /// The log's length after the latest commit, in bytes.
  var logBytes: Int { walPages.load(ordering: .relaxed) * pageSize }

  /// Starts the thread that copies the log ahead of the writer's checkpoints, for as long as
  /// the store is open.
  func startCopyingAhead() throws {
    let copier = try SQLiteConnection(path: path)
    // A connection finds the log only when it first reads the database: until then its
    // checkpoints see no log and copy nothing (they answer -1 frames).
    try copier.openLog()
    self.copier = copier
    checkpoints.copiesAhead()
    let aheadAt = checkpoints.aheadAt
    let catchUpLimit = checkpoints.catchUpLimit
    let thread = Thread(named: "journal-copy-ahead") { [self] in
      while !stopping.load(ordering: .relaxed) {
        Thread.sleep(forTimeInterval: Self.lookEvery)
        let pages = walPages.load(ordering: .relaxed)
        let copied = copiedAt.load(ordering: .acquiring)
        // Once per log, and again while the writer leaves too much to catch up.
        guard pages >= aheadAt, copied == 0 || pages < copied || pages - copied > catchUpLimit
        else { continue }
        copying.store(true, ordering: .relaxed)
        // A copy that waits for the writer's commit is tried again at the next look.
        if copyAhead() != .waited { copiedAt.store(pages, ordering: .releasing) }
        copying.store(false, ordering: .releasing)
      }
    }
    thread.start()
  }

  /// What one ``copyAhead()`` did.
  enum CopyAhead: Equatable {
    /// Nothing: the writer's next commit may start the log again (see the type's note).
    case waited
    /// The checkpoint failed (busy: the writer checkpoints now; its own checkpoint copes).
    case failed
    /// The log's length and the pages copied.
    case copied(walFrames: Int, copied: Int)
  }

  /// One copy ahead: a passive checkpoint on the copying connection, then the database file
  /// flushed. The copying thread's step; tests call it directly.
  @discardableResult
  func copyAhead() -> CopyAhead {
    guard let copier else { return .failed }
    return gate.withLock { _ in
      guard !resetMayFollow.load(ordering: .acquiring) else { return .waited }
      let copy = try? copier.withLock { db in
        let result = try db.checkpoint(SQLITE_CHECKPOINT_PASSIVE)
        Self.syncDatabaseFile(of: db)
        return result
      }
      guard let copy else { return .failed }
      logCopiedAhead.store(copy.walFrames, ordering: .relaxed)
      // The whole log copied: the writer's next commit may start it again.
      if copy.walFrames > 0 && copy.copied >= copy.walFrames {
        resetMayFollow.store(true, ordering: .releasing)
      }
      return .copied(walFrames: copy.walFrames, copied: copy.copied)
    }
  }

  /// Before a checkpoint of the writer's (on its thread): true when no copy ahead is under way,
  /// and then none starts until the writer's next commit; false while one is (the writer does
  /// not checkpoint then, as when SQLite answered it busy: a copy on a slow disk holds up the
  /// copy, not the moves).
  func writerCheckpoints() -> Bool {
    gate.withLockIfAvailable { _ in resetMayFollow.store(true, ordering: .releasing) } != nil
  }

  /// Flushes the database file to the disk through `db`'s own file handle (SQLite's `xSync`).
  /// A passive checkpoint that does not reach the log's end (the writer committed meanwhile)
  /// copies its pages without flushing them: left so, the writer's catch-up flushed a whole
  /// log's worth of pages while moves waited. Failing only costs the catch-up that time.
  private static func syncDatabaseFile(of db: SQLiteConnection) {
    var file: UnsafeMutablePointer<sqlite3_file>?
    guard
      sqlite3_file_control(db.handle, "main", SQLITE_FCNTL_FILE_POINTER, &file)
        == SQLITE_OK,
      let file, let sync = file.pointee.pMethods?.pointee.xSync
    else { return }
    _ = sync(file, SQLITE_SYNC_NORMAL)
  }

  /// Between two commits, on the writer's thread: checkpoints `database` (the writer's
  /// connection) if it is due, returning whether it did.
  func upkeep(on database: SQLiteConnection) throws -> Bool {
    let pages = walPages.load(ordering: .relaxed)
    let copiedAtPages = copiedAt.load(ordering: .acquiring)
    let uncopied =
      copiedAtPages > 0 && pages >= copiedAtPages && !copying.load(ordering: .acquiring)
      ? pages - copiedAtPages : nil
    guard checkpoints.due(walPages: pages, uncopied: uncopied) else { return false }
    defer { copiedAt.store(0, ordering: .releasing) }
    guard writerCheckpoints() else {
      checkpoints.failed(walPages: pages)
      return true
    }
    do {
      let (frames, copied) = try database.withLock {
        try $0.checkpoint(SQLITE_CHECKPOINT_RESTART)
      }
      checkpoints.checkpointed(walPages: frames, copied: copied)
    } catch let error as SQLiteError where error.resultCode == SQLITE_BUSY {
      // A reader stayed in the log: the next try comes once the log has grown a little more.
      checkpoints.failed(walPages: pages)
    } catch {
      checkpoints.failed(walPages: pages)
      throw StoreError("checkpoint of \(path)-wal failed: \(error)")
    }
    return true
  }

  /// Stops the copying thread (it ends within ``lookEvery`` or its copy in progress).
  func stop() {
    stopping.store(true, ordering: .relaxed)
  }
}
