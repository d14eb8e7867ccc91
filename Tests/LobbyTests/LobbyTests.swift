import Lobby
import Logging
import Model
import Protocol
import Synchronization
import TestSupport
import Testing

/// A lobby wired to an in-memory transport, a fixed seed, predictable tokens and a hand clock.
struct LobbyHarness {
  static let seed: UInt64 = 42
  let outbound = OutboundRecorder()
  let clock = ManualClock()
  let lobby: LobbyDriver

  init(grace: Double = 60) {
    var configuration = LobbyConfiguration()
    configuration.reconnectGrace = grace
    self.init(configuration: configuration)
  }

  init(configuration: LobbyConfiguration, today: String = "2026-01-01") {
    // Lobby changes go out at once here; coalescing has a test of its own.
    var configuration = configuration
    if configuration.lobbyFlushInterval == LobbyConfiguration().lobbyFlushInterval {
      configuration.lobbyFlushInterval = 0
    }
    let tokens = TokenSequence()
    let codes = Mutex(SeededGenerator(seed: 7))
    let entropy = LobbyEntropy(
      seed: { Self.seed }, token: { tokens.next() },
      below: { n in codes.withLock { $0.below(n) } }, today: { today })
    lobby = LobbyDriver(
      state: LobbyState(configuration: configuration, entropy: entropy), outbound: outbound,
      now: clock.reader)
  }

  /// Sends `text` from `connection` and returns what was sent in answer.
  @discardableResult
  func send(_ text: String, from connection: ConnectionID) async throws
    -> [OutboundRecorder.Delivery]
  {
    lobby.received(Array(text.utf8), from: connection)
    return try outbound.takeDeliveries()
  }

  /// Says hello and takes a solo Set table, returning the session token and the snapshot.
  @discardableResult
  func seatSolo(_ connection: ConnectionID, name: String = "Ada") async throws -> (
    token: String, snapshot: JSONValue
  ) {
    let welcome = try await send(#"{"type":"hello","id":1,"name":"\#(name)"}"#, from: connection)
    let token = try #require(welcome.first?.message["session"]?.stringValue)
    let answer = try await send(#"{"type":"playSolo","id":2,"game":"set"}"#, from: connection)
    let snapshot = try #require(answer.first?.message)
    return (token, snapshot)
  }
}

/// The one message of `deliveries`, which must all be for `connection` only.
func only(
  _ deliveries: [OutboundRecorder.Delivery], to connection: ConnectionID,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> JSONValue {
  try #require(deliveries.count == 1, "\(deliveries)", sourceLocation: sourceLocation)
  #expect(deliveries[0].recipients == [connection], sourceLocation: sourceLocation)
  return deliveries[0].message
}

/// Expects `message` to be an error with `code` answering `replyTo`.
func expectError(
  _ message: JSONValue, _ code: ErrorCode, replyTo: JSONValue?,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(message["type"] == "error", "\(message.text)", sourceLocation: sourceLocation)
  #expect(
    message["code"] == .string(code.rawValue), "\(message.text)", sourceLocation: sourceLocation)
  #expect(message["replyTo"] == replyTo, sourceLocation: sourceLocation)
  #expect(message["message"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
}

@Suite struct LobbyTests {
  let c1 = ConnectionID(1)
  let c2 = ConnectionID(2)
  let c3 = ConnectionID(3)

  @Test func helloIsWelcomedWithASessionTokenAndTheNodesID() async throws {
    var configuration = LobbyConfiguration()
    configuration.nodeID = "n7"
    let harness = LobbyHarness(configuration: configuration)
    let answer = try await harness.send(
      #"{"type":"hello","id":1,"name":"Ada","games":true}"#, from: c1)
    let welcome = try only(answer, to: c1)
    #expect(welcome["node"] == "n7")
    let expected = ServerMessage.welcome(
      replyTo: .int(1), session: "token-1", name: "Ada", resumed: false, maxMessageBytes: 8192,
      node: "n7", gamesVersion: GameCatalog.registry.descriptionsVersion,
      games: GameCatalog.registry.descriptionsJSON)
    #expect(welcome == expected)
    #expect(answer.first?.bytes == expected.encoded)
    #expect(harness.lobby.sessionCount == 1)
    #expect(harness.lobby.tableCount == 0)
  }

  @Test func helloWithoutANameIsPlayer() async throws {
    let harness = LobbyHarness()
    let welcome = try only(await harness.send(#"{"type":"hello","name":"  "}"#, from: c1), to: c1)
    #expect(welcome["name"] == "Player")
    #expect(welcome["replyTo"] == nil)
  }

  @Test(arguments: [
    #"{"type":"choose","id":3,"card":17}"#, #"{"type":"playSolo","id":3,"game":"set"}"#,
    #"{"type":"redeal","id":3}"#, #"{"type":"resync","id":3}"#,
  ])
  func anythingBeforeHelloIsRefused(_ text: String) async throws {
    let harness = LobbyHarness()
    expectError(
      try only(await harness.send(text, from: c1), to: c1), .helloRequired, replyTo: .int(3))
    #expect(harness.lobby.sessionCount == 0)
    #expect(harness.lobby.tableCount == 0)
  }

  @Test func secondHelloIsRefused() async throws {
    let harness = LobbyHarness()
    try await harness.send(#"{"type":"hello","id":1,"name":"Ada"}"#, from: c1)
    let answer = try only(
      await harness.send(#"{"type":"hello","id":"again","name":"Bob"}"#, from: c1), to: c1)
    expectError(answer, .alreadyHello, replyTo: "again")
    #expect(harness.lobby.sessionCount == 1)
    // Even a resume of its own session.
    let resume = try only(
      await harness.send(#"{"type":"hello","id":5,"resume":"token-1"}"#, from: c1), to: c1)
    expectError(resume, .alreadyHello, replyTo: .int(5))
    #expect(harness.outbound.take().isEmpty)
  }

  @Test func badJSONIsAnsweredWithAnError() async throws {
    let harness = LobbyHarness()
    expectError(try only(await harness.send("{nope", from: c1), to: c1), .badJSON, replyTo: nil)
    try await harness.send(#"{"type":"hello","id":1}"#, from: c1)
    expectError(try only(await harness.send("[1,2]", from: c1), to: c1), .badJSON, replyTo: nil)
    expectError(
      try only(await harness.send(#"{"type":"choose","id":4,"card":"x"}"#, from: c1), to: c1),
      .badField, replyTo: .int(4))
    expectError(
      try only(await harness.send(#"{"type":"dance","id":5}"#, from: c1), to: c1),
      .unknownType, replyTo: .int(5))
  }

  @Test func playSoloSendsASnapshotWithItsStatus() async throws {
    let harness = LobbyHarness()
    try await harness.send(#"{"type":"hello","id":1,"name":"Ada"}"#, from: c1)
    let answer = try await harness.send(#"{"type":"playSolo","id":2,"game":"set"}"#, from: c1)
    try #require(answer.count == 1)
    #expect(answer.allSatisfy { $0.recipients == [c1] })
    let game = CardMatchingGame<SetCard>(settings: .set(), seed: LobbyHarness.seed)
    let code = try #require(answer[0].message["table"]?["code"]?.stringValue)
    #expect(code.count == 10)
    let meta = TableMeta(
      phase: .playing, code: code, isPrivate: true, seats: 1, host: 0, spectators: 0,
      occupied: [SeatView(seat: 0, name: "Ada", connected: true)])
    let expected = ServerMessage.snapshot(
      replyTo: .int(2), tableID: "t1", version: 0, you: 0, game: game, names: ["Ada"],
      status: StatusLine.newGame, meta: meta)
    #expect(answer[0].message == expected)
    #expect(answer.count == 1, "protocol v2: the snapshot carries the status; nothing follows it")
    #expect(harness.lobby.tableCount == 1)
  }

  @Test func onlyTheServedGamesArePlayed() async throws {
    let harness = LobbyHarness()
    try await harness.send(#"{"type":"hello","id":1}"#, from: c1)
    for game in ["chess", "Matchismo", "Set", "", "concentration "] {
      let answer = try only(
        await harness.send(#"{"type":"playSolo","id":"g","game":"\#(game)"}"#, from: c1), to: c1)
      expectError(answer, .unknownGame, replyTo: "g")
    }
    #expect(harness.lobby.tableCount == 0)
  }

  @Test(arguments: [
    #"{"type":"choose","id":7,"card":17}"#, #"{"type":"redeal","id":7}"#,
    #"{"type":"resync","id":7}"#,
  ])
  func tableMessagesNeedATable(_ text: String) async throws {
    let harness = LobbyHarness()
    try await harness.send(#"{"type":"hello","id":1}"#, from: c1)
    expectError(try only(await harness.send(text, from: c1), to: c1), .notAtTable, replyTo: .int(7))
  }

  @Test func choosingABoardCardBroadcastsADiffWithItsStatus() async throws {
    let harness = LobbyHarness()
    let (_, snapshot) = try await harness.seatSolo(c1)
    let card = try #require(snapshot["table"]?["board"]?.elements?.first?["id"]?.intValue)
    let answer = try await harness.send(#"{"type":"choose","id":3,"card":\#(card)}"#, from: c1)
    try #require(answer.count == 1)
    #expect(answer.allSatisfy { $0.recipients == [c1] })
    let diff = answer[0].message
    #expect(diff["type"] == "diff")
    #expect(diff["table"] == "t1")
    #expect(diff["version"] == .int(1))
    #expect(diff["seat"] == .int(0))
    #expect(diff["replyTo"] == .int(3))
    let events = JSONValue.parse(
      #"[{"kind":"select","seat":0,"card":\#(card)},{"kind":"score","seat":0,"score":-1}]"#)
    #expect(diff["events"] == events)
    // Protocol v2: the status line travels in the diff.
    #expect(
      diff["status"]?.elements?.prefix(2).map { $0 } == [
        StyledRun.name("Ada", seat: 0).json, StyledRun.text(" chose ").json,
      ])
  }

  @Test func refusedMovesAreAnsweredOnlyToTheSender() async throws {
    let harness = LobbyHarness()
    let (_, snapshot) = try await harness.seatSolo(c1)
    let board = try #require(snapshot["table"]?["board"]?.elements).compactMap {
      $0["id"]?.intValue
    }
    let offBoard = try #require((0..<81).first { !board.contains($0) })
    expectError(
      try only(
        await harness.send(#"{"type":"choose","id":4,"card":\#(offBoard)}"#, from: c1), to: c1),
      .cardNotOnTable, replyTo: .int(4))
    expectError(
      try only(await harness.send(#"{"type":"choose","id":5,"card":81}"#, from: c1), to: c1),
      .unknownCard, replyTo: .int(5))
    // Nothing moved: a resync shows version 0.
    let resync = try await harness.send(#"{"type":"resync","id":6}"#, from: c1)
    #expect(resync.first?.message["replyTo"] == .int(6))
    #expect(resync.first?.message["table"]?["version"] == .int(0))
  }

  @Test func redealAndResync() async throws {
    let harness = LobbyHarness()
    try await harness.seatSolo(c1)
    let redeal = try await harness.send(#"{"type":"redeal","id":8}"#, from: c1)
    try #require(redeal.count == 1)
    #expect(redeal[0].message["version"] == .int(1))
    #expect(redeal[0].message["events"]?.elements?.first?["kind"] == "redeal")
    let resync = try await harness.send(#"{"type":"resync","id":9}"#, from: c1)
    try #require(resync.count == 1)
    #expect(resync[0].message["type"] == "snapshot")
    #expect(resync[0].message["replyTo"] == .int(9))
    #expect(resync[0].message["table"]?["version"] == .int(1))
  }

  @Test func playingSoloAgainClosesTheOldTable() async throws {
    let harness = LobbyHarness()
    try await harness.seatSolo(c1)
    let answer = try await harness.send(#"{"type":"playSolo","id":3,"game":"set"}"#, from: c1)
    #expect(answer.first?.message["table"]?["id"] == "t2")
    #expect(answer.first?.message["table"]?["version"] == .int(0))
    #expect(harness.lobby.tableCount == 1)
  }

  @Test func resumeAfterADisconnectReturnsToTheSameTable() async throws {
    let harness = LobbyHarness()
    let (token, _) = try await harness.seatSolo(c1)
    let snapshot = try await harness.send(#"{"type":"resync","id":3}"#, from: c1)
    let board = try #require(snapshot.first?.message["table"]?["board"]?.elements)
    let card = try #require(board[2]["id"]?.intValue)
    try await harness.send(#"{"type":"choose","id":4,"card":\#(card)}"#, from: c1)
    let before = try #require(
      try await harness.send(#"{"type":"resync","id":5}"#, from: c1).first?.message["table"])

    harness.lobby.disconnected(c1)
    #expect(harness.outbound.take().isEmpty)
    #expect(harness.lobby.sessionCount == 1)
    harness.clock.set(59)
    harness.lobby.tick()

    let answer = try await harness.send(
      #"{"type":"hello","id":"back","name":"Someone else","resume":"\#(token)"}"#, from: c2)
    // Welcome, a snapshot (version 2: the drop was version 2), then the player's return as
    // version 3 (its status inside).
    try #require(answer.count == 3)
    #expect(answer.allSatisfy { $0.recipients == [c2] })
    #expect(
      answer[0].message
        == ServerMessage.welcome(
          replyTo: .string("back"), session: token, name: "Ada", resumed: true,
          maxMessageBytes: 8192, node: "local",
          gamesVersion: GameCatalog.registry.descriptionsVersion, games: nil))
    #expect(answer[1].message["type"] == "snapshot")
    let after = try #require(answer[1].message["table"])
    #expect(after["id"] == "t1")
    #expect(after["version"] == .int(2))
    #expect(after["board"] == before["board"])
    #expect(after["players"]?.elements?.first?["selection"] == .array([.int(card)]))
    #expect(after["players"]?.elements?.first?["connected"] == .bool(false))
    #expect(answer[2].message["version"] == .int(3))
    #expect(
      answer[2].message["events"] == .array([.object([("kind", "back"), ("seat", .int(0))])]))

    // The new connection plays on at version 4.
    let diff = try await harness.send(#"{"type":"choose","id":6,"card":\#(card)}"#, from: c2)
    #expect(diff.first?.message["version"] == .int(4))
    #expect(diff.first?.recipients == [c2])
    #expect(harness.lobby.sessionCount == 1)
    #expect(harness.lobby.tableCount == 1)
  }

  @Test func resumeWhileAttachedClosesTheOldConnection() async throws {
    let harness = LobbyHarness()
    let (token, snapshot) = try await harness.seatSolo(c1)
    harness.lobby.received(
      Array(#"{"type":"hello","id":1,"resume":"\#(token)"}"#.utf8), from: c2)
    let entries = harness.outbound.take()
    #expect(entries.first == .closed(c1, code: 4001, reason: "session resumed elsewhere"))
    #expect(CloseCode.sessionTakenOver == 4001)
    let sent = entries.dropFirst().compactMap { entry -> (JSONValue, [ConnectionID])? in
      guard case .sent(let bytes, let to) = entry, let json = JSONValue.parse(bytes) else {
        return nil
      }
      return (json, to)
    }
    try #require(sent.count == 2)
    #expect(sent.allSatisfy { $0.1 == [c2] })
    #expect(sent[0].0["resumed"] == .bool(true))
    #expect(sent[1].0["table"] == snapshot["table"])

    // Only the new connection hears the table now.
    let card = try #require(snapshot["table"]?["board"]?.elements?.first?["id"]?.intValue)
    let diff = try await harness.send(#"{"type":"choose","id":2,"card":\#(card)}"#, from: c2)
    #expect(diff.map(\.recipients) == [[c2]])
    // The old connection no longer holds a session …
    expectError(
      try only(await harness.send(#"{"type":"resync","id":3}"#, from: c1), to: c1),
      .helloRequired, replyTo: .int(3))
    // … and its going away does not detach the new one.
    harness.lobby.disconnected(c1)
    harness.clock.set(1000)
    harness.lobby.tick()
    #expect(harness.lobby.sessionCount == 1)
    #expect(harness.lobby.tableCount == 1)
    let resync = try await harness.send(#"{"type":"resync","id":4}"#, from: c2)
    #expect(resync.first?.message["table"]?["version"] == .int(1))
  }

  @Test func sessionsAndTablesExpireAfterTheGracePeriod() async throws {
    let harness = LobbyHarness(grace: 60)
    harness.clock.set(1000)
    let (token, _) = try await harness.seatSolo(c1)
    #expect(token == "token-1")
    harness.lobby.disconnected(c1)

    harness.clock.set(1060)
    harness.lobby.tick()
    #expect(harness.lobby.sessionCount == 1)
    #expect(harness.lobby.tableCount == 1)

    harness.clock.set(1060.5)
    harness.lobby.tick()
    #expect(harness.lobby.sessionCount == 0)
    #expect(harness.lobby.tableCount == 0)

    let answer = try only(
      await harness.send(#"{"type":"hello","id":1,"name":"Ada","resume":"\#(token)"}"#, from: c2),
      to: c2)
    #expect(
      answer
        == ServerMessage.welcome(
          replyTo: .int(1), session: "token-2", name: "Ada", resumed: false,
          maxMessageBytes: 8192, node: "local",
          gamesVersion: GameCatalog.registry.descriptionsVersion, games: nil))
    expectError(
      try only(await harness.send(#"{"type":"resync","id":2}"#, from: c2), to: c2),
      .notAtTable, replyTo: .int(2))
  }

  @Test func attachedSessionsNeverExpire() async throws {
    let harness = LobbyHarness(grace: 1)
    try await harness.seatSolo(c1)
    harness.clock.set(1_000_000)
    harness.lobby.tick()
    #expect(harness.lobby.sessionCount == 1)
    #expect(harness.lobby.tableCount == 1)
  }

  @Test func disconnectOfAStrangerIsHarmless() async throws {
    let harness = LobbyHarness()
    try await harness.seatSolo(c1)
    harness.lobby.disconnected(c3)
    harness.lobby.tick()
    #expect(harness.outbound.take().isEmpty)
    #expect(harness.lobby.sessionCount == 1)
  }

  @Test func eachConnectionHasItsOwnTable() async throws {
    let harness = LobbyHarness()
    let (_, first) = try await harness.seatSolo(c1, name: "Ada")
    let (_, second) = try await harness.seatSolo(c2, name: "Bob")
    #expect(first["table"]?["id"] == "t1")
    #expect(second["table"]?["id"] == "t2")
    #expect(second["table"]?["players"]?.elements?.first?["name"] == "Bob")
    let card = try #require(second["table"]?["board"]?.elements?.first?["id"]?.intValue)
    let diff = try await harness.send(#"{"type":"choose","id":3,"card":\#(card)}"#, from: c2)
    #expect(diff.map(\.recipients) == [[c2]])
    #expect(diff.first?.message["table"] == "t2")
    #expect(harness.lobby.tableCount == 2)
    #expect(harness.lobby.sessionCount == 2)
  }
}
