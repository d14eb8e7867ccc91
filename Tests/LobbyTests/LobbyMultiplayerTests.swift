import Lobby
import Logging
import Model
import Protocol
import TestSupport
import Testing

extension LobbyHarness {
  /// A harness whose lobby has the given timings.
  init(countdown: Double, grace: Double = 60, emptyTableGrace: Double = 10) {
    var configuration = LobbyConfiguration()
    configuration.countdown = countdown
    configuration.reconnectGrace = grace
    configuration.emptyTableGrace = emptyTableGrace
    self.init(configuration: configuration)
  }

  /// Says hello as `name`; returns the session token.
  @discardableResult
  func hello(_ connection: ConnectionID, _ name: String) async throws -> String {
    let answer = try await send(#"{"type":"hello","id":1,"name":"\#(name)"}"#, from: connection)
    return try #require(answer.first?.message["session"]?.stringValue)
  }

  /// Moves the clock to `time` and ticks; returns what was sent.
  func tick(at time: Double) async throws -> [OutboundRecorder.Delivery] {
    clock.set(time)
    lobby.tick()
    return try outbound.takeDeliveries()
  }
}

/// The messages of `deliveries` that `connection` receives, in order.
func messages(_ deliveries: [OutboundRecorder.Delivery], to connection: ConnectionID)
  -> [JSONValue]
{
  deliveries.filter { $0.recipients.contains(connection) }.map(\.message)
}

/// The events of every diff among `messages`.
func diffEvents(_ messages: [JSONValue]) -> [[JSONValue]] {
  messages.filter { $0["type"] == "diff" }.map { $0["events"]?.elements ?? [] }
}

@Suite struct LobbyMultiplayerTests {
  let c = (1...9).map { ConnectionID(UInt64($0)) }
  let names = ["Ada", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Watcher"]

  /// Follows the lobby list from a snapshot through consecutive diffs.
  struct LobbyView {
    var version: Int
    var tables: [String: JSONValue] = [:]

    init(snapshot: JSONValue) throws {
      #expect(snapshot["type"] == "lobbySnapshot")
      version = try #require(snapshot["version"]?.intValue)
      for table in try #require(snapshot["tables"]?.elements) {
        tables[try #require(table["id"]?.stringValue)] = table
      }
    }

    mutating func apply(_ diff: JSONValue) throws {
      #expect(diff["type"] == "lobbyDiff")
      let next = try #require(diff["version"]?.intValue)
      try #require(next == version + 1, "lobby diff \(next) after \(version)")
      version = next
      for change in try #require(diff["changes"]?.elements) {
        switch change["op"]?.stringValue {
        case "upsert":
          let table = try #require(change["table"])
          tables[try #require(table["id"]?.stringValue)] = table
        case "remove":
          let id = try #require(change["id"]?.stringValue)
          #expect(tables[id] != nil, "remove of unlisted \(id)")
          tables[id] = nil
        default:
          Issue.record("bad change \(change.text)")
        }
      }
    }

    mutating func apply(all messages: [JSONValue]) throws {
      for message in messages { try apply(message) }
    }
  }

  /// Hello for `c[i]` and a lobby subscription for the watcher `c[8]`.
  func watch(_ harness: LobbyHarness) async throws -> LobbyView {
    try await harness.hello(c[8], names[8])
    let answer = try await harness.send(#"{"type":"lobby","id":"l"}"#, from: c[8])
    let snapshot = try only(answer, to: c[8])
    #expect(snapshot["replyTo"] == "l")
    return try LobbyView(snapshot: snapshot)
  }

  @Test func fourQuickMatchesFillOneTableThatCountsDownAndDeals() async throws {
    let harness = LobbyHarness(countdown: 3)
    var lobby = try await watch(harness)
    #expect(lobby.version == 0)
    #expect(lobby.tables.isEmpty)

    var snapshots: [JSONValue] = []
    for i in 0..<4 {
      try await harness.hello(c[i], names[i])
      let answer = try await harness.send(
        #"{"type":"quickMatch","id":\#(i),"game":"set","seats":4}"#, from: c[i])
      let mine = messages(answer, to: c[i])
      let snapshot = try #require(mine.first { $0["type"] == "snapshot" })
      #expect(snapshot["replyTo"] == .int(i))
      snapshots.append(snapshot)
      // Those already seated see the newcomer join.
      for j in 0..<i {
        let events = diffEvents(messages(answer, to: c[j]))
        try #require(events.count == 1)
        #expect(
          events[0].first == JSONValue.parse(#"{"kind":"join","seat":\#(i),"name":"\#(names[i])"}"#)
        )
      }
      try lobby.apply(all: messages(answer, to: c[8]))
      #expect(lobby.tables["t1"]?["seated"] == .int(i + 1))
    }
    #expect(harness.lobby.tableCount == 1)
    for (i, snapshot) in snapshots.enumerated() {
      #expect(snapshot["table"]?["id"] == "t1")
      #expect(snapshot["table"]?["you"] == .int(i))
      #expect(snapshot["table"]?["host"] == .int(0))
      #expect(snapshot["table"]?["private"] == .bool(false))
    }
    let last = try #require(snapshots.last?["table"])
    #expect(last["phase"] == "countdown")
    #expect(last["countdown"] == .int(3))
    #expect(last["board"] == .array([]))
    #expect(last["deckCount"] == .int(81))
    #expect(lobby.tables["t1"]?["phase"] == "countdown")

    #expect(try await harness.tick(at: 2.9).isEmpty)
    let dealt = try await harness.tick(at: 3)
    let game = CardMatchingGame<SetCard>(settings: .set(seats: 4), seed: LobbyHarness.seed)
    for i in 0..<4 {
      let events = diffEvents(messages(dealt, to: c[i]))
      #expect(
        events
          == [
            [
              JSONValue.parse(#"{"kind":"phase","phase":"playing"}"#)!,
              Written.json(
                GameEvent<SetCard>.redealt(board: game.board, deckCount: game.deckCount)),
            ]
          ])
    }
    // The lobby hears that the table is playing.
    try lobby.apply(all: messages(dealt, to: c[8]))
    #expect(lobby.tables["t1"]?["phase"] == "playing")

    // A fifth quick match opens a new table.
    try await harness.hello(c[4], names[4])
    let fifth = try await harness.send(
      #"{"type":"quickMatch","id":5,"game":"set","seats":4}"#, from: c[4])
    #expect(messages(fifth, to: c[4]).first?["table"]?["id"] == "t2")
    #expect(messages(fifth, to: c[4]).first?["table"]?["you"] == .int(0))
    try lobby.apply(all: messages(fifth, to: c[8]))
    #expect(lobby.tables.keys.sorted() == ["t1", "t2"])

    // A fresh lobby snapshot agrees with the watcher's view.
    let again = try only(await harness.send(#"{"type":"lobby"}"#, from: c[8]), to: c[8])
    let fresh = try LobbyView(snapshot: again)
    #expect(fresh.version == lobby.version)
    #expect(fresh.tables == lobby.tables)
  }

  @Test func privateTablesAreReachedOnlyByCode() async throws {
    let harness = LobbyHarness(countdown: 3)
    var lobby = try await watch(harness)
    try await harness.hello(c[0], "Ada")
    let created = try await harness.send(
      #"{"type":"createTable","id":2,"game":"set","seats":3,"private":true}"#, from: c[0])
    #expect(messages(created, to: c[8]).isEmpty)
    let table = try #require(messages(created, to: c[0]).first?["table"])
    #expect(table["private"] == .bool(true))
    #expect(table["you"] == .int(0))
    #expect(table["host"] == .int(0))
    #expect(table["phase"] == "waiting")
    let code = try #require(table["code"]?.stringValue)
    #expect(code.count == 10)
    #expect(code.allSatisfy { TableDirectory.codeAlphabet.contains($0) })

    try await harness.hello(c[1], "Bob")
    // By id a private table does not exist; a wrong code neither.
    expectError(
      try only(await harness.send(#"{"type":"join","id":3,"table":"t1"}"#, from: c[1]), to: c[1]),
      .unknownTable, replyTo: .int(3))
    expectError(
      try only(
        await harness.send(#"{"type":"join","id":4,"code":"ZZZZZZ"}"#, from: c[1]), to: c[1]),
      .unknownTable, replyTo: .int(4))
    // Codes are read without regard to case.
    let joined = try await harness.send(
      #"{"type":"join","id":5,"code":"\#(code.lowercased())"}"#, from: c[1])
    let bob = try #require(messages(joined, to: c[1]).first)
    #expect(bob["type"] == "snapshot")
    #expect(bob["replyTo"] == .int(5))
    #expect(bob["table"]?["you"] == .int(1))
    #expect(bob["table"]?["players"]?.elements?.map { $0["name"] } == ["Ada", "Bob"])
    #expect(
      diffEvents(messages(joined, to: c[0]))
        == [[JSONValue.parse(#"{"kind":"join","seat":1,"name":"Bob"}"#)!]])
    #expect(messages(joined, to: c[8]).isEmpty)

    // Quick match never lands at a private table.
    try await harness.hello(c[2], "Cy")
    let quick = try await harness.send(
      #"{"type":"quickMatch","id":6,"game":"set","seats":3}"#, from: c[2])
    #expect(messages(quick, to: c[2]).first?["table"]?["id"] == "t2")
    try lobby.apply(all: messages(quick, to: c[8]))
    #expect(lobby.tables.keys.sorted() == ["t2"])
    let listing = try only(await harness.send(#"{"type":"lobby"}"#, from: c[8]), to: c[8])
    #expect(listing["tables"]?.elements?.map { $0["id"] } == ["t2"])
  }

  @Test func spectatorsWatchButCannotPlay() async throws {
    let harness = LobbyHarness(countdown: 0)
    try await harness.hello(c[0], "Ada")
    let created = try await harness.send(
      #"{"type":"createTable","id":2,"game":"set","seats":2}"#, from: c[0])
    let code = try #require(messages(created, to: c[0]).first?["table"]?["code"]?.stringValue)
    try await harness.hello(c[1], "Bob")
    try await harness.send(#"{"type":"join","id":3,"code":"\#(code)"}"#, from: c[1])

    try await harness.hello(c[2], "Cy")
    let watched = try await harness.send(
      #"{"type":"spectate","id":4,"code":"\#(code)"}"#, from: c[2])
    let snapshot = try #require(messages(watched, to: c[2]).first)
    #expect(snapshot["type"] == "snapshot")
    #expect(snapshot["replyTo"] == .int(4))
    #expect(snapshot["table"]?["you"] == nil)
    #expect(snapshot["table"]?["spectators"] == .int(1))
    #expect(snapshot["table"]?["phase"] == "playing")
    #expect(snapshot["table"]?["players"]?.elements?.count == 2)
    // The crowd is no change of the game: no diff, and the players' version stays; the count
    // comes as a `spectators` message (the first change after a quiet second at once).
    for player in [c[0], c[1]] {
      #expect(diffEvents(messages(watched, to: player)).isEmpty)
      #expect(
        messages(watched, to: player)
          == [JSONValue.parse(#"{"type":"spectators","table":"t1","count":1}"#)!])
    }

    let card = try #require(snapshot["table"]?["board"]?.elements?.first?["id"]?.intValue)
    for text in [
      #"{"type":"choose","id":5,"card":\#(card)}"#, #"{"type":"redeal","id":5}"#,
      #"{"type":"start","id":5}"#,
    ] {
      expectError(
        try only(await harness.send(text, from: c[2]), to: c[2]), .spectator, replyTo: .int(5))
    }
    // A spectator by table id; unknown ids are refused.
    try await harness.hello(c[3], "Dee")
    expectError(
      try only(
        await harness.send(#"{"type":"spectate","id":6,"table":"t9"}"#, from: c[3]), to: c[3]),
      .unknownTable, replyTo: .int(6))
    let second = try await harness.send(#"{"type":"spectate","id":7,"table":"t1"}"#, from: c[3])
    #expect(messages(second, to: c[3]).first?["table"]?["spectators"] == .int(2))
    // The spectator's moves were refused: the players are where they were.
    let resync = try await harness.send(#"{"type":"resync","id":8}"#, from: c[0])
    // …and its version is the one the first spectator's snapshot showed: two came, none counted.
    #expect(resync.first?.message["table"]?["version"] == snapshot["table"]?["version"])
    #expect(resync.first?.message["table"]?["board"] == snapshot["table"]?["board"])
  }

  @Test func leavingAnswersLeftAndFreesTheSeat() async throws {
    let harness = LobbyHarness(countdown: 3)
    try await harness.hello(c[0], "Ada")
    try await harness.hello(c[1], "Bob")
    try await harness.send(#"{"type":"quickMatch","id":2,"game":"set","seats":3}"#, from: c[0])
    try await harness.send(#"{"type":"quickMatch","id":2,"game":"set","seats":3}"#, from: c[1])
    let answer = try await harness.send(#"{"type":"leave","id":"bye"}"#, from: c[0])
    #expect(messages(answer, to: c[0]) == [ServerMessage.left(replyTo: .string("bye"))])
    #expect(
      diffEvents(messages(answer, to: c[1]))
        == [Multi.parse(#"[{"kind":"leave","seat":0},{"kind":"host","seat":1}]"#)])
    expectError(
      try only(await harness.send(#"{"type":"start","id":3}"#, from: c[0]), to: c[0]),
      .notAtTable, replyTo: .int(3))
    // Bob hosts now and may start.
    let start = try await harness.send(#"{"type":"start","id":4}"#, from: c[1])
    #expect(
      diffEvents(messages(start, to: c[1]))
        == [Multi.parse(#"[{"kind":"phase","phase":"countdown","countdown":3}]"#)])
    // Ada may not join a started table.
    expectError(
      try only(await harness.send(#"{"type":"join","id":5,"table":"t1"}"#, from: c[0]), to: c[0]),
      .alreadyStarted, replyTo: .int(5))
  }

  @Test func aResumedPlayerGetsTheMissedDiffsThenBack() async throws {
    let harness = LobbyHarness(countdown: 0, grace: 60)
    try await harness.hello(c[0], "Ada")
    let bobToken = try await harness.hello(c[1], "Bob")
    try await harness.send(#"{"type":"quickMatch","id":2,"game":"set","seats":2}"#, from: c[0])
    let seated = try await harness.send(
      #"{"type":"quickMatch","id":2,"game":"set","seats":2}"#, from: c[1])
    let bobSnapshot = try #require(messages(seated, to: c[1]).first?["table"])
    let bobVersion = try #require(bobSnapshot["version"]?.intValue)
    let board = try #require(bobSnapshot["board"]?.elements).compactMap { $0["id"]?.intValue }

    harness.clock.set(10)
    harness.lobby.disconnected(c[1])
    let drop = try harness.outbound.takeDeliveries()
    #expect(
      diffEvents(messages(drop, to: c[0]))
        == [Multi.parse(#"[{"kind":"away","seat":1,"seconds":60}]"#)])
    #expect(messages(drop, to: c[1]).isEmpty)

    // Ada plays on while Bob is away.
    let move = try await harness.send(#"{"type":"choose","id":3,"card":\#(board[0])}"#, from: c[0])
    let missedDiffs =
      drop.filter { $0.message["type"] == "diff" }.map(\.bytes)
      + move.filter { $0.message["type"] == "diff" }.map(\.bytes)
    try #require(missedDiffs.count == 2)

    harness.clock.set(40)
    let resumed = try await harness.send(
      #"{"type":"hello","id":9,"resume":"\#(bobToken)","version":\#(bobVersion)}"#, from: c[2])
    let bob = resumed.filter { $0.recipients.contains(c[2]) }
    try #require(bob.count == 4, "\(bob.map(\.message.text))")
    #expect(bob[0].message["type"] == "welcome")
    #expect(bob[0].message["resumed"] == .bool(true))
    #expect(bob[1].bytes == missedDiffs[0])
    #expect(bob[2].bytes == missedDiffs[1])
    #expect(bob[3].message["type"] == "diff")
    #expect(bob[3].message["version"] == .int(bobVersion + 3))
    #expect(bob[3].message["events"] == .array(Multi.parse(#"[{"kind":"back","seat":1}]"#)))
    #expect(bob[3].message["status"] != nil)
    // Ada hears Bob is back.
    #expect(
      diffEvents(messages(resumed, to: c[0]))
        == [Multi.parse(#"[{"kind":"back","seat":1}]"#)])

    // Bob's new connection plays for seat 1.
    let bobMove = try await harness.send(
      #"{"type":"choose","id":10,"card":\#(board[1])}"#, from: c[2])
    #expect(bobMove.first?.message["seat"] == .int(1))
    #expect(bobMove.first?.recipients == [c[0], c[2]])
  }

  @Test func aResumeWithoutAVersionGetsASnapshot() async throws {
    let harness = LobbyHarness(countdown: 0)
    try await harness.hello(c[0], "Ada")
    let token = try await harness.hello(c[1], "Bob")
    try await harness.send(#"{"type":"quickMatch","game":"set","seats":2}"#, from: c[0])
    try await harness.send(#"{"type":"quickMatch","game":"set","seats":2}"#, from: c[1])
    harness.lobby.disconnected(c[1])
    _ = harness.outbound.take()
    let resumed = try await harness.send(#"{"type":"hello","resume":"\#(token)"}"#, from: c[2])
    let bob = messages(resumed, to: c[2])
    #expect(bob.map { $0["type"] } == ["welcome", "snapshot", "diff"])
    #expect(bob[1]["table"]?["you"] == .int(1))
    #expect(bob[1]["table"]?["players"]?.elements?[1]["connected"] == .bool(false))
  }

  @Test func aPlayerWhoDoesNotComeBackLosesTheSeat() async throws {
    let harness = LobbyHarness(countdown: 0, grace: 60)
    harness.clock.set(100)
    try await harness.hello(c[0], "Ada")
    let token = try await harness.hello(c[1], "Bob")
    try await harness.send(#"{"type":"quickMatch","game":"set","seats":3}"#, from: c[0])
    try await harness.send(#"{"type":"quickMatch","game":"set","seats":3}"#, from: c[1])
    harness.lobby.disconnected(c[1])
    _ = harness.outbound.take()

    #expect(try await harness.tick(at: 160).isEmpty)
    let expiry = try await harness.tick(at: 160.5)
    #expect(
      diffEvents(messages(expiry, to: c[0])) == [Multi.parse(#"[{"kind":"leave","seat":1}]"#)])
    #expect(messages(expiry, to: c[1]).isEmpty)
    #expect(harness.lobby.sessionCount == 1)
    // Bob's session is gone too: a resume starts afresh, at no table.
    let answer = try await harness.send(#"{"type":"hello","resume":"\#(token)"}"#, from: c[2])
    #expect(messages(answer, to: c[2]).map { $0["resumed"] } == [.bool(false)])
    // The seat is free for the next quick match.
    let next = try await harness.send(#"{"type":"quickMatch","game":"set","seats":3}"#, from: c[2])
    #expect(messages(next, to: c[2]).first?["table"]?["id"] == "t1")
    #expect(messages(next, to: c[2]).first?["table"]?["you"] == .int(1))
  }

  @Test func anEmptyTableClosesAfterItsGrace() async throws {
    let harness = LobbyHarness(countdown: 3, emptyTableGrace: 10)
    var lobby = try await watch(harness)
    harness.clock.set(5)
    try await harness.hello(c[0], "Ada")
    let created = try await harness.send(
      #"{"type":"createTable","game":"set","seats":2}"#, from: c[0])
    try lobby.apply(all: messages(created, to: c[8]))
    #expect(lobby.tables["t1"]?["seated"] == .int(1))
    let left = try await harness.send(#"{"type":"leave"}"#, from: c[0])
    try lobby.apply(all: messages(left, to: c[8]))
    #expect(lobby.tables["t1"]?["seated"] == .int(0))

    #expect(try await harness.tick(at: 14.9).isEmpty)
    #expect(harness.lobby.tableCount == 1)
    let closed = try await harness.tick(at: 15)
    let diff = try only(closed, to: c[8])
    #expect(diff["changes"] == .array([.object([("op", "remove"), ("id", "t1")])]))
    try lobby.apply(diff)
    #expect(lobby.tables.isEmpty)
    #expect(harness.lobby.tableCount == 0)
    // Its code is gone with it.
    try await harness.hello(c[1], "Bob")
    let code = try #require(messages(created, to: c[0]).first?["table"]?["code"]?.stringValue)
    expectError(
      try only(
        await harness.send(#"{"type":"join","id":1,"code":"\#(code)"}"#, from: c[1]), to: c[1]),
      .unknownTable, replyTo: .int(1))
  }

  @Test func anOccupiedTableStaysOpen() async throws {
    let harness = LobbyHarness(countdown: 3, emptyTableGrace: 10)
    try await harness.hello(c[0], "Ada")
    try await harness.send(#"{"type":"createTable","game":"set","seats":2}"#, from: c[0])
    _ = try await harness.tick(at: 1000)
    #expect(harness.lobby.tableCount == 1)
  }
}
