/// When the journal's writer checkpoints SQLite's write-ahead log, so that the log's file stays
/// under a bound whatever the move rate: a pure value that ``SQLiteJournalStore`` runs after
/// every commit, and that tests drive directly.
///
/// SQLite appends every commit to the WAL and starts it again from the beginning only when a
/// write finds the whole log copied into the database file (checkpointed) and no reader in it.
/// A checkpoint on another connection never finds that under commits every few hundred
/// microseconds: the log is always ahead of it (it grew by gigabytes). So the writer itself
/// checkpoints between two of its commits: nothing is written meanwhile, the checkpoint copies
/// everything, and the next commit starts the log again (`journal_size_limit` cuts the file
/// back to the threshold's size). Such a checkpoint waits for the disk (an `fsync` of the log
/// and of the database file), and every move that comes meanwhile waits for it.
///
/// With another thread copying the log ahead (``WALCheckpointer``, from ``aheadAt`` on, its own
/// waits for the disk on its own connection), the writer only **catches up**: right after a
/// copy, once at most ``catchUpLimit`` pages were committed since it began. While the copy is
/// slow (a disk that pauses) the writer does not take it over: moves go on, and the log grows
/// into its room, until ``aloneAt``, a quarter more than the threshold. Without that thread
/// the writer checkpoints alone at the threshold.
///
/// A checkpoint that cannot copy everything (a reader still uses the log) is tried again only
/// once the log has grown by a quarter of the threshold more, never after every commit: each
/// try costs an `fsync` of the database file.
public struct WALCheckpoints: Equatable, Sendable {
  /// The pages (`page_size` bytes each) the log may hold before it is checkpointed.
  public let threshold: Int
  /// Whether another thread copies the log ahead (``copiesAhead()``).
  public private(set) var copiedAhead = false
  /// The log's length, in pages, at which the writer checkpoints whatever the copy ahead does.
  public private(set) var dueAt: Int
  /// The log's length, in pages, from which another thread copies it ahead: three quarters of
  /// the threshold, so that the copy ends before the log reaches the threshold.
  public var aheadAt: Int { max(1, threshold * 3 / 4) }
  /// The most pages committed since the copy ahead began that the writer copies itself in its
  /// catch-up: a thirty-second of the threshold (1 MiB of the default 32). More, and the copy
  /// ahead goes again first.
  public var catchUpLimit: Int { max(1, threshold / 32) }
  /// Where the writer checkpoints alone: the threshold, or with a copy ahead a quarter more
  /// (40 MiB of the default 32: the copy ahead starts at 24, so 16 MiB, seconds of moves at
  /// any rate measured, go by before the writer waits for the disk; under the 64 MiB bound with
  /// room for a batch and a few tries).
  public var aloneAt: Int { copiedAhead ? threshold + threshold / 4 : threshold }

  /// Checkpoints once the log holds `threshold` pages.
  public init(threshold: Int) {
    precondition(threshold > 0, "a log of some pages")
    self.threshold = threshold
    self.dueAt = threshold
  }

  /// Another thread copies the log ahead from now on: the writer catches up after it, and
  /// checkpoints alone only at ``aloneAt``.
  public mutating func copiesAhead() {
    copiedAhead = true
    dueAt = max(dueAt, aloneAt)
  }

  /// Whether to checkpoint now, the log holding `walPages` pages after a commit; `uncopied`:
  /// the pages committed since a copy ahead that has ended began (nil: none has, since the last
  /// checkpoint, or one is under way).
  public func due(walPages: Int, uncopied: Int? = nil) -> Bool {
    if walPages >= dueAt { return true }
    guard let uncopied, walPages >= aheadAt else { return false }
    return uncopied <= catchUpLimit
  }

  /// A checkpoint found `walPages` pages in the log and copied `copied` of them: when it
  /// copied them all the log starts again at the next commit; otherwise the next try waits for
  /// more pages.
  public mutating func checkpointed(walPages: Int, copied: Int) {
    dueAt = copied >= walPages ? aloneAt : max(walPages, aloneAt) + max(1, threshold / 4)
  }

  /// A checkpoint failed (an I/O error): try again once the log has grown as after a partial
  /// one, `walPages` being the log's length when it was tried.
  public mutating func failed(walPages: Int) {
    dueAt = max(walPages, aloneAt) + max(1, threshold / 4)
  }
}
