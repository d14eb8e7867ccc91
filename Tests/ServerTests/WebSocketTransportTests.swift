import Foundation
import Logging
import Protocol
import Synchronization
import Testing

@testable import Server

#if canImport(Glibc)
  import Glibc
#endif

extension LoopbackClient: @unchecked Sendable {}

/// Integration tests: a real transport on a free loopback port, driven by `LoopbackClient`.
@Suite(.ownThread) struct WebSocketTransportTests {
  private static let logger: Logger = {
    var logger = Logger(label: "transport-test")
    logger.logLevel = .warning
    return logger
  }()

  /// A started transport on an ephemeral port plus a consumer that echoes every message and
  /// records every event.
  private final class EchoServer: Sendable {
    let transport: WebSocketTransport
    let consumer: Task<[TransportEvent], Never>
    let opened = OpenedConnections()

    init(configuration: TransportConfiguration = TransportConfiguration()) throws {
      var configuration = configuration
      configuration.port = 0
      let transport = WebSocketTransport(
        configuration: configuration, logger: WebSocketTransportTests.logger)
      try transport.start()
      self.transport = transport
      let opened = self.opened
      consumer = Task(executorPreference: ThreadExecutor.current) {
        var log: [TransportEvent] = []
        for await event in transport.events {
          log.append(event)
          switch event {
          case .opened(let id, _): opened.ids.withLock { $0.append(id) }
          case .message(let id, let bytes, _): transport.send(Frame(bytes), to: id)
          case .closed, .news: break
          }
        }
        return log
      }
    }

    var port: Int { transport.listeningPort }

    /// Shuts down and returns every event seen (the stream has finished then).
    func stop() async -> [TransportEvent] {
      await transport.shutdown(graceSeconds: 10)
      return await consumer.value
    }
  }

  /// Runs `body` against a fresh echo server and always shuts it down (a service thread left
  /// running would keep the test process alive). Returns every event the server reported.
  private func withEchoServer(
    _ configuration: TransportConfiguration = TransportConfiguration(),
    _ body: (EchoServer) async throws -> Void
  ) async throws -> [TransportEvent] {
    let server = try EchoServer(configuration: configuration)
    do {
      try await body(server)
    } catch {
      _ = await server.stop()
      throw error
    }
    return await server.stop()
  }

  private static func makeWebRoot() throws -> String {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("transport-test-\(UUID().uuidString)")
    let files = [
      "index.html": "<!doctype html><title>t</title><script type=module src=js/app.js></script>",
      "js/app.js": "export const suit = \"\u{2660}\";\n",
      "css/style.css": "body { color: #123; }\n",
      "favicon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n",
      "app.js": "// not in a public folder\n",
      "tests/app.test.js": "// tests are not served\n",
    ]
    for (name, text) in files {
      let url = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    return root.path
  }

  @Test func servesOnlyPublicFilesWithSecurityHeaders() async throws {
    let root = try Self.makeWebRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    var configuration = TransportConfiguration()
    configuration.webRoot = root
    let events = try await withEchoServer(configuration) { server in
      let port = server.port
      #expect(port > 0)
      try await checkStaticFiles(port: port)
    }
    #expect(events.isEmpty)
  }

  private func checkStaticFiles(port: Int) async throws {
    let paths = [
      "/", "/js/app.js", "/css/style.css", "/favicon.svg", "/missing.js", "/app.js",
      "/tests/app.test.js",
    ]
    let responses = try await offPool {
      let client = try LoopbackClient(port: port)
      return try paths.map { path in (path, try client.get(path)) }
    }
    let byPath = Dictionary(uniqueKeysWithValues: responses)
    #expect(byPath["/"]?.status == 200)
    #expect(byPath["/"]?.headers["content-type"]?.hasPrefix("text/html") == true)
    #expect(byPath["/"]?.headers["cache-control"] == "no-cache")
    #expect(byPath["/js/app.js"]?.status == 200)
    #expect(byPath["/js/app.js"]?.headers["content-type"]?.hasPrefix("text/javascript") == true)
    #expect(byPath["/js/app.js"]?.body == Array("export const suit = \"\u{2660}\";\n".utf8))
    #expect(byPath["/js/app.js"]?.headers["cache-control"]?.hasPrefix("max-age=") == true)
    #expect(byPath["/css/style.css"]?.headers["content-type"]?.hasPrefix("text/css") == true)
    #expect(byPath["/favicon.svg"]?.headers["content-type"] == "image/svg+xml")
    for path in ["/missing.js", "/app.js", "/tests/app.test.js"] {
      #expect(byPath[path]?.status == 404, "\(path)")
    }
    for (path, response) in responses {
      #expect(response.headers["x-content-type-options"] == "nosniff", "\(path)")
      #expect(response.headers["referrer-policy"] == "no-referrer", "\(path)")
      let policy = response.headers["content-security-policy"] ?? ""
      #expect(policy.contains("default-src 'self'"), "\(path)")
      #expect(policy.contains("connect-src 'self' ws://127.0.0.1:\(port) wss://127.0.0.1:\(port)"))
      #expect(policy.contains("frame-ancestors 'none'"), "\(path)")
    }
  }

  @Test func echoesTextMessagesAndSays1001OnShutdown() async throws {
    let server = try EchoServer()
    do {
      try await echoAndShutDown(server)
    } catch {
      _ = await server.stop()
      throw error
    }
  }

  private func echoAndShutDown(_ server: EchoServer) async throws {
    let port = server.port
    let (named, unnamed) = try await offPool {
      let named = try LoopbackClient(port: port)
      let upgrade = try named.upgrade(subprotocol: "matchismo.v2")
      #expect(upgrade.status == 101)
      #expect(upgrade.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
      #expect(upgrade.headers["sec-websocket-protocol"] == "matchismo.v2")
      try named.sendText("hello \u{2660}")
      #expect(try named.readFrame() == .init(opcode: 1, payload: Array("hello \u{2660}".utf8)))

      // No subprotocol: served the game protocol anyway.
      let unnamed = try LoopbackClient(port: port)
      let plain = try unnamed.upgrade()
      #expect(plain.status == 101)
      #expect(plain.headers["sec-websocket-protocol"] == nil)
      try unnamed.sendFrame(opcode: 1, Array("ab".utf8), final: false)
      try unnamed.sendFrame(opcode: 0, Array("cd".utf8))
      #expect(try unnamed.readFrame() == .init(opcode: 1, payload: Array("abcd".utf8)))
      try unnamed.sendText("")
      #expect(try unnamed.readFrame() == .init(opcode: 1, payload: []))
      return (named, unnamed)
    }

    let stopping = Task(executorPreference: ThreadExecutor.current) { await server.stop() }
    let closes = try await offPool {
      try [named, unnamed].map { client in
        let frame = try client.readFrame()
        try client.sendFrame(opcode: 8, Array(frame.payload.prefix(2)))
        return (frame.closeCode, frame.closeReason, client.readsEndOfStream())
      }
    }
    for close in closes {
      #expect(close.0 == 1001)
      #expect(close.1 == "server shutting down")
      #expect(close.2)
    }

    let events = await stopping.value
    let opened = events.compactMap { if case .opened(let id, _) = $0 { id } else { nil } }
    let closed = events.compactMap { if case .closed(let id) = $0 { id } else { nil } }
    let messages = events.compactMap {
      if case .message(_, let bytes, _) = $0 { String(decoding: bytes, as: UTF8.self) } else { nil }
    }
    #expect(opened.count == 2)
    #expect(Set(opened) == Set(closed))
    #expect(Set(opened).count == 2)
    #expect(messages == ["hello \u{2660}", "abcd", ""])
  }

  @Test func closesConnectionsThatBreakTheLimits() async throws {
    let events = try await withEchoServer { server in
      try await breakTheLimits(port: server.port)
    }
    let opened = events.filter { if case .opened = $0 { true } else { false } }.count
    let closed = events.filter { if case .closed = $0 { true } else { false } }.count
    #expect(opened == 4)
    #expect(closed == 4)
  }

  private func breakTheLimits(port: Int) async throws {
    let results = try await offPool {
      func closeAfter(_ send: (LoopbackClient) throws -> Void) throws -> (UInt16?, String) {
        let client = try LoopbackClient(port: port)
        #expect(try client.upgrade().status == 101)
        try send(client)
        var frame = try client.readFrame()
        while frame.opcode == 1 { frame = try client.readFrame() }  // echoes before the close
        try client.sendFrame(opcode: 8, Array(frame.payload.prefix(2)))
        return (frame.closeCode, frame.closeReason)
      }
      return [
        "too big": try closeAfter { try $0.sendText(String(repeating: "x", count: 9000)) },
        "binary": try closeAfter { try $0.sendFrame(opcode: 2, [1, 2, 3]) },
        "bad utf-8": try closeAfter { try $0.sendFrame(opcode: 1, [0xff, 0xfe, 0x41]) },
        "flood": try closeAfter { client in
          for index in 0..<200 { try client.sendText("m\(index)") }
        },
      ]
    }
    #expect(results["too big"]?.0 == 1009)
    #expect(results["binary"]?.0 == 1003)
    #expect(results["bad utf-8"]?.0 == 1007)
    #expect(results["flood"]?.0 == 1008)
    #expect(results["flood"]?.1 == "rate limit")

    let refused = try await offPool {
      let client = try LoopbackClient(port: port)
      let status = (try? client.upgrade(version: "8"))?.status
      return status
    }
    #expect(refused != 101)
  }

  @Test func pingsSilentClientsAndDropsThoseThatNeverAnswer() async throws {
    var configuration = TransportConfiguration()
    configuration.pingIdleSeconds = 1
    configuration.hangupIdleSeconds = 3
    _ = try await withEchoServer(configuration) { server in
      let port = server.port
      // Answers three PINGs in turn (about four seconds, past the hang-up time), then echoes.
      async let answering = offPool { () throws -> (pings: Int, echo: [UInt8]) in
        let client = try LoopbackClient(port: port)
        _ = try client.upgrade()
        var pings = 0
        while pings < 3 {
          let frame = try client.readFrameKeepingPings()
          guard frame.opcode == 9 else { throw LoopbackClient.Failure(description: "\(frame)") }
          pings += 1
          try client.sendFrame(opcode: 10, frame.payload)
        }
        try client.sendText("still here")
        return (pings, try client.readFrame().payload)
      }
      // Never answers: gets a PING, then the server drops it.
      async let silent = offPool { () throws -> (opcode: UInt8, dropped: Bool) in
        let client = try LoopbackClient(port: port)
        _ = try client.upgrade()
        let frame = try client.readFrameKeepingPings()
        return (frame.opcode, client.readsEndOfStream())
      }
      let (pings, echo) = try await answering
      #expect(pings == 3)
      #expect(echo == Array("still here".utf8))
      let (opcode, dropped) = try await silent
      #expect(opcode == 9)
      #expect(dropped)
    }
  }

  @Test func appCloseSendsQueuedFramesFirst() async throws {
    _ = try await withEchoServer { server in
      try await closeAfterQueuedFrames(server)
    }
  }

  private func closeAfterQueuedFrames(_ server: EchoServer) async throws {
    let port = server.port
    let client = try await offPool {
      let client = try LoopbackClient(port: port)
      #expect(try client.upgrade().status == 101)
      try client.sendText("ping")
      #expect(try client.readFrame().opcode == 1)
      return client
    }
    // The echo arrived, so the consumer has seen `.opened`.
    let first = server.opened.ids.withLock { $0.first }
    let id = try #require(first)
    for index in 0..<3 { server.transport.send(Frame(Array("n\(index)".utf8)), to: id) }
    server.transport.close(id, code: 4100, reason: "kicked")
    let frames = try await offPool {
      let frames = try (0..<4).map { _ in try client.readFrame() }
      try client.sendFrame(opcode: 8, Array(frames[3].payload.prefix(2)))
      return frames
    }
    #expect(
      frames[0..<3].map { String(decoding: $0.payload, as: UTF8.self) } == ["n0", "n1", "n2"])
    #expect(frames[3].closeCode == 4100)
    #expect(frames[3].closeReason == "kicked")
  }

  @Test func aTakenPortIsAnError() async throws {
    _ = try await withEchoServer { first in
      var configuration = TransportConfiguration()
      configuration.port = first.port
      let second = WebSocketTransport(configuration: configuration, logger: Self.logger)
      #expect(throws: TransportError.addressInUse(host: "127.0.0.1", port: first.port)) {
        try second.start()
      }
      await second.shutdown()
    }
  }

  @Test func startsOnlyOnceAndShutsDownIdempotently() async throws {
    let server = try EchoServer()
    #expect(throws: TransportError.alreadyStarted) { try server.transport.start() }
    async let first: Void = server.transport.shutdown()
    async let second: Void = server.transport.shutdown()
    _ = await (first, second)
    _ = await server.stop()
  }

  @Test func shutdownWithoutStartFinishesTheEvents() async {
    let transport = WebSocketTransport(
      configuration: TransportConfiguration(), logger: Self.logger)
    transport.send(Frame([1]), to: ConnectionID(rawValue: 7))
    await transport.shutdown()
    var count = 0
    for await _ in transport.events { count += 1 }
    #expect(count == 0)
  }

  @Test func aMissingWebRootIsAnError() {
    var configuration = TransportConfiguration()
    configuration.port = 0
    configuration.webRoot = "/nonexistent/web"
    let transport = WebSocketTransport(configuration: configuration, logger: Self.logger)
    #expect(throws: TransportError.webRootNotFound("/nonexistent/web")) { try transport.start() }
  }
}

/// Ids the echo consumer saw opened.
private final class OpenedConnections: Sendable {
  let ids = Mutex<[ConnectionID]>([])
}
