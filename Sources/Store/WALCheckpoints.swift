/// When the journal's writer checkpoints SQLite's write-ahead log, so that the log's file stays
/// under a bound whatever the move rate: a pure value that ``SQLiteJournalStore`` runs after
/// every commit, and that tests drive directly.
///
/// SQLite appends every commit to the WAL and starts it again from the beginning only when a
/// write finds the whole log copied into the database file (checkpointed) and no reader in it.
/// A checkpoint on another connection never finds that under commits every few hundred
/// microseconds: the log is always ahead of it (it grew by gigabytes). So the writer itself
/// checkpoints between two of its commits, once the log holds ``threshold`` pages: nothing is
/// written meanwhile, the checkpoint copies everything, and the next commit starts the log
/// again (`journal_size_limit` cuts the file back to the threshold's size). The file is then
/// never longer than the threshold plus one batch.
///
/// When another thread has just copied the log ahead (``WALCheckpointer``, from ``aheadAt``
/// on), the checkpoint is due from there: little is left to copy then.
///
/// A checkpoint that cannot copy everything (a reader still uses the log) is tried again only
/// once the log has grown by a quarter of the threshold more, or the log was copied ahead
/// again, never after every commit: each try costs an `fsync` of the database file.
public struct WALCheckpoints: Equatable, Sendable {
  /// The pages (`page_size` bytes each) the log may hold before the writer checkpoints it.
  public let threshold: Int
  /// The log's length, in pages, at which the next checkpoint is due.
  public private(set) var dueAt: Int
  /// The log's length, in pages, from which another thread copies it ahead: three quarters of
  /// the threshold, so that the copy ends before the log reaches the threshold.
  public var aheadAt: Int { max(1, threshold * 3 / 4) }

  /// Checkpoints once the log holds `threshold` pages.
  public init(threshold: Int) {
    precondition(threshold > 0, "a log of some pages")
    self.threshold = threshold
    self.dueAt = threshold
  }

  /// Whether to checkpoint now, the log holding `walPages` pages after a commit; `copiedAhead`:
  /// another thread copied most of it into the database file since the last checkpoint.
  public func due(walPages: Int, copiedAhead: Bool = false) -> Bool {
    walPages >= dueAt || (copiedAhead && walPages >= aheadAt)
  }

  /// A checkpoint found `walPages` pages in the log and copied `copied` of them: when it
  /// copied them all the log starts again at the next commit; otherwise the next try waits for
  /// more pages.
  public mutating func checkpointed(walPages: Int, copied: Int) {
    dueAt = copied >= walPages ? threshold : max(walPages, threshold) + max(1, threshold / 4)
  }

  /// A checkpoint failed (an I/O error): try again once the log has grown as after a partial
  /// one, `walPages` being the log's length when it was tried.
  public mutating func failed(walPages: Int) {
    dueAt = max(walPages, threshold) + max(1, threshold / 4)
  }
}
