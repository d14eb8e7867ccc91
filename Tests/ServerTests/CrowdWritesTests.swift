import Foundation
import Logging
import Protocol
import Testing

@testable import Server

/// A crowd's writes (issue 36): several queued frames go out in one write, whole and in order,
/// a crowd's frames are kept once, and its members' sockets write a few at a time.
@Suite(.ownThread) struct CrowdWritesTests {
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

  /// A connection's state for the crowd's bookkeeping (its socket is never touched).
  private static func member(_ id: UInt64) -> ConnectionState {
    ConnectionState(
      id: ConnectionID(id), wsi: OpaquePointer(bitPattern: 1)!,
      configuration: TransportConfiguration(), now: 0)
  }

  @Test func aCrowdKeepsEachFrameOnceAndEachMembersPlace() {
    let crowd = Crowd()
    let ada = Self.member(1)
    let bob = Self.member(2)
    let ids = [ada.id, bob.id]
    let cy = Self.member(3)
    let states = [ada, bob, cy]
    let state = { (id: ConnectionID) in states.first { $0.id == id } }
    let first = crowd.newMembers(ids, state: state)
    #expect(first.left.isEmpty && first.came == ids)
    crowd.join(ada)
    crowd.join(bob)
    #expect(crowd.isSent(to: ids))
    // A list with the same members in other storage is another list: brought in step.
    #expect(!crowd.isSent(to: [ada.id, bob.id]))
    for n in 1...3 { crowd.append(Frame(Array("f\(n)".utf8)), sequence: UInt64(10 * n)) }
    #expect(crowd.head == 3 && crowd.lag(of: ada).frames == 3 && crowd.lag(of: ada).bytes == 6)
    ada.cursor = 3
    #expect(crowd.lag(of: ada).frames == 0 && crowd.lag(of: ada).bytes == 0)
    crowd.trim()
    #expect(crowd.framesKept == 3, "Bob has seen nothing yet")
    bob.cursor = 2
    crowd.trim()
    #expect(crowd.framesKept == 1 && crowd.base == 2)
    #expect(crowd.lag(of: bob) == (1, 2))
    // Bob leaves with what he had not seen; Cy comes and sees from now on.
    let (left, came) = crowd.newMembers([ada.id, cy.id], state: state)
    #expect(left.map(\.id) == [bob.id] && came == [cy.id])
    let unseen = crowd.leave(bob)
    #expect(unseen.map { String(decoding: $0.0.payload, as: UTF8.self) } == ["f3"])
    #expect(unseen.map(\.1) == [30])
    crowd.join(cy)
    #expect(cy.cursor == 3 && bob.crowd == nil && cy.crowd === crowd)
    #expect(crowd.members.map(\.id) == [ada.id, cy.id])
    // Far behind: over the bounds, named for the cut.
    for n in 4...10 { crowd.append(Frame(Array("f\(n)".utf8)), sequence: UInt64(10 * n)) }
    #expect(crowd.wantsTrim(frameLimit: 3, byteLimit: 1 << 20))
    #expect(crowd.laggards(frameLimit: 3, byteLimit: 1 << 20).count == 2)
    cy.cursor = crowd.head - 2
    #expect(crowd.laggards(frameLimit: 3, byteLimit: 1 << 20).map(\.id) == [ada.id])
    // Cy is 5 bytes behind ("f9", "f10").
    #expect(crowd.laggards(frameLimit: 100, byteLimit: 5).map(\.id) == [ada.id])
  }

  /// A member is marked staying by its crowd's look at a new list; a mark left by the crowd it
  /// watched before must not count in its new one.
  @Test func aMemberFromAnotherCrowdIsNotKeptByTheMarkThatCrowdLeft() {
    let old = Crowd()
    let new = Crowd()
    let xan = Self.member(1)
    let yu = Self.member(2)
    let state = { (id: ConnectionID) in [xan, yu].first { $0.id == id } }
    #expect(old.newMembers([xan.id], state: state).came == [xan.id])
    old.join(xan)
    #expect(old.newMembers([xan.id], state: state).came.isEmpty, "the old crowd's second look")
    #expect(new.newMembers([yu.id], state: state).came == [yu.id])
    new.join(yu)
    _ = old.leave(xan)
    new.join(xan)
    // The new crowd's second look, without Xan: he leaves, whatever the old crowd's mark says.
    let look = new.newMembers([yu.id], state: state)
    #expect(look.left.map(\.id) == [xan.id] && look.came.isEmpty)
  }

  @Test func aLeaversUnseenFramesGoAmongItsOwnInTheOrderTheyWereSent() {
    var queue = OutboundQueue(frameLimit: 10, byteLimit: 1 << 20)
    for (text, tag) in [("own1", UInt64(5)), ("own2", 20), ("own3", 40)] {
      let pushed = queue.push(Frame(Array(text.utf8)), tag: tag)
      #expect(pushed)
    }
    // Crowd frames 5, 10, 30: a crowd frame numbered as an own frame's tag came after it.
    queue.merge([
      (Frame(Array("c5".utf8)), 5), (Frame(Array("c10".utf8)), 10),
      (Frame(Array("c30".utf8)), 30),
    ])
    var order: [String] = []
    while let frame = queue.popFirst() {
      order.append(String(decoding: frame.payload, as: UTF8.self))
    }
    #expect(order == ["own1", "c5", "c10", "own2", "c30", "own3"])
    #expect(queue.byteCount == 0)
  }

  /// Fifty frames (one of them larger than a batch) for a crowd of eight clients, sent at once,
  /// with three sockets asked to write per pass: every client reads every frame, whole and in
  /// order, and a frame sent to one of them alone in their midst comes where it was sent. So
  /// too when the crowd may take a hundredth of the thread (``CrowdShare``): its writes wait
  /// for their share again and again, and the loop wakes for each (nothing else would wake it:
  /// no keepalive, nothing sent).
  @Test(arguments: [0, 0.01])
  func aCrowdReadsEveryFrameWholeAndInOrder(crowdShare: Double) async throws {
    var configuration = TransportConfiguration()
    configuration.port = 0
    configuration.crowdWritesPerPass = 3
    configuration.crowdShare = crowdShare
    // No keepalive: its PING would ask for a write, and hide a connection that waits for none.
    configuration.pingIdleSeconds = 0
    // No drain clock: the clients are read one after another, and on a loaded machine the last
    // ones wait longer than its 5 s with their windows shut (this test is about order and
    // completeness; the clock's own tests are DrainClockTests and the e2e slow readers).
    configuration.drainTimeoutSeconds = 0
    var logger = Logger(label: "crowd-test")
    logger.logLevel = .warning
    let metrics = ServerMetrics()
    let transport = WebSocketTransport(
      configuration: configuration, logger: logger, metrics: metrics.transport)
    try transport.start()
    // Nothing timed waits on the test's own tasks: the clients read on threads of their own,
    // and the server is not asked to echo anything (in a full run, hundreds of tests queue on
    // the task pool, and an echo could wait there past a client's 60-second read timeout).
    let port = transport.listeningPort
    var clients: [LoopbackClient] = []
    for _ in 0..<8 {
      clients.append(
        try await offPool {
          let client = try LoopbackClient(port: port)
          #expect(try client.upgrade().status == 101)
          return client
        })
    }
    // Each upgrade was answered before the next client connected: the ids come in their order.
    var events = transport.events.makeAsyncIterator()
    var ids: [ConnectionID] = []
    while ids.count < 8, let event = await events.next() {
      if case .opened(let id, _) = event { ids.append(id) }
    }
    #expect(ids.count == 8)
    let payloads: [[UInt8]] = (0..<50).map { index in
      let size = index == 20 ? 70_000 : index % 7 == 0 ? 200 : 20
      return Array("frame \(index) ".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: size)
    }
    // A frame for the first client alone, between the crowd's 25th and 26th: it reads it there.
    var commands = payloads.map { TransportCommand.sendToCrowd(Frame($0), to: ids) }
    commands.insert(.send(Frame(Array("between".utf8)), to: [ids[0]]), at: 25)
    transport.perform(commands)
    for (index, client) in clients.enumerated() {
      let read = try await offPool {
        try Self.read(index == 0 ? 51 : 50, from: client, named: "crowd member \(index)")
      }
      let expected =
        index == 0 ? Array(payloads[..<25]) + [Array("between".utf8)] + payloads[25...] : payloads
      #expect(read.map(\.payload) == expected)
    }
    // Held to a hundredth, the crowd waited for its share; unbounded, never.
    let waits = metrics.render().split(separator: "\n").first {
      $0.hasPrefix(MetricName.crowdShareWaits + " ")
    }.flatMap { Double($0.split(separator: " ")[1]) }
    #expect(crowdShare == 0 ? waits == 0 : (waits ?? 0) > 0, "\(String(describing: waits))")
    // The same frames for one player, at once (no crowd): the large one goes alone, and the rest
    // follow it.
    transport.perform(payloads.map { TransportCommand.send(Frame($0), to: [ids[1]]) })
    let player = clients[1]
    let read = try await offPool { try Self.read(50, from: player, named: "player") }
    #expect(read.map(\.payload) == payloads)
    await transport.shutdown(graceSeconds: 5)
    while await events.next() != nil {}
  }

  /// `count` frames read from `client`; a failure says whose read and which frame failed.
  static func read(_ count: Int, from client: LoopbackClient, named name: String) throws
    -> [LoopbackClient.Frame]
  {
    var frames: [LoopbackClient.Frame] = []
    for number in 0..<count {
      do {
        frames.append(try client.readFrame())
      } catch {
        throw ReadFailure(description: "\(name): frame \(number) of \(count): \(error)")
      }
    }
    return frames
  }

  struct ReadFailure: Error, CustomStringConvertible {
    let description: String
  }
}
