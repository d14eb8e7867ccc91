import CoreMetrics
import Foundation
import Logging
import Store
import Synchronization

/// Deletes the finished games older than `--keep-finished-days` (high scores and replays), on a
/// thread of its own: once soon after start, then every ``interval``.
///
/// Each pass deletes in batches of at most ``batchSize`` games, each batch one short
/// transaction (``JournalStore/removeFinishedGames(endedBefore:limit:)``), with a pause between
/// batches (0.1 s: at most 500 games a second, the writer free over 95 % of the time). Not in
/// the journal writer's commits: a day's worth of games to delete would then ride in front of
/// moves. On SQLite a batch runs on the writer's connection, one write at a time, so a commit of
/// moves waits for one batch at most (about 2 ms; docs/BENCHMARKS.md); on PostgreSQL it is one
/// statement on the writer's connection.
final class FinishedGameRetention: Sendable {
  /// The store deleted from.
  let store: any JournalStore
  /// How long a finished game is kept, in seconds.
  let keep: Double
  /// Time between two passes.
  let interval: Double
  /// The most games one transaction deletes.
  let batchSize: Int
  /// Counts the games deleted (`matchismo_finished_games_removed_total`), if given.
  let removed: CoreMetrics.Counter?
  private let logger: Logger
  private let stopping = Atomic<Bool>(false)

  /// The most games one transaction deletes by default: 50 games and their players' rows take
  /// about 2 ms on SQLite (200 take 7 ms; docs/BENCHMARKS.md), short enough to pass between two
  /// commits of moves.
  static let defaultBatchSize = 50

  /// Retention of `days` days over `store`.
  init(
    store: any JournalStore, days: Int, interval: Double = 600,
    batchSize: Int = FinishedGameRetention.defaultBatchSize, removed: CoreMetrics.Counter? = nil,
    logger: Logger
  ) {
    precondition(days > 0 && batchSize > 0, "keep games a while, delete some at a time")
    self.store = store
    self.keep = Double(days) * 86_400
    self.interval = interval
    self.batchSize = batchSize
    self.removed = removed
    self.logger = logger
  }

  /// One pass at `now` (seconds since 1970): deletes every game that ended more than the kept
  /// days before, a batch at a time, pausing `pause` seconds between batches. Returns how many
  /// it deleted; a failure ends the pass (logged), the next pass tries again.
  @discardableResult
  func prune(now: Double = Date().timeIntervalSince1970, pause: Double = 0.1) -> Int {
    var total = 0
    while !stopping.load(ordering: .relaxed) {
      let count: Int
      do {
        count = try store.removeFinishedGames(endedBefore: now - keep, limit: batchSize)
      } catch {
        logger.warning("finished games: cannot remove the old ones: \(error)")
        break
      }
      total += count
      if count > 0 { removed?.increment(by: Int64(count)) }
      guard count == batchSize else { break }
      if pause > 0 { Thread.sleep(forTimeInterval: pause) }
    }
    if total > 0 {
      logger.info("finished games: removed \(total) older than \(Int(keep / 86_400)) days")
    }
    return total
  }

  /// Starts the passes on a thread of their own, until ``stop()``.
  func start() {
    let thread = Thread(named: "journal-retention") { [self] in
      // The first pass waits a little, for the server to be serving first.
      var next = Date().addingTimeInterval(min(interval, 5))
      while !stopping.load(ordering: .relaxed) {
        Thread.sleep(forTimeInterval: min(1, max(0, next.timeIntervalSinceNow)))
        guard Date() >= next else { continue }
        prune()
        next = Date().addingTimeInterval(interval)
      }
    }
    thread.start()
  }

  /// Ends the passes (a batch under way finishes first; the thread ends within a second).
  func stop() {
    stopping.store(true, ordering: .relaxed)
  }
}
