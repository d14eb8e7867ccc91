import Lobby
import Protocol
import Synchronization
import Testing

/// An in-memory transport: remembers every message sent and every connection closed, in order.
final class OutboundRecorder: Sendable {
  /// One thing the lobby or a table asked the transport to do.
  enum Entry: Sendable, Equatable {
    case sent(bytes: [UInt8], to: [ConnectionID])
    case closed(ConnectionID, code: UInt16, reason: String)
  }

  /// One message as a client receives it.
  struct Delivery: Sendable, Equatable {
    let message: JSONValue
    /// The message exactly as sent.
    let bytes: [UInt8]
    let recipients: Set<ConnectionID>
  }

  private let entries = Mutex<[Entry]>([])

  /// Records what the lobby asked for, in order.
  func record(_ actions: [LobbyAction]) {
    entries.withLock { entries in
      for action in actions {
        switch action {
        case .send(let frame, let connections), .sendToCrowd(let frame, let connections),
          .sendAtOnce(let frame, let connections):
          entries.append(.sent(bytes: frame.payload, to: connections))
        case .close(let connection, let code, let reason),
          .closeAtOnce(let connection, let code, let reason):
          entries.append(.closed(connection, code: code, reason: reason))
        case .journal, .query:
          // These lobbies do not journal (LobbyConfiguration.journal is off).
          Issue.record("a journal entry or query from a lobby that does not journal")
        case .publish, .missedGuess, .findSession, .connect:
          Issue.record("a cluster's action from a lobby that is no node of one")
        case .log(.arenaFinished):
          break
        case .log(let line):
          Issue.record("a line for the log from a lobby that is no node of a cluster: \(line)")
        }
      }
    }
  }

  /// Everything recorded since the last call, which forgets it.
  func take() -> [Entry] {
    entries.withLock { entries in
      defer { entries = [] }
      return entries
    }
  }

  /// The messages sent since the last `take`, parsed, forgetting them. Throws on a close or on
  /// bytes that are not JSON.
  func takeDeliveries() throws -> [Delivery] {
    try take().map { entry in
      guard case .sent(let bytes, let recipients) = entry else {
        throw UnexpectedEntry(entry: entry)
      }
      guard let message = JSONValue.parse(bytes) else { throw UnexpectedEntry(entry: entry) }
      return Delivery(message: message, bytes: bytes, recipients: Set(recipients))
    }
  }

  struct UnexpectedEntry: Error {
    let entry: Entry
  }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
  private let seconds = Mutex<Double>(0)

  /// The time now.
  var now: Double { seconds.withLock { $0 } }

  /// Moves the clock to `time`.
  func set(_ time: Double) { seconds.withLock { $0 = time } }

  /// The clock as the lobby reads it.
  var reader: @Sendable () -> Double { { self.now } }
}

/// Hands out "token-1", "token-2", … in order.
final class TokenSequence: Sendable {
  private let count = Mutex(0)

  func next() -> String {
    count.withLock {
      $0 += 1
      return "token-\($0)"
    }
  }
}
