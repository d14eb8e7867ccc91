import Protocol
import TestSupport
import Testing

@testable import Lobby
@testable import Model

/// The three games through the lobby: settings chosen when a table opens (validated, shown at
/// the table), Concentration's turns and turn clock.
@Suite struct GamesAndSettingsTests {
  let c = (1...4).map { ConnectionID(UInt64($0)) }

  @Test func aTableIsOpenedWithTheSettingsAskedForAndShowsThem() async throws {
    let harness = LobbyHarness()
    _ = try await harness.hello(c[0], "Ada")
    let answer = try await harness.send(
      #"{"type":"createTable","id":2,"game":"matchismo","seats":2,"matchSize":3,"boardSize":30}"#,
      from: c[0])
    let table = try #require(only(answer, to: c[0])["table"])
    #expect(table["game"] == "matchismo")
    #expect(table["settings"]?["matchSize"] == .int(3))
    #expect(table["settings"]?["boardSize"] == .int(30))
    #expect(table["settings"]?["scoring"] == "course")
    #expect(table["settings"]?["faceDown"] == .bool(true))

    let solo = try await harness.send(
      #"{"type":"playSolo","id":3,"game":"set","scoring":"classic","boardSize":15}"#, from: c[0])
    let set = try #require(only(solo, to: c[0])["table"])
    #expect(set["settings"]?["scoring"] == "classic")
    #expect(set["board"]?.elements?.count == 15)
    #expect(set["settings"]?["matchPoints"] == .int(1))

    let custom = try await harness.send(
      #"{"type":"playSolo","id":4,"game":"set","scoring":"custom","matchBonus":2,"costToChoose":0}"#,
      from: c[0])
    let settings = try #require(only(custom, to: c[0])["table"]?["settings"])
    #expect(settings["matchBonus"] == .int(2))
    #expect(settings["costToChoose"] == .int(0))
    #expect(settings["scoring"] == "custom")

    let concentration = try await harness.send(
      #"{"type":"playSolo","id":5,"game":"concentration","boardSize":12,"theme":3}"#, from: c[0])
    let memory = try #require(only(concentration, to: c[0])["table"])
    #expect(memory["board"]?.elements?.count == 12)
    #expect(memory["turn"] == .int(0))
    #expect(memory["turnSeconds"] == nil, "a solo table has no turn clock")
    #expect(memory["board"]?.elements?.allSatisfy { $0["faceUp"] == .bool(false) } == true)
  }

  /// The multiplayer defaults: classic Set, 2-card Matchismo, 30-second Concentration turns.
  @Test func multiplayerDefaults() throws {
    func setup(_ game: String, seats: Int) throws -> TableSetup {
      try GameCatalog.setup(game: game, seats: seats, options: TableOptions(), replyTo: nil).get()
    }
    #expect(try setup("set", seats: 4).settings.scoring == .classic)
    #expect(try setup("set", seats: 1).settings.scoring == .course)
    #expect(try setup("matchismo", seats: 2).settings.matchSize == 2)
    #expect(try setup("concentration", seats: 2).turnSeconds == 30)
    #expect(try setup("concentration", seats: 1).turnSeconds == nil)
  }

  @Test(arguments: [
    #""game":"set","boardSize":13"#, #""game":"set","matchSize":2"#,
    #""game":"set","scoring":"fast""#, #""game":"set","costToChoose":1"#,
    #""game":"set","scoring":"custom","matchBonus":0"#, #""game":"set","turnSeconds":10"#,
    #""game":"matchismo","matchSize":4"#, #""game":"matchismo","boardSize":60"#,
    #""game":"matchismo","scoring":"classic""#, #""game":"concentration","boardSize":7"#,
    #""game":"concentration","boardSize":22"#, #""game":"concentration","theme":9"#,
    #""game":"concentration","turnSeconds":2"#, #""game":"concentration","scoring":"course""#,
    #""game":"set","theme":1"#, #""game":"concentration","showSelections":false"#,
  ])
  func settingsThatDoNotFitAreRefusedAndChangeNothing(_ fields: String) async throws {
    let harness = LobbyHarness()
    let (_, snapshot) = try await harness.seatSolo(c[0])
    let tableID = try #require(snapshot["table"]?["id"])
    for type in ["createTable", "playSolo"] {
      let answer = try await harness.send(
        #"{"type":"\#(type)","id":"s","seats":2,\#(fields)}"#, from: c[0])
      expectError(try only(answer, to: c[0]), .badSettings, replyTo: "s")
    }
    #expect(harness.lobby.tableCount == 1)
    let resync = try await harness.send(#"{"type":"resync","id":9}"#, from: c[0])
    #expect(try only(resync, to: c[0])["table"]?["id"] == tableID)
  }

  /// Two players at a Concentration table with 10-second turns, playing.
  func concentrationForTwo() async throws -> (LobbyHarness, String, TableState<EmojiCard>) {
    var configuration = LobbyConfiguration()
    configuration.countdown = 0
    let harness = LobbyHarness(configuration: configuration)
    _ = try await harness.hello(c[0], "Ada")
    _ = try await harness.hello(c[1], "Bob")
    let created = try await harness.send(
      #"{"type":"createTable","id":2,"game":"concentration","seats":2,"turnSeconds":10}"#,
      from: c[0])
    let table = try #require(only(created, to: c[0])["table"])
    let code = try #require(table["code"]?.stringValue)
    let id = try #require(table["id"]?.stringValue)
    #expect(table["turnSeconds"] == .int(10))
    _ = try await harness.send(#"{"type":"join","id":3,"code":"\#(code)"}"#, from: c[1])
    let state = try #require(harness.lobby.state.table(id) as? TableState<EmojiCard>)
    #expect(state.phase == .playing)
    return (harness, id, state)
  }

  @Test func concentrationTakesTurnsAndRefusesAMoveOutOfTurn() async throws {
    let (harness, id, state) = try await concentrationForTwo()
    let board = state.game.board
    let miss = try #require(board.indices.first { board[$0].glyph != board[0].glyph })
    let early = try await harness.send(#"{"type":"choose","id":4,"card":0}"#, from: c[1])
    expectError(try only(early, to: c[1]), .notYourTurn, replyTo: .int(4))
    _ = try await harness.send(#"{"type":"choose","id":5,"card":0}"#, from: c[0])
    let missed = try await harness.send(#"{"type":"choose","id":6,"card":\#(miss)}"#, from: c[0])
    let events = try #require(diffEvents(messages(missed, to: c[1])).first)
    #expect(events.contains { $0["kind"] == "hide" })
    #expect(events.last == JSONValue.parse(#"{"kind":"turn","seat":1}"#))
    let after = try #require(harness.lobby.state.table(id) as? TableState<EmojiCard>)
    #expect(after.game.turn == 1)
    // Moves on a turn-based table are decided with the whole state (for the turn clock).
    #expect(harness.lobby.state.playingShard(of: c[1]) == nil)
  }

  @Test func aTurnThatIdlesPastItsTimePasses() async throws {
    let (harness, id, _) = try await concentrationForTwo()
    _ = try await harness.send(#"{"type":"choose","id":5,"card":0}"#, from: c[0])
    harness.clock.set(9.5)
    harness.lobby.tick()
    #expect(try harness.outbound.takeDeliveries().isEmpty)
    harness.clock.set(10.5)
    harness.lobby.tick()
    let passed = try harness.outbound.takeDeliveries()
    let diff = try #require(messages(passed, to: c[1]).first)
    #expect(diffEvents([diff]).first?.last == JSONValue.parse(#"{"kind":"turn","seat":1}"#))
    #expect(
      diff["status"]?.elements?.prefix(2).map { $0 } == [
        StyledRun.name("Ada", seat: 0).json, StyledRun.text(" passes. ").json,
      ])
    let state = try #require(harness.lobby.state.table(id) as? TableState<EmojiCard>)
    #expect(state.game.turn == 1)
    #expect(state.game.players[0].selection.isEmpty)
    // Bob's clock starts now: his turn passes ten seconds later, not before.
    harness.clock.set(20)
    harness.lobby.tick()
    #expect(try harness.outbound.takeDeliveries().isEmpty)
    harness.clock.set(20.6)
    harness.lobby.tick()
    #expect(try harness.outbound.takeDeliveries().count == 1)
  }

  /// A dropped player (a reload, a restart of the server) keeps the turn until its time is up.
  @Test func aDroppedPlayerKeepsTheTurnUntilItsTimeRunsOut() async throws {
    let (harness, id, _) = try await concentrationForTwo()
    harness.clock.set(1)
    harness.lobby.tick()
    _ = try harness.outbound.takeDeliveries()
    harness.lobby.disconnected(c[0])
    _ = try harness.outbound.takeDeliveries()
    harness.clock.set(5)
    harness.lobby.tick()
    var state = try #require(harness.lobby.state.table(id) as? TableState<EmojiCard>)
    #expect(state.game.turn == 0, "the turn passed while its player was only away")
    harness.clock.set(12)
    harness.lobby.tick()
    state = try #require(harness.lobby.state.table(id) as? TableState<EmojiCard>)
    #expect(state.game.turn == 1, "the turn did not pass when its time ran out")
  }

  @Test func theTurnOfAPlayerWhoLeftPassesAtOnce() async throws {
    let (harness, id, _) = try await concentrationForTwo()
    let left = try await harness.send(#"{"type":"leave","id":7}"#, from: c[0])
    #expect(
      diffEvents(messages(left, to: c[1])).contains {
        $0.contains(JSONValue.parse(#"{"kind":"turn","seat":1}"#)!)
      })
    let state = try #require(harness.lobby.state.table(id) as? TableState<EmojiCard>)
    #expect(state.game.turn == 1)
  }
}
