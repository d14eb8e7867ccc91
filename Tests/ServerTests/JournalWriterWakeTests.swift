import Foundation
import Lobby
import Logging
import Store
import Synchronization
import Testing

@testable import Server

/// The service thread's way of waking the journal's writer: the batches of one pass of its
/// loop are queued without a wake, and one wake before the loop waits writes them all.
@Suite struct JournalWriterWakeTests {
  /// A writer whose service thread is never pressed: the process-wide pressure flag is set by
  /// the real servers other suites run beside this one, and a pressed loop takes the writer
  /// off the batch policy (``JournalWriterUrgencyTests``).
  private static func startedWriter() -> JournalWriter {
    let writer = JournalWriter(
      store: MemoryJournalStore(), logger: Logger(label: "test"), loopPressed: { false },
      released: { _ in })
    writer.start()
    return writer
  }

  @Test func batchesQueuedWithoutAWakeAreWrittenOnceTheOwedWakeIsPaid() {
    let writer = Self.startedWriter()
    defer { writer.stop() }
    _ = writer.append([.tableClosed("t1")], wake: false)
    let last = writer.append([.tableClosed("t2")], wake: false)
    // The first batch found the writer idle: it is owed a wake (whether or not its thread had
    // begun to wait yet).
    #expect(writer.owesWake)
    writer.wakeIfOwed()
    #expect(!writer.owesWake)
    #expect(writer.waitUntilWritten(last, timeout: 30))
    #expect(writer.entries == 2)
  }

  /// The writer's thread is batch work: its wakes do not take the core from the service thread.
  @Test func theWritersThreadRunsAsBatch() {
    let writer = Self.startedWriter()
    defer { writer.stop() }
    #expect(writer.waitUntilWritten(writer.append([.tableClosed("t1")]), timeout: 30))
    let isBatch = writer.isBatch.load(ordering: .relaxed)
    #expect(isBatch)
  }

  /// The writer has had work since the first entries queued, until all are written, whether
  /// woken or only owed a wake (on a single core the service thread gives the core up to it
  /// once that work has waited, ``InlineLobby``).
  @Test func theWriterHasWorkFromTheFirstEntriesQueuedUntilAllAreWritten() throws {
    let writer = JournalWriter(
      store: MemoryJournalStore(), logger: Logger(label: "test"), released: { _ in })
    defer { writer.stop() }
    #expect(writer.workSince == nil)
    let before = MonotonicClock.now()
    // Not started yet: what is queued stays queued.
    _ = writer.append([.tableClosed("t1")], wake: false)
    let since = try #require(writer.workSince)
    #expect(since >= before && since <= MonotonicClock.now())
    // More entries do not make the work younger.
    let last = writer.append([.tableClosed("t2")])
    #expect(writer.workSince == since)
    writer.start()
    #expect(writer.waitUntilWritten(last, timeout: 30))
    #expect(writer.workSince == nil)
  }

  @Test func aWakeIsOwedOnlyWhenTheWriterHadNothingQueued() {
    let writer = JournalWriter(
      store: MemoryJournalStore(), logger: Logger(label: "test"), released: { _ in })
    // Never started: what is queued stays queued, so the second batch finds the first there.
    _ = writer.append([.tableClosed("t1")], wake: true)
    _ = writer.append([.tableClosed("t2")], wake: false)
    #expect(!writer.owesWake)
  }

  @Test func aWakeWithNothingOwedDoesNothing() {
    let writer = Self.startedWriter()
    defer { writer.stop() }
    writer.wakeIfOwed()
    #expect(!writer.owesWake)
    let ticket = writer.append([.tableClosed("t1")])
    #expect(!writer.owesWake)
    #expect(writer.waitUntilWritten(ticket, timeout: 30))
  }

  /// The owed wake reaches the writer even while others wait on the same condition for a
  /// ticket (the records' reader does): a signal could wake one of them instead, and the
  /// writer slept on with the entries they waited for (found by the end-to-end tests).
  @Test func theOwedWakeReachesTheWriterWhileReadersWaitForTheTicket() throws {
    let writer = JournalWriter(
      store: MemoryJournalStore(), logger: Logger(label: "test"), released: { _ in })
    defer { writer.stop() }
    // The readers wait first for the first ticket, before anything is queued...
    let readers = 8
    let written = Mutex(0)
    // Each reader leaves the group once it has counted (or not): the check below waits for
    // them all, not for their count of waiting readers, which drops before they count.
    let done = DispatchGroup()
    let threads = (0..<readers).map { _ in
      done.enter()
      return Thread {
        if writer.waitUntilWritten(1, timeout: 30) { written.withLock { $0 += 1 } }
        done.leave()
      }
    }
    for thread in threads { thread.start() }
    while writer.waiting.readers < readers { Thread.sleep(forTimeInterval: 0.001) }
    // ...then the writer, idle, waits behind them (barriers, not sleeps)...
    writer.start()
    while !writer.waiting.writer { Thread.sleep(forTimeInterval: 0.001) }
    // ...and the batch of the first ticket comes without a wake, which is paid after.
    #expect(writer.append([.tableClosed("t1")], wake: false) == 1)
    writer.wakeIfOwed()
    #expect(writer.waitUntilWritten(1, timeout: 10))
    #expect(done.wait(timeout: .now() + 30) == .success)
    #expect(written.withLock { $0 } == readers)
  }
}

/// The owed wake of a pass that runs long: paid once its entries have waited past the cutoff.
@Suite struct JournalWriterLateWakeTests {
  @Test func anOwedWakeIsPaidOnlyOnceItsEntriesWereQueuedBeforeTheCutoff() {
    let writer = JournalWriter(
      store: MemoryJournalStore(), logger: Logger(label: "test"), released: { _ in })
    defer { writer.stop() }
    writer.start()
    // An idle writer (a barrier, not a sleep) is owed the wake of the first batch.
    while !writer.waiting.writer { Thread.sleep(forTimeInterval: 0.001) }
    let queuedAfter = MonotonicClock.now()
    let ticket = writer.append([.tableClosed("t1")], wake: false)
    // Queued after this cutoff: still owed.
    writer.wakeIfOwed(queuedBefore: queuedAfter - 1)
    #expect(writer.owesWake)
    // Queued before this one: paid, and the batch is written.
    writer.wakeIfOwed(queuedBefore: MonotonicClock.now())
    #expect(!writer.owesWake)
    #expect(writer.waitUntilWritten(ticket, timeout: 30))
  }
}
