import Foundation
import Lobby
import Protocol
import Synchronization
import TestSupport
import Testing

@testable import Server

/// `ShardedLobby` run for real: its executor threads decide while the test, playing the
/// transport's service thread, hands it events. What comes out must be what one undivided
/// lobby would send: every message answered once, in each connection's order, and every
/// table's diffs to each member in version order with no gap.
@Suite(.ownThread) struct ShardedLobbyTests {
  /// What the executors handed to the transport, in order, and which thread handed it.
  final class Outbox: Sendable {
    let inbox = Mutex<[ConnectionID: [JSONValue]]>([:])
    let threads = Mutex<Set<UInt>>([])
    let consumed = Mutex(0)

    func perform(_ actions: [LobbyAction]) {
      let thread = UInt(pthread_self())
      threads.withLock { _ = $0.insert(thread) }
      inbox.withLock { inbox in
        for action in actions {
          switch action {
          case .send(let frame, let to), .sendToCrowd(let frame, let to):
            let message = JSONValue.parse(frame.payload)!
            for connection in to { inbox[connection, default: []].append(message) }
          default: break
          }
        }
      }
    }

    /// Every message each connection received, parsed, in order.
    func received() -> [ConnectionID: [JSONValue]] { inbox.withLock { $0 } }
  }

  /// The ids of the connection's own messages that `messages` (all it received, in order)
  /// answer: a diff answers its mover (the diff names the mover's seat; the others at the table
  /// receive the same frame), anything else with a `replyTo` answers its only recipient.
  static func replies(in messages: [JSONValue]) -> [Int] {
    var seats: [String: Int] = [:]
    var ids: [Int] = []
    for message in messages {
      if message["type"]?.stringValue == "snapshot", let table = message["table"] {
        seats[table["id"]!.stringValue!] = table["you"]?.intValue
      }
      guard let id = message["replyTo"]?.intValue else { continue }
      if message["type"]?.stringValue == "diff" {
        let table = message["table"]!.stringValue!
        guard let seat = message["seat"]?.intValue, seat == seats[table] else { continue }
      }
      ids.append(id)
    }
    return ids
  }

  @Test func twoExecutorsAnswerEveryMessageInOrderWithContiguousDiffs() async throws {
    var configuration = LobbyConfiguration()
    configuration.countdown = 0
    let state = LobbyState(configuration: configuration, entropy: .system, shards: 2)
    let lobby = ShardedLobby(state: state, now: MonotonicClock.now)
    let outbox = Outbox()
    lobby.attach(
      perform: { actions, _ in outbox.perform(actions) },
      consumed: { bytes in outbox.consumed.withLock { $0 += bytes } })
    lobby.start()
    defer { lobby.stop() }

    var commands: [TransportCommand] = []
    var sentBytes = 0
    var lastID: [ConnectionID: Int] = [:]
    func send(_ text: String, from connection: ConnectionID) {
      let id = lastID[connection, default: 0] + 1
      lastID[connection] = id
      var message = text
      message.removeLast()
      message += #","id":\#(id)}"#
      sentBytes += message.utf8.count
      lobby.handle(
        .message(connection, Array(message.utf8), receivedAt: MonotonicClock.now()),
        now: MonotonicClock.now(), commands: &commands)
    }
    func answered() -> Bool {
      let inbox = outbox.received()
      return lastID.allSatisfy { connection, id in
        Self.replies(in: inbox[connection, default: []]).last == id
      }
    }

    // 40 players in pairs at 20 tables (dealt at once: no countdown), 10 spectators.
    let players = (1...40).map { ConnectionID(UInt64($0)) }
    let spectators = (41...50).map { ConnectionID(UInt64($0)) }
    for connection in players + spectators {
      lobby.handle(.opened(connection, address: nil), now: 0, commands: &commands)
      send(#"{"type":"hello","name":"P\#(connection.rawValue)"}"#, from: connection)
    }
    for connection in players {
      send(#"{"type":"quickMatch","game":"set","seats":2}"#, from: connection)
    }
    try await lobby.eventually("every table dealt") {
      lobby.withState { state in
        state.tableIDs.count == 20
          && state.tableIDs.allSatisfy { state.table($0)?.listing.phase == .playing }
      }
    }
    for (index, connection) in spectators.enumerated() {
      send(#"{"type":"spectate","table":"t\#(index * 2 + 1)"}"#, from: connection)
    }
    for connection in players { send(#"{"type":"resync"}"#, from: connection) }
    try await lobby.eventually("every player has a board", answered)

    // Each player's board, from its resync.
    var boards: [ConnectionID: [Int]] = [:]
    for (connection, messages) in outbox.received() where players.contains(connection) {
      let snapshot = messages.last { $0["type"]?.stringValue == "snapshot" }
      boards[connection] = snapshot?["table"]?["board"]?.elements?.compactMap {
        $0["id"]?.intValue
      }
    }
    #expect(boards.count == 40)
    // 12 cards, or more where the first 12 held no set.
    #expect(boards.values.allSatisfy { $0.count >= 12 }, "\(boards.values.map(\.count))")

    // A burst of moves from everyone at once, some of them cards long gone.
    var random = SystemRandomNumberGenerator()
    for round in 0..<40 {
      for connection in players {
        let board = boards[connection] ?? []
        let card =
          round % 7 == 6 ? 200 + round : board[Int.random(in: 0..<board.count, using: &random)]
        send(#"{"type":"choose","card":\#(card)}"#, from: connection)
      }
    }
    try await lobby.eventually("every move answered", answered)
    lobby.stop()

    let inbox = outbox.received()
    for (connection, messages) in inbox {
      // Replies come in the order of the connection's messages, each once.
      let replies = Self.replies(in: messages)
      #expect(replies == Array(1...lastID[connection]!), "replies to \(connection)")
      // Each table's diffs in version order with no gap after the member's snapshot.
      var versions: [String: Int] = [:]
      for message in messages {
        switch message["type"]?.stringValue {
        case "snapshot":
          let table = message["table"]!
          versions[table["id"]!.stringValue!] = table["version"]!.intValue!
        case "diff":
          let table = message["table"]!.stringValue!
          let version = message["version"]!.intValue!
          if let last = versions[table] {
            #expect(version == last + 1, "\(connection) got \(table) v\(version) after v\(last)")
          }
          versions[table] = version
        default:
          break
        }
      }
    }
    // Both executors decided moves; every byte handed over was acknowledged.
    #expect(outbox.threads.withLock { $0.count } == 2)
    #expect(outbox.consumed.withLock { $0 } == sentBytes)
    let statistics = lobby.withState { $0.statistics }
    #expect(statistics.movesAccepted + statistics.movesRejected.values.reduce(0, +) == 40 * 40)
    #expect(statistics.movesAccepted > 40 * 40 / 2)
  }
}
