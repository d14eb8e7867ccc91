import Foundation
import Lobby
import Protocol
import Synchronization
import Testing

@testable import Server

/// The sharded lobby's executors decide a player's move before a crowd's messages that arrived
/// with it (``Admission``, one per executor): a storm of newcomers does not hold the move up.
@Suite(.ownThread) struct ShardedAdmissionTests {
  /// Every message the executors handed to the transport, in the order handed.
  final class Log: Sendable {
    let sent = Mutex<[(to: ConnectionID, message: JSONValue)]>([])

    func perform(_ actions: [LobbyAction]) {
      sent.withLock { sent in
        for action in actions {
          switch action {
          case .send(let frame, let to), .sendToCrowd(let frame, let to):
            let message = JSONValue.parse(frame.payload)!
            for connection in to { sent.append((connection, message)) }
          default: break
          }
        }
      }
    }

    func replied(to connection: ConnectionID, id: Int) -> Bool {
      sent.withLock { $0.contains { $0.to == connection && $0.message["replyTo"]?.intValue == id } }
    }
  }

  @Test func aMoveIsDecidedBeforeTheCrowdThatArrivedWithIt() async throws {
    var configuration = LobbyConfiguration()
    configuration.countdown = 0
    let lobby = ShardedLobby(
      state: LobbyState(configuration: configuration, entropy: .system, shards: 1),
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

    // Ada and Bob play a table of two.
    let ada = ConnectionID(1)
    let bob = ConnectionID(2)
    for player in [ada, bob] {
      lobby.handle(.opened(player, address: nil), now: 0, commands: &commands)
      send(#"{"type":"hello","id":1,"name":"P\#(player.rawValue)"}"#, from: player)
      send(#"{"type":"quickMatch","id":2,"game":"set","seats":2}"#, from: player)
    }
    send(#"{"type":"resync","id":3}"#, from: ada)
    try await lobby.eventually("Ada has a board") { log.replied(to: ada, id: 3) }
    let board = log.sent.withLock { sent in
      sent.last { $0.to == ada && $0.message["type"]?.stringValue == "snapshot" }?.message
    }
    let card = try #require(board?["table"]?["board"]?.elements?.first?["id"]?.intValue)

    // 300 newcomers say hello, and Ada's move arrives behind them, while the executor waits
    // for the state (held here): they reach it together.
    let crowd = (1000..<1300).map { ConnectionID(UInt64($0)) }
    lobby.withState { _ in
      for connection in crowd {
        lobby.handle(.opened(connection, address: nil), now: 0, commands: &commands)
        send(#"{"type":"hello","id":1,"name":"Crowd"}"#, from: connection)
      }
      send(#"{"type":"choose","id":4,"card":\#(card)}"#, from: ada)
    }
    // The barrier: Ada's move is answered once the executor has taken the batch it came in.
    // No pass of the transport's loop has ended since: the crowd's messages past the budget
    // still wait for one.
    let limit = Date(timeIntervalSinceNow: 60)
    while !log.replied(to: ada, id: 4) {
      try #require(Date() < limit, "Ada's move answered")
      try await Task.sleep(for: .milliseconds(5))
    }
    let welcomes = { (sent: ArraySlice<(to: ConnectionID, message: JSONValue)>) in
      sent.filter { crowd.contains($0.to) && $0.message["type"]?.stringValue == "welcome" }
    }
    let atTheMove = log.sent.withLock { $0 }
    let move = try #require(
      atTheMove.firstIndex { $0.to == ada && $0.message["replyTo"]?.intValue == 4 })
    #expect(atTheMove[move].message["type"]?.stringValue == "diff")
    // It went out after at most two budgets of welcomes (the executor may have taken a first
    // part of the crowd as a batch of its own before the state was let go), not after all 300;
    // and nothing more is decided before the transport's next pass.
    let before = welcomes(atTheMove[..<move]).count
    #expect(before <= 2 * AdmissionBudget.perPass, "\(before) welcomes first")
    #expect(welcomes(atTheMove[...]).count <= 2 * AdmissionBudget.perPass)
    // Each pass of the transport's loop lets a budget more in, until everyone is answered.
    try await lobby.eventually("everyone answered") {
      crowd.allSatisfy { log.replied(to: $0, id: 1) }
    }
    let sent = log.sent.withLock { $0 }
    // Every newcomer was welcomed once.
    let welcomed = welcomes(sent[...])
    #expect(welcomed.count == crowd.count)
    #expect(Set(welcomed.map(\.to)).count == crowd.count)
  }
}

extension ShardedAdmissionTests {
  @Test func aStoppingLobbyDecidesWhatWaitsBeforeItsExecutorsEnd() async throws {
    let (lobby, log) = Self.startedLobby(shards: 2)
    // 300 hellos reach the executors together, more than a pass's budget; no pass of the
    // transport's loop ends after them (it is stopping too).
    let crowd = (1000..<1300).map { ConnectionID(UInt64($0)) }
    Self.hellos(from: crowd, reachingTogether: lobby)
    await lobby.drain()
    // Everyone was answered before the executors ended: nothing that waited was dropped.
    #expect(crowd.allSatisfy { log.replied(to: $0, id: 1) })
  }
}

extension ShardedAdmissionTests {
  /// The executors share one budget a pass: eight executors with a storm each decide no more
  /// between two passes of the transport's loop than one would (with a budget each, eight times
  /// as much: 15 executors let a join storm of 10,000 hold the players' moves 380 ms).
  @Test func everyExecutorSpendsOnePassBudget() async throws {
    let (lobby, log) = Self.startedLobby(shards: 8)
    defer { lobby.stop() }
    // 400 hellos, 50 for each executor, reach them together (handed to each straight: the
    // service thread sends them all to the desk, but a seated player's messages go to its
    // shard's executor, and they may be more than a budget too).
    let crowd = (1000..<1400).map { ConnectionID(UInt64($0)) }
    Self.hellos(from: crowd, reachingTogether: lobby)
    // The barrier: every executor has taken its batch and has some of it waiting for the next
    // pass (no pass of the transport's loop ends here); then the state held exclusively, which
    // each executor lets go only after handing its frames over.
    let limit = Date(timeIntervalSinceNow: 60)
    while !lobby.admissions.allSatisfy({ $0.waiting.load(ordering: .sequentiallyConsistent) }) {
      try #require(Date() < limit, "every executor has something waiting")
      try await Task.sleep(for: .milliseconds(5))
    }
    lobby.withState { _ in }
    let answered = crowd.filter { log.replied(to: $0, id: 1) }.count
    #expect(answered <= AdmissionBudget.perPass, "\(answered) answered in one pass")
    // Each pass lets a budget more in, until everyone is answered once.
    try await lobby.eventually("everyone answered") {
      crowd.allSatisfy { log.replied(to: $0, id: 1) }
    }
  }
}

extension ShardedAdmissionTests {
  /// A sharded lobby of `shards` executors, started, whose frames go to the log.
  static func startedLobby(shards: Int) -> (ShardedLobby, Log) {
    let lobby = ShardedLobby(
      state: LobbyState(configuration: LobbyConfiguration(), entropy: .system, shards: shards),
      now: MonotonicClock.now)
    let log = Log()
    lobby.attach(perform: { actions, _ in log.perform(actions) }, consumed: { _ in })
    lobby.start()
    return (lobby, log)
  }

  /// Each of `crowd` says hello while the state is held, so that the executors find every
  /// hello queued together when they get it; a connection's hello goes to the executor its
  /// number names, so that every executor has its share.
  static func hellos(from crowd: [ConnectionID], reachingTogether lobby: ShardedLobby) {
    lobby.withState { _ in
      for connection in crowd {
        let route = ConnectionRoute()
        let executor = Int(connection.rawValue % UInt64(lobby.executors.count))
        lobby.executors[route.take(default: executor)].post(
          .message(
            connection, Array(#"{"type":"hello","id":1,"name":"Crowd"}"#.utf8),
            receivedAt: MonotonicClock.now(), route))
      }
    }
  }
}
