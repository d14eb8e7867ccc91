import Foundation
import Logging
import Synchronization
import Testing

@testable import Server

/// The loop's own steps after a pass ends (``ServiceThreadHandler/loopWillWait()``): new
/// connections let in a few at a time (``AcceptPacing``) are read and reported after
/// ``ServiceThreadHandler/passEnded()``, so the handler hears once more before the loop sleeps.
@Suite(.ownThread) struct LoopWillWaitTests {
  /// Logs "opened" for each connection, "ended" at each pass's end and "wait" when the loop
  /// will wait; a "stall" message holds the service thread until `gate` is signalled (blocking,
  /// as no real handler may: the kernel must gather the new connections first).
  private final class RecordingHandler: ServiceThreadHandler, @unchecked Sendable {
    let stalled = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    let log = Mutex<[String]>([])
    var decidesInline: Bool { true }

    func handle(_ event: TransportEvent, now: Double, commands: inout [TransportCommand]) {
      switch event {
      case .opened:
        log.withLock { $0.append("opened") }
      case .message(_, let bytes, _) where bytes == Array("stall".utf8):
        stalled.signal()
        gate.wait()
      default:
        break
      }
    }

    func deadlineReached(now: Double, commands: inout [TransportCommand]) {}
    func nextDeadline() -> Double? { nil }
    func passEnded() { log.withLock { $0.append("ended") } }
    func loopWillWait() { log.withLock { $0.append("wait") } }
  }

  /// `arriving` connections arrive while the service thread is held: lws takes 16 in the pass
  /// that accepts them, the rest are let in (and their upgrades read) after later passes end
  /// (1,000: the listen queue taken in steps, ``AcceptPacing/takeStep(from:)``). Each
  /// connection opened after a pass's end is followed by a "wait" before the next pass's end,
  /// and the last thing the handler hears, once everything is quiet, is that the loop waits.
  @Test(arguments: [48, 1000])
  func connectionsLetInAfterThePassAreFollowedByTheLoopsWait(arriving: Int) async throws {
    var configuration = TransportConfiguration()
    configuration.port = 0
    configuration.pingIdleSeconds = 0
    configuration.drainTimeoutSeconds = 0
    var logger = Logger(label: "loop-will-wait-test")
    logger.logLevel = .warning
    let handler = RecordingHandler()
    let transport = WebSocketTransport(
      configuration: configuration, logger: logger, handler: handler)
    try transport.start()
    let port = transport.listeningPort
    let stalled = handler.stalled
    let holder = try await offPool {
      let holder = try LoopbackClient(port: port)
      #expect(try holder.upgrade().status == 101)
      try holder.sendText("stall")
      stalled.wait()
      return holder
    }
    handler.log.withLock { $0.removeAll() }
    // While the thread is held, the kernel accepts them all and has their upgrade requests.
    let clients = try await offPool {
      try (0..<arriving).map { _ in
        let client = try LoopbackClient(port: port)
        try client.requestUpgrade()
        return client
      }
    }
    handler.gate.signal()
    // A barrier: every upgrade answered, so every connection was opened.
    let statuses = try await offPool { try clients.map { try $0.upgradeAnswer().status } }
    #expect(statuses.allSatisfy { $0 == 101 })
    // The loop sleeps once nothing is left: the log then ends with its wait.
    let deadline = Date().addingTimeInterval(30)
    while handler.log.withLock({ $0.last }) != "wait" && Date() < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    let log = handler.log.withLock { $0 }
    for client in clients + [holder] { client.hangUp() }
    await transport.shutdown(graceSeconds: 5)
    withExtendedLifetime(clients) {}
    #expect(log.filter { $0 == "opened" }.count == arriving)
    #expect(log.last == "wait", "\(log.suffix(8))")
    // Connections were let in after a pass ended (the steps this is about)...
    let afterEnd = log.indices.filter { $0 > 0 && log[$0] == "opened" && log[$0 - 1] == "ended" }
    #expect(!afterEnd.isEmpty, "\(log)")
    // ...and each of them is followed by the loop's wait before another pass ends.
    for index in afterEnd {
      let next = log[index...].first { $0 == "wait" || $0 == "ended" }
      #expect(next == "wait", "opened at \(index): \(log)")
    }
  }
}
