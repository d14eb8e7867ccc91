import Foundation
import Synchronization
import Testing

@testable import Store

#if canImport(Glibc)
  import Glibc
#endif

/// ``Thread/becomeBatch()`` puts the calling thread, and only it, under `SCHED_BATCH`.
@Suite struct ThreadBatchTests {
  /// The policy the kernel gives a new thread that asks for batch or does not.
  private static func policy(batch: Bool) -> (took: Bool, policy: Int32) {
    let seen = Mutex<(Bool, Int32)>((false, -1))
    let done = DispatchSemaphore(value: 0)
    let thread = Thread(named: "batch-test") {
      let took = batch ? Thread.becomeBatch() : false
      seen.withLock { $0 = (took, sched_getscheduler(0)) }
      done.signal()
    }
    thread.start()
    done.wait()
    return seen.withLock { ($0.0, $0.1) }
  }

  @Test func aThreadThatAsksRunsAsBatch() {
    let (took, policy) = Self.policy(batch: true)
    #expect(took)
    #expect(policy == 3)  // SCHED_BATCH
  }

  @Test func otherThreadsKeepTheDefaultPolicy() {
    _ = Self.policy(batch: true)
    #expect(Self.policy(batch: false).policy == 0)  // SCHED_OTHER
    #expect(sched_getscheduler(0) == 0)  // SCHED_OTHER
  }
}
