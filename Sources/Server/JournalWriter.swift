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
  private let store: any JournalStore
  private let logger: Logger
  private let condition = NSCondition()
  private var pending: [JournalEntry] = []
  private var lastTicket: UInt64 = 0
  private var writtenTicket: UInt64 = 0
  private var stopping = false
  /// When entries were queued for an idle writer without waking it (``append(_:wake:)``):
  /// ``MonotonicClock`` seconds as a bit pattern, 0 when no wake is owed. Written under
  /// `condition`; ``wakeIfOwed(queuedBefore:)`` reads it without the lock.
  private let owedSince = Atomic<UInt64>(0)
  /// Whether the writer's thread waits for entries, and how many threads wait in
  /// ``waitUntilWritten(_:timeout:onlyWhileUp:)`` (for the tests of wakes).
  private var writerWaits = false
  private var readersWaiting = 0
  private var finished = false
  /// Called on the writer's thread with the latest ticket written.
  private let released: @Sendable (UInt64) -> Void
  /// The shortest time between the starts of two commits, in seconds.
  let interval: Double
  /// Up, failing or stalled (under `condition`).
  private var health: JournalHealth
  /// What the writer counts for `/metrics`; nil in tests that do not look.
  private let metrics: JournalMetrics?
  /// Told of tables another node took over (a write was refused for them: ``FencedTables``);
  /// returns once the lobby has given them up and closed their members, so that what waits
  /// behind the batch is never shown to them.
  private let lost: @Sendable ([String]) -> Void

  /// Whether the journal is down: the latest write failed, or the one in progress has taken
  /// longer than ``stallLimit`` (read by the lobby's shell on every event; written under
  /// `condition`).
  let failing = Atomic<Bool>(false)
  /// Whether the writer's thread runs under the batch policy (``Thread/becomeBatch()``): its
  /// wakes do not preempt the service thread.
  let isBatch = Atomic<Bool>(false)
  /// Since when `pending` has held entries the writer has not taken (``workSince``):
  /// ``MonotonicClock`` seconds as a bit pattern, 0 when it is empty. Written under
  /// `condition` wherever `pending` changes.
  private let working = Atomic<UInt64>(0)

  /// The longest a write may take before moves are refused, in seconds.
  let stallLimit: Double

  /// Seconds between two log lines of one outage (a failed write is retried within a second).
  static let failureLogInterval = 5.0

  /// Batches written, entries written, failed attempts (under `condition`; read them through
  /// ``batches``, ``entries`` and ``failures`` from any thread).
  private var batchCount = 0
  private var entryCount = 0
  private var failureCount = 0
  /// The store's server switches already counted in the metrics (writer thread only).
  private var serverSwitchesCounted = 0

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
    released: @escaping @Sendable (UInt64) -> Void
  ) {
    self.lost = lost
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

  /// After a batch left `pending` (under `condition`): the entries still there have waited
  /// for the writer since now.
  private func noteWorkLeft() {
    working.store(pending.isEmpty ? 0 : MonotonicClock.now().bitPattern, ordering: .relaxed)
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

  private func run() {
    var delay = 0.1
    // Failures since the last one logged, and when that was: an outage is logged every few
    // seconds, not at every try.
    var unlogged = 0
    var loggedAt = -Double.infinity
    var lastStart = Date.distantPast
    while true {
      condition.lock()
      while pending.isEmpty && !stopping {
        writerWaits = true
        condition.wait()
        writerWaits = false
      }
      if interval > 0 {
        // Pace: let more entries gather until `interval` after the last commit began.
        let next = lastStart.addingTimeInterval(interval)
        while !stopping && Date() < next {
          // `append` signals only when `pending` was empty: this sleeps until `next`.
          _ = condition.wait(until: next)
        }
      }
      lastStart = Date()
      if pending.isEmpty {
        finished = true
        condition.broadcast()
        condition.unlock()
        return
      }
      // A finished game ends now, as the wall clock tells it (the lobby keeps no calendar).
      let endedAt = lastStart.timeIntervalSince1970
      var batch = pending
      // Only a batch with a finished game is copied to stamp it.
      for index in batch.indices {
        switch batch[index] {
        case .finished(var game):
          game.endedAt = endedAt
          batch[index] = .finished(game)
        case .finishedInJournal(var game, let table, let deal):
          game.endedAt = endedAt
          batch[index] = .finishedInJournal(game, table: table, deal: deal)
        default: continue
        }
      }
      let ticket = lastTicket
      let began = MonotonicClock.now()
      health.began(at: began)
      condition.unlock()
      do {
        try store.write(batch)
        metrics?.commitTime.recordNanoseconds(Int64((MonotonicClock.now() - began) * 1e9))
        delay = 0.1
        loggedAt = -Double.infinity
      } catch let fenced as FencedTables {
        // Another node holds these tables now: nothing of the batch was written. The lobby
        // gives them up first (their members are closed before anything behind this batch
        // could reach them); then the rest of the batch is written as usual.
        metrics?.fencedWrites.increment()
        logger.warning(
          "journal: another node took over tables; giving them up",
          metadata: ["tables": "\(fenced.tables.joined(separator: ","))"])
        lost(fenced.tables)
        let gone = Set(fenced.tables)
        let kept = batch.filter { !$0.isAbout(gone) }
        condition.lock()
        // The database answered: the journal is not down.
        noteHealth(health.succeeded())
        pending.replaceSubrange(0..<batch.count, with: kept)
        noteWorkLeft()
        guard kept.isEmpty else {
          condition.unlock()
          continue
        }
        // Nothing left to write of this batch: its ticket is done.
        writtenTicket = ticket
        condition.broadcast()
        condition.unlock()
        released(ticket)
        continue
      } catch {
        condition.lock()
        noteHealth(health.failed())
        failureCount += 1
        let giveUp = stopping && failureCount > 50
        condition.unlock()
        metrics?.failedWrites.increment()
        unlogged += 1
        let now = MonotonicClock.now()
        if now - loggedAt >= Self.failureLogInterval {
          logger.error(
            "journal write failed; retrying",
            metadata: [
              "error": "\(error)", "entries": "\(batch.count)", "failures": "\(unlogged)",
            ])
          unlogged = 0
          loggedAt = now
        }
        if giveUp {
          logger.critical("journal: giving up at shutdown; \(batch.count) entries not written")
          condition.lock()
          pending.removeFirst(batch.count)
          noteWorkLeft()
          finished = true
          condition.broadcast()
          condition.unlock()
          return
        }
        Thread.sleep(forTimeInterval: delay)
        delay = min(1, delay * 2)
        continue
      }
      condition.lock()
      let change = health.succeeded()
      noteHealth(change)
      // The upkeep after the commit counts as a write for the watch (see `upkeep()`).
      health.began(at: MonotonicClock.now())
      pending.removeFirst(batch.count)
      noteWorkLeft()
      writtenTicket = ticket
      batchCount += 1
      entryCount += batch.count
      // Wakes whoever waits for a write (RecordReader).
      condition.broadcast()
      condition.unlock()
      released(ticket)
      metrics?.batches.increment()
      metrics?.entries.increment(by: Int64(batch.count))
      if change == .recovered { logger.notice("journal writes again") }
      upkeep()
    }
  }

  /// Runs the store's upkeep between two commits. It counts as a write for the watch: a
  /// checkpoint that hangs on a frozen disk puts the journal down like a write that hangs. One
  /// that fails is logged and tried again later; the journal stays up, its writes succeed.
  private func upkeep() {
    let report: JournalUpkeep?
    let began = MonotonicClock.now()
    do {
      report = try store.upkeep()
    } catch {
      report = nil
      logger.warning("journal upkeep failed", metadata: ["error": "\(error)"])
    }
    condition.lock()
    let change = health.succeeded()
    noteHealth(change)
    condition.unlock()
    if change == .recovered { logger.notice("journal writes again") }
    guard let report else { return }
    if report.checkpointed {
      metrics?.checkpoints.increment()
      metrics?.checkpointTime.recordNanoseconds(Int64((MonotonicClock.now() - began) * 1e9))
    }
    if let bytes = report.logBytes { metrics?.logBytes.record(bytes) }
    if let switches = report.serverSwitches, switches > serverSwitchesCounted {
      metrics?.serverSwitches.increment(by: Int64(switches - serverSwitchesCounted))
      serverSwitchesCounted = switches
    }
  }

  /// Looks at the write in progress four times per ``stallLimit``: one that has taken longer
  /// puts the journal down (moves are refused) until it ends. The write itself cannot be
  /// stopped (SQLite waits for the disk; a PostgreSQL query has its own time limit).
  private func watch() {
    while true {
      Thread.sleep(forTimeInterval: stallLimit / 4)
      condition.lock()
      if finished {
        condition.unlock()
        return
      }
      let change = health.check(at: MonotonicClock.now())
      noteHealth(change)
      let waiting = pending.count
      condition.unlock()
      guard change == .stalled else { continue }
      metrics?.stalls.increment()
      logger.error(
        "journal write has taken over \(Self.shown(stallLimit)); refusing moves until it is written",
        metadata: ["entries": "\(waiting)"])
    }
  }

  /// Publishes ``health`` after `change` (nil: none): to the lobby through ``failing``, to the
  /// down gauge, and to whoever waits for a write only while the journal is up. Under
  /// `condition`, so that the writer and the watch publish in the order they decided.
  private func noteHealth(_ change: JournalHealth.Change?) {
    guard let change else { return }
    failing.store(health.down, ordering: .relaxed)
    metrics?.down.record(change == .recovered ? 0 : 1)
    condition.broadcast()
  }

  /// `seconds` for the log: "1 s", "0.25 s".
  private static func shown(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
  }
}
