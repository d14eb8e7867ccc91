import Foundation
import Logging
import Protocol
import Synchronization
import Testing

@testable import Server

/// A crowd's writes (issue 36): several queued frames go out in one write, whole and in order,
/// and a crowd's sockets are asked to write a few at a time, first come first served.
@Suite struct CrowdWritesTests {
  @Test func aBatchHoldsEachFrameWithItsHeader() {
    let batch = WriteBatch(headroom: 16)
    // The last fills the batch to its limit exactly (566 bytes before it, a 4-byte header).
    let sizes = [0, 1, 125, 126, 300, WriteBatch.byteLimit - 566 - 4]
    var expected: [UInt8] = []
    for (index, size) in sizes.enumerated() {
      let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) }
      let frame = Frame(payload)
      if index > 0 { #expect(batch.fits(frame)) }
      batch.append(frame)
      expected.append(0x81)
      if size < 126 {
        expected.append(UInt8(size))
      } else {
        expected += [126, UInt8(size >> 8), UInt8(size & 0xFF)]
      }
      expected += payload
    }
    #expect(batch.bytes == expected)
    #expect(batch.frames == sizes.count)
    #expect(batch.payloadBytes == sizes.reduce(0, +))
    // Full: one byte more than the limit does not fit.
    #expect(!batch.fits(Frame([UInt8](repeating: 1, count: WriteBatch.byteLimit - batch.count))))
    batch.reset()
    #expect(batch.bytes.isEmpty)
    // A frame past 64 KiB has a 10-byte header; it never shares a batch.
    let large = Frame([UInt8](repeating: 7, count: 70_000))
    #expect(WriteBatch.headerLength(payload: 70_000) == 10)
    #expect(!WriteBatch.fit(large, Frame([1])))
    #expect(!WriteBatch.fit(Frame([1]), large))
    #expect(WriteBatch.fit(Frame([1]), Frame([2])))
  }

  @Test func theCrowdWaitsInLineFirstComeFirstServed() {
    var line = CrowdLine()
    for n in 0..<10_000 { line.append(ConnectionID(UInt64(n))) }
    var taken: [UInt64] = []
    while let id = line.next() {
      taken.append(id.rawValue)
      if id.rawValue == 5_000 { line.append(ConnectionID(99_999)) }
    }
    #expect(taken == Array(0..<10_000) + [99_999])
    #expect(line.isEmpty)
    #expect(line.count == 0)
  }

  /// Fifty frames (one of them larger than a batch) for eight clients, queued at once for the
  /// crowd, with three sockets asked to write per pass: every client reads every frame, whole
  /// and in order, and a frame sent to one client alone after them still comes after them.
  @Test func aCrowdReadsEveryFrameWholeAndInOrder() async throws {
    var configuration = TransportConfiguration()
    configuration.port = 0
    configuration.crowdWritesPerPass = 3
    // No keepalive: its PING would ask for a write, and hide a connection that waits for none.
    configuration.pingIdleSeconds = 0
    var logger = Logger(label: "crowd-test")
    logger.logLevel = .warning
    let transport = WebSocketTransport(configuration: configuration, logger: logger)
    try transport.start()
    let opened = Mutex<[ConnectionID]>([])
    let consumer = Task {
      for await event in transport.events {
        switch event {
        case .opened(let id, _): opened.withLock { $0.append(id) }
        case .message(let id, let bytes, _): transport.send(Frame(bytes), to: id)
        case .closed, .news: break
        }
      }
    }
    let port = transport.listeningPort
    var clients: [LoopbackClient] = []
    for _ in 0..<8 {
      clients.append(
        try await offPool {
          let client = try LoopbackClient(port: port)
          #expect(try client.upgrade().status == 101)
          try client.sendText("hello")
          #expect(try client.readFrame().opcode == 1)
          return client
        })
    }
    let ids = opened.withLock { $0 }
    #expect(ids.count == 8)
    let payloads: [[UInt8]] = (0..<50).map { index in
      let size = index == 20 ? 70_000 : index % 7 == 0 ? 200 : 20
      return Array("frame \(index) ".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: size)
    }
    var commands = payloads.map { TransportCommand.sendToCrowd(Frame($0), to: ids) }
    commands.append(.send(Frame(Array("after".utf8)), to: [ids[0]]))
    transport.perform(commands)
    for (index, client) in clients.enumerated() {
      let read = try await offPool {
        try (0..<(index == 0 ? 51 : 50)).map { _ in try client.readFrame() }
      }
      #expect(read.map(\.payload) == payloads + (index == 0 ? [Array("after".utf8)] : []))
    }
    // The same frames for one player, at once (no crowd): the large one goes alone, and the rest
    // follow it.
    transport.perform(payloads.map { TransportCommand.send(Frame($0), to: [ids[1]]) })
    let player = clients[1]
    let read = try await offPool { try (0..<50).map { _ in try player.readFrame() } }
    #expect(read.map(\.payload) == payloads)
    await transport.shutdown(graceSeconds: 5)
    _ = await consumer.value
  }
}
