import CEventPass
import Foundation
import Logging
import Protocol
import Synchronization
import Testing

@testable import Server

#if canImport(Glibc)
  import Glibc
#endif

/// Bounded passes, players first (issue 36): a thread's waits take at most its cap of events,
/// and a busy pass reads a watched table's players before its other events.
@Suite(.ownThread) struct PlayersFirstTests {
  /// A pipe with a byte to read: its reading end, then its writing end.
  private static func readyPipe() -> [Int32] {
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)
    _ = write(ends[1], "x", 1)
    return ends
  }

  /// Ten descriptors with something to read, in a poll set of their own; every descriptor.
  private static func readySet() -> (set: Int32, fds: [Int32]) {
    let set = epoll_create1(0)
    let pipes = (0..<10).map { _ in readyPipe() }
    for fd in pipes.map({ $0[0] }) {
      var event = epoll_event()
      event.events = EPOLLIN.rawValue
      event.data.fd = fd
      epoll_ctl(set, EPOLL_CTL_ADD, fd, &event)
    }
    return (set, pipes.flatMap { $0 })
  }

  /// The executable's `epoll_wait` (libev's wait resolves to it, as this call does) takes at
  /// most the calling thread's cap, and leaves every other thread's waits whole.
  @Test func aCapBoundsTheWaitsOfItsOwnThreadOnly() async throws {
    let (set, fds) = Self.readySet()
    defer {
      for fd in fds + [set] { close(fd) }
    }
    let (capped, again, uncapped, otherThread) = try await offPool {
      var events = [epoll_event](repeating: epoll_event(), count: 10)
      event_pass_cap_events(4)
      let capped = epoll_wait(set, &events, 10, 0)
      // Level-triggered: the same ten are ready again.
      let again = epoll_wait(set, &events, 10, 0)
      let otherThread = try? awaitThread {
        var events = [epoll_event](repeating: epoll_event(), count: 10)
        return (event_pass_events_cap(), epoll_wait(set, &events, 10, 0))
      }
      event_pass_cap_events(0)
      let uncapped = epoll_wait(set, &events, 10, 0)
      return (capped, again, uncapped, otherThread)
    }
    #expect(capped == 4 && again == 4)
    #expect(uncapped == 10)
    #expect(otherThread?.0 == 0 && otherThread?.1 == 10)
  }

  /// The poll set of the connections served first reports those with input, and none once
  /// taken out.
  @Test func theFirstServedSetReportsItsMembersWithInput() async throws {
    let set = event_pass_first_new()
    #expect(set >= 0)
    var quietEnds: [Int32] = [-1, -1]
    _ = pipe(&quietEnds)
    let readyEnds = Self.readyPipe()
    let quiet = quietEnds[0]
    let ready = readyEnds[0]
    defer {
      for fd in [set] + quietEnds + readyEnds { close(fd) }
    }
    #expect(event_pass_first_add(set, quiet) == 0 && event_pass_first_add(set, ready) == 0)
    var fds = [Int32](repeating: -1, count: 64)
    #expect(event_pass_first_ready(set, &fds, 64) == 1 && fds[0] == ready)
    #expect(event_pass_first_remove(set, ready) == 0)
    #expect(event_pass_first_ready(set, &fds, 64) == 0)
  }

  /// Records the events it is handed, in order; a "stall" message holds the service thread
  /// until `gate` is signalled (blocking, as no real handler may: the test needs the kernel to
  /// gather every event first, as a busy machine's would).
  private final class StallingHandler: ServiceThreadHandler, @unchecked Sendable {
    let stalled = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    let log = Mutex<[String]>([])
    let opened = Mutex<[ConnectionID]>([])
    /// With a transport, a move is answered as an executor of the sharded lobby answers it:
    /// posted to the transport's inbox (not appended to `commands`); and each close is logged
    /// as "closed+" while something posted waits in the inbox.
    var transport: WebSocketTransport?
    var decidesInline: Bool { true }

    func handle(_ event: TransportEvent, now: Double, commands: inout [TransportCommand]) {
      switch event {
      case .opened(let id, _):
        opened.withLock { $0.append(id) }
      case .message(let id, let bytes, _):
        let text = String(decoding: bytes, as: UTF8.self)
        if text == "stall" {
          stalled.signal()
          gate.wait()
        } else {
          log.withLock { $0.append(text) }
          if text == "move" { transport?.perform([.send(Frame(Array("moved".utf8)), to: [id])]) }
        }
      case .closed:
        let waiting = transport?.inbox.hasPosted ?? false
        log.withLock { $0.append(waiting ? "closed+" : "closed") }
      case .news:
        break
      }
    }

    func deadlineReached(now: Double, commands: inout [TransportCommand]) {}
    func nextDeadline() -> Double? { nil }
  }

  /// A player of a watched table and a crowd of 200: the service thread is held while every
  /// spectator drops its connection and then the player sends a move, so that its next wait
  /// finds them all. Returns how many of the closes the loop took before the move.
  /// `passBudget` as ``TransportConfiguration/passBudget`` (0: passes bounded by count only).
  private func closesBeforeTheMove(firstServedAbove: Int, passBudget: Double = 0) async throws
    -> Int
  {
    try await crowdHangsUpWhileThePlayerMoves(
      firstServedAbove: firstServedAbove, passBudget: passBudget
    ).firstIndex { $0 == "move" }!
  }

  /// What the handler was handed, in order, when the crowd of 200 hangs up and then the player
  /// moves while the service thread is held; with `answered`, the move is answered through the
  /// inbox, and the player must read the answer.
  private func crowdHangsUpWhileThePlayerMoves(
    firstServedAbove: Int, passBudget: Double = 0, answered: Bool = false
  ) async throws -> [String] {
    var configuration = TransportConfiguration()
    configuration.passBudget = passBudget
    configuration.port = 0
    configuration.pingIdleSeconds = 0
    configuration.drainTimeoutSeconds = 0
    configuration.firstServedAbove = firstServedAbove
    var logger = Logger(label: "players-first-test")
    logger.logLevel = .warning
    let handler = StallingHandler()
    let transport = WebSocketTransport(
      configuration: configuration, logger: logger, handler: handler)
    if answered { handler.transport = transport }
    try transport.start()
    let port = transport.listeningPort
    let crowdSize = 200
    // Connected one after another (each upgraded before the next): ids in their order.
    let clients = try await offPool {
      try (0..<(crowdSize + 2)).map { _ in
        let client = try LoopbackClient(port: port)
        #expect(try client.upgrade().status == 101)
        return client
      }
    }
    // Each upgrade was answered before the next client connected, so the ids come in their
    // order; the last one's may be handed over just after its answer was read.
    let openDeadline = Date().addingTimeInterval(60)
    while handler.opened.withLock({ $0.count }) < crowdSize + 2 && Date() < openDeadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    let ids = handler.opened.withLock { $0 }
    try #require(ids.count == crowdSize + 2)
    let player = ids[0]
    let crowd = Array(ids[1...crowdSize])
    // A table's frame for its player, then the same change's for its crowd: the lobby's order,
    // which makes the player one served first. Everyone reads it: it has been carried out.
    let frame = Frame(Array("version 1".utf8))
    transport.perform([.send(frame, to: [player]), .sendToCrowd(frame, to: crowd)])
    let stalled = handler.stalled
    try await offPool {
      for client in clients.dropLast() { _ = try client.readFrame() }
      try clients[crowdSize + 1].sendText("stall")
      stalled.wait()
    }
    // The crowd drops (FIN: each has read everything), then the player moves.
    let playerClient = clients[0]
    for spectator in clients[1...crowdSize] { spectator.hangUp() }
    try playerClient.sendText("move")
    // What the kernel has for the held thread is all there before it runs again (loopback
    // delivers within the sending call; this only guards a machine that defers it).
    try await Task.sleep(for: .milliseconds(200))
    handler.gate.signal()
    let deadline = Date().addingTimeInterval(60)
    while handler.log.withLock({ $0.count }) < crowdSize + 1 && Date() < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    let order = handler.log.withLock { $0 }
    if answered {
      let answer = try await offPool { try playerClient.readFrame() }
      #expect(String(decoding: answer.payload, as: UTF8.self) == "moved")
    }
    for client in clients { client.hangUp() }
    await transport.shutdown(graceSeconds: 5)
    handler.transport = nil
    withExtendedLifetime(clients) {}
    try #require(order.count >= crowdSize + 1, "\(order.count) events")
    _ = try #require(order.firstIndex(of: "move"))
    return order
  }

  /// Served first, the move comes before every close that waited with it: the loop took at
  /// most 64 events from its wait, and read the player before running them.
  @Test func aBusyPassReadsTheWatchedTablesPlayersFirst() async throws {
    let closes = try await closesBeforeTheMove(firstServedAbove: 16)
    #expect(closes == 0, "\(closes)")
  }

  /// An answer posted to the inbox while the service thread works (as the sharded lobby's
  /// executors post theirs) is taken after the event in progress, not at the end of the pass:
  /// no close that came after the move found it still waiting.
  @Test func whatIsPostedMidPassIsTakenAfterTheEventInProgress() async throws {
    let order = try await crowdHangsUpWhileThePlayerMoves(firstServedAbove: 16, answered: true)
    let move = order.firstIndex(of: "move")!
    let closes = order[(move + 1)...].filter { $0.hasPrefix("closed") }
    #expect(closes.count >= 128, "\(closes.count) closes after the move")
    let waited = closes.filter { $0 == "closed+" }.count
    #expect(waited == 0)
  }

  /// The same with nobody served first: the move waits behind the closes that came before it
  /// (the loop's waits hand them over oldest first, 64 at a time).
  @Test func withoutThemTheMoveWaitsBehindTheCrowdsCloses() async throws {
    let closes = try await closesBeforeTheMove(firstServedAbove: .max)
    #expect(closes >= 128, "\(closes)")
  }

  /// Paced passes (``PassPacing``): a pass that took longer than its budget leaves the next
  /// fewer events, and a pass that takes all of those is busy, however few they are. With a
  /// budget no pass keeps (a microsecond) and nobody served first by count, the held pass
  /// slows the next to 4 events, and that pass reads the player before its closes; without
  /// the budget the move waited behind at least 128 of them (above).
  @Test func aPassSlowedByItsBudgetServesThePlayersFirst() async throws {
    let closes = try await closesBeforeTheMove(firstServedAbove: .max, passBudget: 0.000_001)
    #expect(closes == 0, "\(closes)")
  }
}

/// `body`'s result on a new thread, waited for.
private func awaitThread<T: Sendable>(_ body: @escaping @Sendable () -> T) throws -> T {
  let result = Mutex<T?>(nil)
  let done = DispatchSemaphore(value: 0)
  Thread {
    let value = body()
    result.withLock { $0 = value }
    done.signal()
  }.start()
  done.wait()
  return result.withLock { $0! }
}
