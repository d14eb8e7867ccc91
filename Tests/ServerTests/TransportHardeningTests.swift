import CWebSockets
import Foundation
import Logging
import Protocol
import Synchronization
import Testing

@testable import Server

/// Loopback tests of inbound back-pressure, RFC 6455 close handling, the Origin check and
/// command batches, each against a real transport on a free port.
@Suite(.ownThread) struct TransportHardeningTests {
  private static let logger: Logger = {
    var logger = Logger(label: "transport-hardening-test")
    logger.logLevel = .warning
    return logger
  }()

  /// What a consumer saw, and whether it acknowledges as it goes.
  private final class Ledger: Sendable {
    struct State {
      var receivedBytes = 0
      var unacknowledged = 0
      var acknowledging = false
      var opened: [ConnectionID] = []
    }
    let state = Mutex(State())
  }

  /// Starts a transport whose consumer records into `ledger` and acknowledges only once
  /// `ledger` says so; runs `body`, then shuts the transport down.
  private func withTransport(
    _ configuration: TransportConfiguration, ledger: Ledger = Ledger(),
    _ body: (WebSocketTransport) async throws -> Void
  ) async throws {
    var configuration = configuration
    configuration.port = 0
    // No keepalive: these tests are not about hanging up on idle peers (KeepaliveWheelTests
    // are).
    configuration.pingIdleSeconds = 0
    let transport = WebSocketTransport(configuration: configuration, logger: Self.logger)
    try transport.start()
    let consumer = Task(executorPreference: ThreadExecutor.current) {
      for await event in transport.events {
        switch event {
        case .opened(let id, _): ledger.state.withLock { $0.opened.append(id) }
        case .message(_, let bytes, _):
          let acknowledge = ledger.state.withLock { state in
            state.receivedBytes += bytes.count
            if !state.acknowledging { state.unacknowledged += bytes.count }
            return state.acknowledging
          }
          if acknowledge { transport.acknowledge(bytes: bytes.count) }
        case .closed, .news: break
        }
      }
    }
    do {
      try await body(transport)
    } catch {
      await transport.shutdown(graceSeconds: 1)
      await consumer.value
      throw error
    }
    await transport.shutdown(graceSeconds: 1)
    await consumer.value
  }

  /// Polls `condition` every 20 ms for at most `seconds` (long: on a loaded machine the
  /// transport's own thread can be slow to get a core).
  private func eventually(_ seconds: Double = 300, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
  }

  @Test func pausesReadingAboveHighWaterAndResumesAfterAcknowledgements() async throws {
    var configuration = TransportConfiguration()
    configuration.inboundHighWaterBytes = 32 * 1024
    configuration.inboundLowWaterBytes = 8 * 1024
    configuration.rateBurst = 100_000
    configuration.rateRefillPerSecond = 100_000
    let messageSize = 4000
    let messageCount = 200
    let total = messageSize * messageCount
    let ledger = Ledger()
    try await withTransport(configuration, ledger: ledger) { transport in
      let port = transport.listeningPort
      let client = try await offPool {
        let client = try LoopbackClient(port: port)
        #expect(try client.upgrade().status == 101)
        return client
      }
      // Writes may block once the server stops reading: not awaited until the end.
      let sender = Task(executorPreference: ThreadExecutor.current) {
        try await offPool {
          for _ in 0..<messageCount {
            try client.sendText(String(repeating: "x", count: messageSize))
          }
        }
      }
      #expect(await eventually { transport.pausedConnections == 1 })
      // Paused: nothing more arrives while nobody acknowledges. First the consumer takes all
      // it was handed (nothing is acknowledged, so that is everything queued)...
      #expect(
        await eventually {
          ledger.state.withLock { $0.receivedBytes } == transport.queuedInboundBytes
        })
      let received = ledger.state.withLock { $0.receivedBytes }
      // ...then two upgrades of another client, each answered in a turn of the service loop
      // in which the paused connection's socket is readable (its sender waits on a full
      // buffer): had the pause let go, more would have been read and handed on.
      for _ in 0..<2 {
        let status = try await offPool { try LoopbackClient(port: port).upgrade().status }
        #expect(status == 101)
      }
      #expect(transport.queuedInboundBytes == received)
      #expect(ledger.state.withLock { $0.receivedBytes } == received)
      #expect(received < total)
      // The consumer may lag behind what was handed to it, never run ahead.
      #expect(received <= transport.queuedInboundBytes)
      #expect(
        transport.queuedInboundBytes
          <= configuration.inboundHighWaterBytes + configuration.maxMessageBytes)

      let backlog = ledger.state.withLock { state in
        state.acknowledging = true
        defer { state.unacknowledged = 0 }
        return state.unacknowledged
      }
      transport.acknowledge(bytes: backlog)
      #expect(await eventually { ledger.state.withLock { $0.receivedBytes } == total })
      try await sender.value
      #expect(await eventually { transport.queuedInboundBytes == 0 })
      #expect(transport.pausedConnections == 0)
    }
  }

  @Test func answersInvalidClosePayloadsWith1002AndEchoesValidOnes() async throws {
    try await withTransport(TransportConfiguration()) { transport in
      let port = transport.listeningPort
      let replies = try await offPool {
        let payloads: [[UInt8]] = [
          [0x03],  // one byte: a code needs two
          [0x03, 0xEC],  // 1004
          [0x03, 0xED],  // 1005
          [0x03, 0xEE],  // 1006
          [0x03, 0xF7],  // 1015
          [0x03, 0xF8],  // 1016
          [0x0B, 0xB7],  // 2999
          [0x13, 0x88],  // 5000
          [0x00, 0x00],  // 0
          [0x0B, 0xB8] + Array("ok".utf8),  // 3000: fine, echoed
          [0x03, 0xE8],  // 1000: fine, echoed
          [],  // no code: fine
        ]
        return try payloads.map { payload in
          let client = try LoopbackClient(port: port)
          #expect(try client.upgrade().status == 101)
          try client.sendFrame(opcode: 8, payload)
          let reply = try client.readFrame()
          return (payload, reply, client.readsEndOfStream())
        }
      }
      for (payload, reply, ended) in replies {
        #expect(reply.opcode == 8, "\(payload)")
        #expect(ended, "\(payload)")
        if payload.isEmpty || payload == [0x0B, 0xB8] + Array("ok".utf8)
          || payload == [0x03, 0xE8]
        {
          #expect(reply.payload == payload, "\(payload) is echoed")
        } else {
          #expect(reply.closeCode == 1002, "\(payload) gets 1002")
        }
      }
      // The 1-byte payload is the exception: it is not echoed.
      #expect(replies[0].1.closeCode == 1002)
    }
  }

  @Test func refusesAFrameDeclaredTooBigAtItsFirstChunk() async throws {
    try await withTransport(TransportConfiguration()) { transport in
      let port = transport.listeningPort
      let reply = try await offPool {
        let client = try LoopbackClient(port: port)
        #expect(try client.upgrade().status == 101)
        // Announces 1 MiB (the limit is 8 KiB) but sends only 4 KiB of it.
        try client.sendFrame(
          opcode: 1, [UInt8](repeating: 0x78, count: 4096), declaredLength: 1 << 20)
        return try client.readFrame()
      }
      #expect(reply.closeCode == 1009)
    }
  }

  @Test func checksTheOriginOfUpgrades() async throws {
    var configuration = TransportConfiguration()
    configuration.allowedOrigins = ["https://game.example"]
    try await withTransport(configuration) { transport in
      let port = transport.listeningPort
      let statuses = try await offPool {
        try [
          nil, "http://127.0.0.1:\(port)", "http://evil.example", "https://game.example",
          "http://127.0.0.1:1", "null",
        ].map { origin in
          (origin, try LoopbackClient(port: port).upgrade(origin: origin).status)
        }
      }
      #expect(statuses.map(\.1) == [101, 101, 403, 101, 403, 403])
    }
  }

  @Test func performsABatchInOrder() async throws {
    let ledger = Ledger()
    try await withTransport(TransportConfiguration(), ledger: ledger) { transport in
      let port = transport.listeningPort
      let clients = try await offPool {
        try (0..<2).map { _ in
          let client = try LoopbackClient(port: port)
          #expect(try client.upgrade().status == 101)
          return client
        }
      }
      #expect(await eventually { ledger.state.withLock { $0.opened.count } == 2 })
      let ids = ledger.state.withLock { $0.opened }
      transport.perform([
        .send(Frame(Array("both".utf8)), to: ids),
        .send(Frame(Array("first".utf8)), to: [ids[0]]),
        .close(ids[1], code: 4100, reason: "bye"),
      ])
      let frames = try await offPool {
        try clients.map { client in try (0..<2).map { _ in try client.readFrame() } }
      }
      #expect(frames[0].map { String(decoding: $0.payload, as: UTF8.self) } == ["both", "first"])
      #expect(String(decoding: frames[1][0].payload, as: UTF8.self) == "both")
      #expect(frames[1][1].closeCode == 4100)
    }
  }

  @Test func frameHeadroomFitsLibwebsockets() {
    #expect(shim_lws_pre() <= Frame.headroom)
  }
}
