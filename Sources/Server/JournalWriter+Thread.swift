import Foundation
import Lobby
import Logging
import Store
import Synchronization

/// The writer's own threads (``JournalWriter/start()``): the one that writes what gathered, one
/// transaction at a time, and the one that watches it for a write that hangs.
extension JournalWriter {
  func run() {
    var delay = 0.1
    // Failures since the last one logged, and when that was: an outage is logged every few
    // seconds, not at every try.
    var unlogged = 0
    var loggedAt = -Double.infinity
    var lastStart = Date.distantPast
    while true {
      followLoopPressure()
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

  /// Takes the short slice while the service thread is pressed (``loopPressed``: a crowd's
  /// fan-out, a storm of new connections), the batch policy otherwise; before each wait for
  /// work, so a change counts from the writer's next wake. In
  /// fast play the service thread sleeps between passes and the batch writer runs then, its
  /// thousands of wakes a second never taking the core from it; but while a crowd's fan-out
  /// keeps the service thread (and, where a load generator shares the machine, every core)
  /// busy, a batch writer's wake waited for a core for up to milliseconds (a steady crowd of
  /// 10,000 on two shared cores: p99 3.2-3.5 ms from the work queued to its commit begun,
  /// 0.5 ms with the short slice; docs/BENCHMARKS.md). A system that refuses the slice keeps
  /// the batch policy.
  func followLoopPressure() {
    let pressing = loopPressed()
    guard pressing != isUrgent.load(ordering: .relaxed) else { return }
    if pressing {
      guard Thread.askShortSlice() else { return }
      isBatch.store(false, ordering: .relaxed)
      metrics?.urgentTurns.increment()
    } else {
      isBatch.store(Thread.becomeBatch(), ordering: .relaxed)
    }
    isUrgent.store(pressing, ordering: .relaxed)
  }

  /// Runs the store's upkeep between two commits. It counts as a write for the watch: a
  /// checkpoint that hangs on a frozen disk puts the journal down like a write that hangs. One
  /// that fails is logged and tried again later; the journal stays up, its writes succeed.
  func upkeep() {
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
  func watch() {
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
  func noteHealth(_ change: JournalHealth.Change?) {
    guard let change else { return }
    failing.store(health.down, ordering: .relaxed)
    metrics?.down.record(change == .recovered ? 0 : 1)
    condition.broadcast()
  }

  /// `seconds` for the log: "1 s", "0.25 s".
  static func shown(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
  }

  /// After a batch left `pending` (under `condition`): the entries still there have waited
  /// for the writer since now.
  func noteWorkLeft() {
    working.store(pending.isEmpty ? 0 : MonotonicClock.now().bitPattern, ordering: .relaxed)
  }
}
