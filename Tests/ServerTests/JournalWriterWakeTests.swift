import Foundation
import Lobby
import Logging
import Store
import Testing

@testable import Server

/// The service thread's way of waking the journal's writer: the batches of one pass of its
/// loop are queued without a wake, and one wake before the loop waits writes them all.
@Suite struct JournalWriterWakeTests {
  private static func startedWriter() -> JournalWriter {
    let writer = JournalWriter(
      store: MemoryJournalStore(), logger: Logger(label: "test"), released: { _ in })
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
}
