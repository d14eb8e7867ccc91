import Foundation
import Logging
import Protocol
import Testing

@testable import Server

/// Frames held behind a journal ticket leave once the writer has written it, as soon as the
/// service thread has handled its next event: a busy loop does not keep them until its pass
/// ends, where the writer's `release` command is taken.
@Suite(.ownThread) struct JournalReleaseTests {
  /// "hold": a frame held behind ticket 1; anything else: "pong", never held.
  private final class HoldingHandler: ServiceThreadHandler {
    var decidesInline: Bool { true }

    func handle(_ event: TransportEvent, now: Double, commands: inout [TransportCommand]) {
      guard case .message(let id, let bytes, _) = event else { return }
      if bytes == Array("hold".utf8) {
        commands += [.hold(1), .send(Frame(Array("held".utf8)), to: [id])]
      } else {
        commands.append(.sendAtOnce(Frame(Array("pong".utf8)), to: [id]))
      }
    }

    func deadlineReached(now: Double, commands: inout [TransportCommand]) {}
    func nextDeadline() -> Double? { nil }
  }

  /// A transport on a free loopback port whose events go to `handler`, started after `setUp`.
  private static func started(
    _ handler: any ServiceThreadHandler, setUp: (WebSocketTransport) -> Void = { _ in }
  ) throws -> WebSocketTransport {
    var configuration = TransportConfiguration()
    configuration.port = 0
    var logger = Logger(label: "release-test")
    logger.logLevel = .warning
    let transport = WebSocketTransport(
      configuration: configuration, logger: logger, handler: handler)
    setUp(transport)
    try transport.start()
    return transport
  }

  /// A client that sent "hold", then "ping", and read the first answer (a round trip after
  /// the hold: the held frame has not come before it).
  private static func holdThenPing(port: Int) throws -> (LoopbackClient, String) {
    let client = try LoopbackClient(port: port)
    #expect(try client.upgrade().status == 101)
    try client.sendText("hold")
    try client.sendText("ping")
    return (client, String(decoding: try client.readFrame().payload, as: UTF8.self))
  }

  @Test func aWrittenTicketLetsItsFramesGoAfterTheNextEventWithoutItsReleaseCommand() async throws {
    let transport = try Self.started(HoldingHandler())
    let inbox = transport.inbox
    let frames = try await offPool {
      let (client, first) = try Self.holdThenPing(port: transport.listeningPort)
      var seen = [first]
      // The writer's side of a written batch, without the `release` command it posts beside
      // (which the loop would take at the end of its pass): only the next event lets it go.
      inbox.noteWritten(1)
      try client.sendText("ping")
      seen.append(String(decoding: try client.readFrame().payload, as: UTF8.self))
      seen.append(String(decoding: try client.readFrame().payload, as: UTF8.self))
      return seen
    }
    await transport.shutdown(graceSeconds: 10)
    #expect(frames.first == "pong")
    #expect(frames.dropFirst().sorted() == ["held", "pong"])
  }

  /// "hold": as above. "ping": "pong" at once. "admit": two decisions wait for the handler's
  /// deadline; the journal's writer writes ticket 1 while the first is decided.
  private final class AdmittingHandler: ServiceThreadHandler {
    var inbox: TransportInbox?
    private var waiting: [(ConnectionID, String)] = []

    var decidesInline: Bool { true }

    func handle(_ event: TransportEvent, now: Double, commands: inout [TransportCommand]) {
      guard case .message(let id, let bytes, _) = event else { return }
      switch String(decoding: bytes, as: UTF8.self) {
      case "hold": commands += [.hold(1), .send(Frame(Array("held".utf8)), to: [id])]
      case "admit": waiting = [(id, "first"), (id, "second")]
      default: commands.append(.sendAtOnce(Frame(Array("pong".utf8)), to: [id]))
      }
    }

    func admitNext(now: Double, commands: inout [TransportCommand]) -> Bool {
      guard !waiting.isEmpty else { return false }
      let (id, text) = waiting.removeFirst()
      if text == "first" { inbox?.noteWritten(1) }
      commands.append(.sendAtOnce(Frame(Array(text.utf8)), to: [id]))
      return true
    }

    func deadlineReached(now: Double, commands: inout [TransportCommand]) {
      // As the inline lobby: whatever the loop has not asked for one by one.
      while admitNext(now: now, commands: &commands) {}
    }

    func nextDeadline() -> Double? { waiting.isEmpty ? nil : 0 }
  }

  @Test func framesWrittenWhileACrowdIsDecidedLeaveBetweenTwoDecisions() async throws {
    let handler = AdmittingHandler()
    let transport = try Self.started(handler) { handler.inbox = $0.inbox }
    let frames = try await offPool {
      let (client, first) = try Self.holdThenPing(port: transport.listeningPort)
      var seen = [first]
      try client.sendText("admit")
      for _ in 0..<3 {
        seen.append(String(decoding: try client.readFrame().payload, as: UTF8.self))
      }
      return seen
    }
    await transport.shutdown(graceSeconds: 10)
    // Written during the first decision, the held frame leaves before the second is decided.
    #expect(frames == ["pong", "first", "held", "second"])
  }
}
