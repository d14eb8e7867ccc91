import Foundation
import Logging
import Protocol
import Testing

@testable import Server

/// The drain check a few connections a pass (issue 36): a sweep's steps, the list it compacts,
/// and a loop that takes the steps until the last watched connection is looked at.
@Suite(.ownThread) struct DrainSweepTests {
  /// Runs a sweep over `list` the way the loop does, keeping the ids `keep` says; returns the
  /// list after it and the sizes of the steps.
  private static func sweep(
    _ list: inout [Int], appendingDuring appended: [Int] = [], keep: (Int) -> Bool
  ) -> [Int] {
    var sweep = DrainSweep()
    let begun = sweep.begin(count: list.count)
    #expect(begun)
    var steps: [Int] = []
    repeat {
      let range = sweep.step()
      steps.append(range.count)
      for index in range where keep(list[index]) { list[sweep.keep()] = list[index] }
      // What is watched meanwhile joins the list's end.
      if steps.count == 1 { list += appended }
    } while sweep.isUnderWay
    let dropped = sweep.finish()
    #expect(dropped != nil)
    list.removeSubrange(dropped!)
    let again = sweep.finish()
    #expect(again == nil, "a sweep ends once")
    return steps
  }

  @Test func aSweepLooksAtAFewAPassAndKeepsWhatStaysWatched() {
    var list = Array(0..<150)
    let steps = Self.sweep(&list, appendingDuring: [1000, 1001]) { $0 % 3 == 0 }
    #expect(steps == [64, 64, 22])
    #expect(steps.allSatisfy { $0 <= DrainSweep.perStep })
    // The kept ones in their order, then those watched during the sweep, left for the next.
    #expect(list == Array(stride(from: 0, to: 150, by: 3)) + [1000, 1001])
  }

  @Test func anEmptyWatchEndsAtOnceAndASweepIsNotBegunTwice() {
    var sweep = DrainSweep()
    let empty = sweep.begin(count: 0)
    let none = sweep.step()
    #expect(empty && !sweep.isUnderWay && none.isEmpty)
    let nothingDropped = sweep.finish()
    #expect(nothingDropped == 0..<0)
    let long = sweep.begin(count: 200)
    _ = sweep.step()
    let twice = sweep.begin(count: 10)
    #expect(long && !twice, "the check that comes mid-sweep lets it go on")
    #expect(sweep.isUnderWay && sweep.end == 200)
    let early = sweep.finish()
    #expect(early == nil)
  }

  @Test func aSweepCountsTheBlockedAndTheLargest() {
    var sweep = DrainSweep()
    _ = sweep.begin(count: 3)
    _ = sweep.step()
    sweep.noteBlocked(bytes: 500)
    sweep.noteBlocked(bytes: 70)
    let dropped = sweep.finish()
    #expect(dropped == 0..<3)
    #expect(sweep.blocked == 2 && sweep.largestBlocked == 500)
    let next = sweep.begin(count: 1)
    #expect(next && sweep.blocked == 0 && sweep.largestBlocked == 0)
  }

  /// A hundred connections sent a frame each, the last of them also sent far more than its
  /// peer (which never reads) lets through: the drain checks' sweeps look at the others a step
  /// at a time, come to it and cut it (`matchismo_not_reading_cuts_total`), and nobody else.
  /// The loop must take each sweep's steps on its own: a sweep left at its first step is never
  /// over, no other begins, and the last connection is never looked at.
  @Test(.timeLimit(.minutes(1))) func theLastOfManyWatchedConnectionsIsCutWhenItStopsReading()
    async throws
  {
    var configuration = TransportConfiguration()
    configuration.port = 0
    configuration.drainTimeoutSeconds = 0.3
    configuration.drainCheckInterval = 0.02
    configuration.pingIdleSeconds = 0
    var logger = Logger(label: "drain-sweep-test")
    logger.logLevel = .warning
    let metrics = ServerMetrics()
    let transport = WebSocketTransport(
      configuration: configuration, logger: logger, metrics: metrics.transport)
    try transport.start()
    let port = transport.listeningPort
    let count = 100
    #expect(count > DrainSweep.perStep)
    var clients: [LoopbackClient] = []
    for _ in 0..<count {
      clients.append(
        try await offPool {
          let client = try LoopbackClient(port: port)
          #expect(try client.upgrade().status == 101)
          return client
        })
    }
    var events = transport.events.makeAsyncIterator()
    var ids: [ConnectionID] = []
    while ids.count < count, let event = await events.next() {
      if case .opened(let id, _) = event { ids.append(id) }
    }
    let silent = ids[count - 1]
    let large = Frame([UInt8](repeating: UInt8(ascii: "x"), count: 60_000))
    transport.perform(
      [.send(Frame(Array("hello".utf8)), to: ids)]
        + Array(repeating: .send(large, to: [silent]), count: 20))
    var closed: [ConnectionID] = []
    while let event = await events.next() {
      guard case .closed(let id) = event else { continue }
      closed.append(id)
      if id == silent { break }
    }
    #expect(closed == [silent])
    let cuts = metrics.render().split(separator: "\n").first {
      $0.hasPrefix(MetricName.notReadingCuts + " ")
    }.flatMap { Double($0.split(separator: " ")[1]) }
    #expect(cuts == 1)
    // The others read their frame, and are open still.
    for client in clients.dropLast() {
      let frame = try await offPool { try client.readFrame() }
      #expect(frame.payload == Array("hello".utf8))
    }
    for client in clients { client.hangUp() }
    await transport.shutdown(graceSeconds: 5)
  }
}
