import Foundation
import Lobby
import Logging
import Store
import Synchronization

/// Writes the lobby's journal entries to a store on a thread of its own, as many as have queued
/// in one transaction (group commit): while one batch is written, the next one gathers. Each
/// ``append(_:)`` returns a ticket; the transport holds the frames queued behind it
/// (`TransportCommand.hold`) until ``released`` hears that ticket is written.
///
/// Commits go at the transport's pace: a move that finds the writer idle is written at once,
/// and under load batches form by themselves while the commit before them runs. With an
/// ``interval`` (`--commit-interval`, 0 by default) a commit instead begins at least that long
/// after the previous one began, sharing it among more moves at the cost of that wait.
///
/// After each commit, once its frames are let go, the store's upkeep runs (SQLite checkpoints
/// its log there, `WALCheckpointer`); the next batch gathers meanwhile.
///
/// A write that fails is tried again (every 0.1 s, then less often, up to every 2 s) until it
/// succeeds: the frames behind it stay held, so no client ever sees a move the journal does not
/// have; the failure is logged and counted meanwhile. A write that hangs instead (a frozen file
/// system, a database server that stops answering) is noticed by a watch thread once it has
/// taken ``stallLimit``. Either way the journal counts as down (``failing``, decided by
/// ``JournalHealth``) until a write succeeds, and the lobby refuses moves meanwhile. See the
/// README's "When the database fails".
final class JournalWriter: @unchecked Sendable {
  // Its state below is internal only for its threads' extension (`JournalWriter+Thread.swift`):
  // no other type touches it.
  let store: any JournalStore
  let logger: Logger
  let condition = NSCondition()
  var pending: [JournalEntry] = []
  var lastTicket: UInt64 = 0
  var writtenTicket: UInt64 = 0
  var stopping = false
  /// When entries were queued for an idle writer without waking it (``append(_:wake:)``):
  /// ``MonotonicClock`` seconds as a bit pattern, 0 when no wake is owed. Written under
  /// `condition`; ``wakeIfOwed(queuedBefore:)`` reads it without the lock.
  let owedSince = Atomic<UInt64>(0)
  /// Whether the writer's thread waits for entries, and how many threads wait in
  /// ``waitUntilWritten(_:timeout:onlyWhileUp:)`` (for the tests of wakes).
  var writerWaits = false
  var readersWaiting = 0
  var finished = false
  /// Called on the writer's thread with the latest ticket written.
  let released: @Sendable (UInt64) -> Void
  /// The shortest time between the starts of two commits, in seconds.
  let interval: Double
  /// Up, failing or stalled (under `condition`).
  var health: JournalHealth
  /// What the writer counts for `/metrics`; nil in tests that do not look.
  let metrics: JournalMetrics?
  /// Told of tables another node took over (a write was refused for them: ``FencedTables``);
  /// returns once the lobby has given them up and closed their members, so that what waits
  /// behind the batch is never shown to them.
  let lost: @Sendable ([String]) -> Void

  /// Whether the journal is down: the latest write failed, or the one in progress has taken
  /// longer than ``stallLimit`` (read by the lobby's shell on every event; written under
  /// `condition`).
  let failing = Atomic<Bool>(false)
  /// Whether the writer's thread runs under the batch policy (``Thread/becomeBatch()``): its
  /// wakes do not preempt the service thread.
  let isBatch = Atomic<Bool>(false)
  /// Whether the writer's thread runs with a short slice instead (``Thread/askShortSlice()``),
  /// while ``loopPressed`` says so (see ``followLoopPressure()``).
  let isUrgent = Atomic<Bool>(false)
  /// Whether the service thread is pressed pass after pass: a large crowd's fan-out, new
  /// connections waiting (the transport says so, ``LoopPressure``). Asked by the writer's
  /// thread before each wait for work.
  let loopPressed: @Sendable () -> Bool
  /// Since when `pending` has held entries the writer has not taken (``workSince``):
  /// ``MonotonicClock`` seconds as a bit pattern, 0 when it is empty. Written under
  /// `condition` wherever `pending` changes.
  let working = Atomic<UInt64>(0)

  /// The longest a write may take before moves are refused, in seconds.
  let stallLimit: Double

  /// Seconds between two log lines of one outage (a failed write is retried within a second).
  static let failureLogInterval = 5.0

  /// Batches written, entries written, failed attempts (under `condition`; read them through
  /// ``batches``, ``entries`` and ``failures`` from any thread).
  var batchCount = 0
  var entryCount = 0
  var failureCount = 0
  /// The store's server switches already counted in the metrics (writer thread only).
  var serverSwitchesCounted = 0

  /// Batches written so far. Any thread.
  var batches: Int { locked { batchCount } }
  /// Entries written so far. Any thread.
  var entries: Int { locked { entryCount } }
  /// Writes that failed so far (each retry counts). Any thread.
  var failures: Int { locked { failureCount } }

  private func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  /// A writer to `store` that reports written tickets to `released`.
  init(
    store: any JournalStore, logger: Logger, interval: Double = 0, stallLimit: Double = 1,
    metrics: JournalMetrics? = nil, lost: @escaping @Sendable ([String]) -> Void = { _ in },
    loopPressed: @escaping @Sendable () -> Bool = {
      LoopPressure.pressing.load(ordering: .relaxed)
    },
    released: @escaping @Sendable (UInt64) -> Void
  ) {
    self.lost = lost
    self.loopPressed = loopPressed
    self.store = store
    self.logger = logger
    self.interval = interval
    self.stallLimit = stallLimit
    self.health = JournalHealth(stallLimit: stallLimit)
    self.metrics = metrics
    self.released = released
  }

  /// Starts the writer's thread and the thread that watches it for a write that hangs.
  func start() {
    let thread = Thread(named: "journal") { [self] in
      isBatch.store(Thread.becomeBatch(), ordering: .relaxed)
      run()
    }
    thread.start()
    let watcher = Thread(named: "journal-watch") { [self] in watch() }
    watcher.start()
  }

  /// Queues `entries` (in order, after everything queued before); returns their ticket. Any
  /// thread.
  ///
  /// With `wake` false an idle writer is not woken now but owed a wake, which
  /// ``wakeIfOwed()`` pays: the service thread appends every move of one pass of its loop this
  /// way and wakes the writer once, before the loop waits, so that the moves of a pass share
  /// one wake (a futex call on both threads) and one commit; a pass that runs long pays it on
  /// the way (``wakeIfOwed(queuedBefore:)``).
  func append(_ entries: [JournalEntry], wake: Bool = true) -> UInt64 {
    condition.lock()
    defer { condition.unlock() }
    // Only an idle writer needs waking: a pacing one looks at `pending` when its time comes,
    // and a busy one when its commit ends. A broadcast, not a signal: readers waiting for a
    // ticket (`waitUntilWritten`) wait on the same condition, and a signal may wake one of
    // them instead of the writer, which then sleeps on with the entries they wait for.
    if pending.isEmpty {
      working.store(MonotonicClock.now().bitPattern, ordering: .relaxed)
      if wake {
        condition.broadcast()
      } else if owedSince.load(ordering: .relaxed) == 0 {
        owedSince.store(MonotonicClock.now().bitPattern, ordering: .relaxed)
      }
    }
    pending.append(contentsOf: entries)
    lastTicket += 1
    return lastTicket
  }

  /// Pays an owed wake (``wakeIfOwed()``) once the entries that owe it were queued at or
  /// before `cutoff` (``MonotonicClock`` seconds): a pass of the service loop that runs long
  /// under load does not keep its first moves from the writer until it ends. One atomic load
  /// when nothing is owed. Any thread.
  func wakeIfOwed(queuedBefore cutoff: Double) {
    let since = owedSince.load(ordering: .relaxed)
    guard since != 0, Double(bitPattern: since) <= cutoff else { return }
    wakeIfOwed()
  }

  /// Whether an ``append(_:wake:)`` left the writer a wake to pay. Any thread.
  var owesWake: Bool { locked { owedSince.load(ordering: .relaxed) != 0 } }

  /// Whether the writer's thread waits for entries now, and how many threads wait for a
  /// ticket to be written. Any thread.
  var waiting: (writer: Bool, readers: Int) { locked { (writerWaits, readersWaiting) } }

  /// Wakes the writer if an ``append(_:wake:)`` left it asleep with entries to write. Any
  /// thread; cheap when nothing is owed.
  func wakeIfOwed() {
    condition.lock()
    defer { condition.unlock() }
    guard owedSince.load(ordering: .relaxed) != 0 else { return }
    owedSince.store(0, ordering: .relaxed)
    // A broadcast, as in `append`: the writer is not the only one waiting.
    condition.broadcast()
  }

  /// Since when (``MonotonicClock`` seconds) the writer has had entries to write, queued or in
  /// the batch it is writing; nil when it has none. On a single core the service thread gives
  /// the core up to a writer whose work has waited (``InlineLobby/passEnded()``): under the
  /// batch policy its thread would otherwise wait until the busy service thread's slice ends,
  /// up to milliseconds while a crowd keeps it busy. One atomic load. Any thread.
  var workSince: Double? {
    let since = working.load(ordering: .relaxed)
    return since == 0 ? nil : Double(bitPattern: since)
  }

  /// The ticket of the latest entries queued. Any thread.
  var lastQueuedTicket: UInt64 { locked { lastTicket } }

  /// Waits until the entries of `ticket` are written (true), or `timeout` seconds (false); with
  /// `onlyWhileUp`, also no longer once the journal is down (false), since a write that fails
  /// or hangs may not end for a long time.
  func waitUntilWritten(_ ticket: UInt64, timeout: Double, onlyWhileUp: Bool = false) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date(timeIntervalSinceNow: timeout)
    readersWaiting += 1
    defer { readersWaiting -= 1 }
    while writtenTicket < ticket {
      if onlyWhileUp && health.down { return false }
      if !condition.wait(until: deadline) { return writtenTicket >= ticket }
    }
    return true
  }

  /// Writes what is queued, then stops the thread; returns once it has (or after `timeout`
  /// seconds, returning false).
  @discardableResult
  func stop(timeout: Double = 10) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    stopping = true
    condition.broadcast()
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !finished {
      if !condition.wait(until: deadline) { return false }
    }
    return true
  }
}
