import Foundation
import Lobby
import Protocol
import Synchronization
import Testing

@testable import Server

/// The sharded lobby's routing: everything but the seated players' messages goes to the desk,
/// and a player's move to its shard's executor, which is never the desk when there are two
/// executors or more. So a crowd's messages never stand in a player's queue.
@Suite(.ownThread) struct ShardedDeskTests {
  /// Which executor thread handed over each message, in the order handed.
  final class Log: Sendable {
    let sent = Mutex<[(to: ConnectionID, message: JSONValue, thread: String)]>([])

    func perform(_ actions: [LobbyAction]) {
      let thread = Thread.current.name ?? "?"
      sent.withLock { sent in
        for action in actions {
          switch action {
          case .send(let frame, let to), .sendToCrowd(let frame, let to):
            let message = JSONValue.parse(frame.payload)!
            for connection in to { sent.append((connection, message, thread)) }
          default: break
          }
        }
      }
    }

    /// The thread that handed over the reply to message `id` of `connection`, once there is one.
    func replier(to connection: ConnectionID, id: Int) -> String? {
      sent.withLock {
        $0.first { $0.to == connection && $0.message["replyTo"]?.intValue == id }?.thread
      }
    }
  }

  @Test(arguments: [2, 3, 8])
  func aCrowdGoesToTheDeskAndAPlayersMoveToItsShardsExecutor(executors: Int) async throws {
    var configuration = LobbyConfiguration()
    configuration.countdown = 0
    let lobby = ShardedLobby(
      state: LobbyState(configuration: configuration, entropy: .system, shards: executors),
      now: MonotonicClock.now)
    let log = Log()
    lobby.attach(perform: { actions, _ in log.perform(actions) }, consumed: { _ in })
    lobby.start()
    defer { lobby.stop() }
    var commands: [TransportCommand] = []
    func send(_ text: String, from connection: ConnectionID) {
      lobby.handle(
        .message(connection, Array(text.utf8), receivedAt: MonotonicClock.now()),
        now: MonotonicClock.now(), commands: &commands)
    }
    // Ada and Bob play a table of two; a crowd of newcomers (whose numbers would have spread
    // them over every executor) says hello and watches it.
    let ada = ConnectionID(1)
    let bob = ConnectionID(2)
    for player in [ada, bob] {
      lobby.handle(.opened(player, address: nil), now: 0, commands: &commands)
      send(#"{"type":"hello","id":1,"name":"P\#(player.rawValue)"}"#, from: player)
      send(#"{"type":"quickMatch","id":2,"game":"set","seats":2}"#, from: player)
    }
    try await lobby.eventually("the table dealt") {
      lobby.withState { state in
        state.tableIDs.count == 1
          && state.tableIDs.allSatisfy { state.table($0)?.listing.phase == .playing }
      }
    }
    send(#"{"type":"resync","id":3}"#, from: ada)
    try await lobby.eventually("Ada has a board") { log.replier(to: ada, id: 3) != nil }
    let (table, shard) = try #require(
      lobby.withState { state -> (String, Int)? in
        guard let table = state.tableIDs.first, let shard = state.playingShard(of: ada)
        else { return nil }
        return (table, shard)
      })
    let crowd = (100..<(100 + 4 * executors)).map { ConnectionID(UInt64($0)) }
    for connection in crowd {
      lobby.handle(.opened(connection, address: nil), now: 0, commands: &commands)
      send(#"{"type":"hello","id":1,"name":"Crowd"}"#, from: connection)
      send(#"{"type":"spectate","id":2,"table":"\#(table)"}"#, from: connection)
    }
    let board = log.sent.withLock { sent in
      sent.last { $0.to == ada && $0.message["type"]?.stringValue == "snapshot" }?.message
    }
    let card = try #require(board?["table"]?["board"]?.elements?.first?["id"]?.intValue)
    send(#"{"type":"choose","id":4,"card":\#(card)}"#, from: ada)
    try await lobby.eventually("everyone answered") {
      log.replier(to: ada, id: 4) != nil
        && crowd.allSatisfy { log.replier(to: $0, id: 2) != nil }
    }

    // The crowd's hellos and spectates: the desk's, every one.
    let desk = "lobby-\(ShardedLobby.desk)"
    for connection in crowd {
      #expect(log.replier(to: connection, id: 1) == desk)
      #expect(log.replier(to: connection, id: 2) == desk)
    }
    // Ada's move: her shard's executor's, which is not the desk's.
    let mover = lobby.executor(ofShard: shard)
    #expect(mover != ShardedLobby.desk)
    #expect(log.replier(to: ada, id: 4) == "lobby-\(mover)")
  }

  @Test func withOneExecutorTheDeskDecidesEverything() {
    let lobby = ShardedLobby(
      state: LobbyState(configuration: LobbyConfiguration(), entropy: .system, shards: 1),
      now: MonotonicClock.now)
    #expect((0..<4).map(lobby.executor(ofShard:)) == [0, 0, 0, 0])
  }

  @Test func theShardsShareTheExecutorsButTheDesk() {
    let lobby = ShardedLobby(
      state: LobbyState(configuration: LobbyConfiguration(), entropy: .system, shards: 4),
      now: MonotonicClock.now)
    #expect((0..<4).map(lobby.executor(ofShard:)) == [1, 2, 3, 1])
  }
}
