import Lobby
import Protocol

/// The questions about finished games waiting for the records thread, in the order they came.
///
/// Answering one can take a while (a page read from the store, a game played again), so the
/// queue is bounded twice: each connection may have at most ``perConnection`` questions
/// waiting or being answered, and all of them together at most ``capacity`` waiting. A question
/// over either bound is refused at once with `unavailable`, so a client that asks faster than
/// it is answered (or many of them) neither grows the server's memory nor pushes everyone
/// else's questions back. Every question gets an answer: the one it asked for, or the refusal.
///
/// A pure value: ``RecordReader`` runs it under its lock.
struct RecordQueue {
  /// Most questions one connection may have waiting or being answered.
  let perConnection: Int
  /// Most questions waiting, from every connection.
  let capacity: Int

  /// Questions waiting, oldest first, with the journal ticket each waits for.
  private var waiting = FIFO<(request: RecordRequest, ticket: UInt64)>()
  /// Questions waiting or being answered, by connection (no entry: none).
  private(set) var asked: [ConnectionID: Int] = [:]

  /// An empty queue with these bounds.
  init(perConnection: Int = 8, capacity: Int = 512) {
    precondition(perConnection > 0 && capacity > 0)
    self.perConnection = perConnection
    self.capacity = capacity
  }

  /// How many questions wait.
  var count: Int { waiting.count }

  /// Queues `request`, to be answered once the journal has written `ticket`; or, over a bound,
  /// returns the refusal to send its connection instead.
  mutating func submit(_ request: RecordRequest, ticket: UInt64) -> Frame? {
    let connection = request.connection
    if asked[connection, default: 0] >= perConnection {
      return Self.refusal(
        "You have \(perConnection) questions about finished games waiting; ask again once they are answered.",
        replyTo: request.replyTo)
    }
    if count >= capacity {
      return Self.refusal(
        "Too many questions about finished games are waiting; ask again in a moment.",
        replyTo: request.replyTo)
    }
    asked[connection, default: 0] += 1
    waiting.append((request, ticket))
    return nil
  }

  /// The oldest question waiting, now being answered, or nil when none waits.
  mutating func next() -> (request: RecordRequest, ticket: UInt64)? {
    waiting.popFirst()
  }

  /// Records that `request`, taken by ``next()``, has been answered: its connection may ask
  /// another.
  mutating func answered(_ request: RecordRequest) {
    let connection = request.connection
    guard let questions = asked[connection] else { return }
    asked[connection] = questions > 1 ? questions - 1 : nil
  }

  private static func refusal(_ message: String, replyTo: MessageID?) -> Frame {
    Frame(ServerMessage.error(ProtocolError(.unavailable, message, replyTo: replyTo)))
  }
}
