import Foundation
import Lobby
import Logging
import Store
import Synchronization
import Testing

@testable import Server

/// The journal's writer under a crowd's pressure: a short slice while the transport says a
/// crowd's fan-out holds the service thread, the batch policy before and after.
@Suite struct JournalWriterUrgencyTests {
  /// What the transport says, as the test sets it.
  final class Pressing: Sendable {
    let value = Atomic<Bool>(false)
  }

  @Test func theWriterTakesAShortSliceWhileACrowdPressesAndTheBatchPolicyAfter() {
    let pressing = Pressing()
    let writer = JournalWriter(
      store: MemoryJournalStore(), logger: Logger(label: "test"),
      loopPressed: { pressing.value.load(ordering: .relaxed) }, released: { _ in })
    writer.start()
    defer { writer.stop() }
    // The writer looks before each wait for work: the second of two commits comes after a look
    // that followed the change.
    var table = 0
    func twoCommits() {
      for _ in 0..<2 {
        table += 1
        #expect(writer.waitUntilWritten(writer.append([.tableClosed("t\(table)")]), timeout: 30))
      }
    }
    func policy() -> (batch: Bool, urgent: Bool) {
      (writer.isBatch.load(ordering: .relaxed), writer.isUrgent.load(ordering: .relaxed))
    }
    twoCommits()
    #expect(policy() == (true, false))
    pressing.value.store(true, ordering: .relaxed)
    twoCommits()
    #expect(policy() == (false, true), "this kernel takes the short slice")
    pressing.value.store(false, ordering: .relaxed)
    twoCommits()
    #expect(policy() == (true, false))
    #expect(writer.entries == 6)
  }

  /// The slice asked for is one Linux takes (0.1 ms, its shortest), on a thread of its own.
  @Test func aThreadMayAskForTheShortSlice() {
    let took = Atomic<Bool>(false)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      took.store(Thread.askShortSlice(), ordering: .relaxed)
      done.signal()
    }
    thread.start()
    done.wait()
    let taken = took.load(ordering: .relaxed)
    #expect(taken)
    #expect(Thread.shortSliceNanoseconds == 100_000)
  }
}
