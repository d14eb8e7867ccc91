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
/// Commits are paced: one begins at least ``interval`` after the previous one began, so that
/// under load the moves of many tables share a commit (at 5,000 moves/s, one commit per move
/// doubled the server's CPU per diff), while a move that finds the writer idle is written at
/// once.
///
/// A write that fails is tried again (every 0.1 s, then less often, up to every 2 s) until it
/// succeeds: the frames behind it stay held, so no client ever sees a move the journal does not
/// have; the failure is logged and counted meanwhile. See the README's "When the database fails".
final class JournalWriter: @unchecked Sendable {
  private let store: any JournalStore
  private let logger: Logger
  private let condition = NSCondition()
  private var pending: [JournalEntry] = []
  private var lastTicket: UInt64 = 0
  private var writtenTicket: UInt64 = 0
  private var stopping = false
  private var finished = false
  /// Called on the writer's thread with the latest ticket written.
  private let released: @Sendable (UInt64) -> Void
  /// The shortest time between the starts of two commits, in seconds.
  let interval: Double

  /// Whether the latest write failed (read by the lobby's shell on every event).
  let failing = Atomic<Bool>(false)

  /// Batches written, entries written, failed attempts (for metrics and tests).
  private(set) var batches = 0
  private(set) var entries = 0
  private(set) var failures = 0

  /// A writer to `store` that reports written tickets to `released`.
  init(
    store: any JournalStore, logger: Logger, interval: Double = 0.001,
    released: @escaping @Sendable (UInt64) -> Void
  ) {
    self.store = store
    self.logger = logger
    self.interval = interval
    self.released = released
  }

  /// Starts the writer's thread.
  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "journal"
    thread.start()
  }

  /// Queues `entries` (in order, after everything queued before); returns their ticket. Any
  /// thread.
  func append(_ entries: [JournalEntry]) -> UInt64 {
    condition.lock()
    defer { condition.unlock() }
    // Only an idle writer needs waking: a pacing one looks at `pending` when its time comes.
    if pending.isEmpty { condition.signal() }
    pending.append(contentsOf: entries)
    lastTicket += 1
    return lastTicket
  }

  /// The ticket of the latest entries queued. Any thread.
  var lastQueuedTicket: UInt64 {
    condition.lock()
    defer { condition.unlock() }
    return lastTicket
  }

  /// Waits until the entries of `ticket` are written (true), or `timeout` seconds (false).
  func waitUntilWritten(_ ticket: UInt64, timeout: Double) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date(timeIntervalSinceNow: timeout)
    while writtenTicket < ticket {
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
    var lastStart = Date.distantPast
    while true {
      condition.lock()
      while pending.isEmpty && !stopping { condition.wait() }
      // Pace: let more entries gather until `interval` after the last commit began.
      let next = lastStart.addingTimeInterval(interval)
      while !stopping && Date() < next {
        // `append` signals only when `pending` was empty: this sleeps until `next`.
        _ = condition.wait(until: next)
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
        guard case .finished(var game) = batch[index] else { continue }
        game.endedAt = endedAt
        batch[index] = .finished(game)
      }
      let ticket = lastTicket
      condition.unlock()
      do {
        try store.write(batch)
        delay = 0.1
        if failing.load(ordering: .relaxed) {
          failing.store(false, ordering: .relaxed)
          logger.notice("journal writes again")
        }
      } catch {
        failing.store(true, ordering: .relaxed)
        condition.lock()
        failures += 1
        let giveUp = stopping && failures > 50
        condition.unlock()
        logger.error(
          "journal write failed; retrying",
          metadata: ["error": "\(error)", "entries": "\(batch.count)"])
        if giveUp {
          logger.critical("journal: giving up at shutdown; \(batch.count) entries not written")
          condition.lock()
          pending.removeFirst(batch.count)
          finished = true
          condition.broadcast()
          condition.unlock()
          return
        }
        Thread.sleep(forTimeInterval: delay)
        delay = min(2, delay * 2)
        continue
      }
      condition.lock()
      pending.removeFirst(batch.count)
      writtenTicket = ticket
      batches += 1
      entries += batch.count
      // Wakes whoever waits for a write (RecordReader).
      condition.broadcast()
      condition.unlock()
      released(ticket)
    }
  }
}
