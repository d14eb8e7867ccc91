import Foundation
import Synchronization
import Testing

@testable import Store

/// The server's threads carry their names to the system (`top -H`, `perf`), where a
/// `Thread.name` set before the thread started never reached it: every thread was named after
/// the process or a dispatch queue.
@Suite struct ThreadNamedTests {
  /// What the kernel calls the thread that runs this, and what Foundation does.
  private static func names(of name: String) -> (system: String, foundation: String?) {
    let seen = Mutex<(String, String?)>(("", nil))
    let done = DispatchSemaphore(value: 0)
    let thread = Thread(named: name) {
      let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
      let own = Thread.current.name
      seen.withLock { $0 = (comm.trimmingCharacters(in: .newlines), own) }
      done.signal()
    }
    thread.start()
    done.wait()
    return seen.withLock { ($0.0, $0.1) }
  }

  @Test func theSystemSeesTheName() {
    let (system, foundation) = Self.names(of: "journal")
    #expect(system == "journal")
    #expect(foundation == "journal")
  }

  @Test func aLongNameIsCutToTheSystemsFifteenBytes() {
    let (system, foundation) = Self.names(of: "journal-copy-ahead")
    #expect(system == "journal-copy-ah")
    // Foundation reads the system's name on Linux.
    #expect(foundation == "journal-copy-ah")
  }
}
