import Lobby
import Protocol
import Testing

@testable import Server

/// The bounded queue of questions about finished games: every question is queued or refused
/// at once with `unavailable`, in order, within both bounds.
@Suite struct RecordQueueTests {
  static func ask(_ connection: Int, _ id: Int) -> RecordRequest {
    RecordRequest(
      connection: ConnectionID(UInt64(connection)), replyTo: .int(id), kind: .record(id: "g1"))
  }

  static func refusal(_ frame: Frame?) -> JSONValue? {
    frame.flatMap { JSONValue.parse($0.payload) }
  }

  @Test func oneConnectionMayHaveOnlySoManyQuestionsWaitingOrBeingAnswered() throws {
    var queue = RecordQueue(perConnection: 2, capacity: 100)
    #expect(queue.submit(Self.ask(1, 1), ticket: 5) == nil)
    #expect(queue.submit(Self.ask(1, 2), ticket: 6) == nil)
    let refused = try #require(Self.refusal(queue.submit(Self.ask(1, 3), ticket: 7)))
    #expect(refused["type"] == "error" && refused["code"] == "unavailable")
    #expect(refused["replyTo"] == .int(3))
    // Another connection is not held back by the first.
    #expect(queue.submit(Self.ask(2, 1), ticket: 7) == nil)
    // Taken to be answered still counts; answered, it frees a place.
    let first = try #require(queue.next() as (request: RecordRequest, ticket: UInt64)?)
    #expect(first.request.replyTo == .int(1) && first.ticket == 5)
    #expect(queue.submit(Self.ask(1, 4), ticket: 8) != nil)
    queue.answered(first.request)
    #expect(queue.submit(Self.ask(1, 5), ticket: 9) == nil)
    // In the order they came.
    #expect(queue.next()?.request.replyTo == .int(2))
    #expect(queue.next()?.request.connection == ConnectionID(2))
    #expect(queue.next()?.request.replyTo == .int(5))
    #expect(queue.next() == nil)
  }

  @Test func allTogetherMayHaveOnlySoManyWaiting() throws {
    var queue = RecordQueue(perConnection: 1, capacity: 3)
    for connection in 1...3 { #expect(queue.submit(Self.ask(connection, 1), ticket: 1) == nil) }
    let refused = try #require(Self.refusal(queue.submit(Self.ask(4, 1), ticket: 1)))
    #expect(refused["code"] == "unavailable")
    #expect(queue.count == 3)
    // One taken to be answered leaves a place in the queue (its connection still counts).
    let taken = try #require(queue.next() as (request: RecordRequest, ticket: UInt64)?)
    #expect(queue.submit(Self.ask(4, 2), ticket: 1) == nil)
    #expect(queue.submit(Self.ask(Int(taken.request.connection.rawValue), 2), ticket: 1) != nil)
    queue.answered(taken.request)
    #expect(queue.asked[taken.request.connection] == nil, "no entry left for a quiet connection")
  }

  @Test func aLongRunKeepsOrderAndLetsGoOfWhatWasAnswered() throws {
    var queue = RecordQueue(perConnection: 1_000, capacity: 1_000)
    var expected = 0
    for round in 0..<50 {
      for i in 0..<40 { #expect(queue.submit(Self.ask(1, round * 40 + i), ticket: 0) == nil) }
      for _ in 0..<40 {
        let next = try #require(queue.next() as (request: RecordRequest, ticket: UInt64)?)
        #expect(next.request.replyTo == .int(expected))
        expected += 1
        queue.answered(next.request)
      }
    }
    #expect(queue.count == 0 && queue.asked.isEmpty)
  }
}
