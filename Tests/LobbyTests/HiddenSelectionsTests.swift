import Protocol
import TestSupport
import Testing

@testable import Lobby
@testable import Model

/// Tables whose players do not see each other's selections (`showSelections: false`): each seat
/// is sent its own diff, spectators the whole one, and a client built from either equals the
/// snapshot its member would be given.
@Suite struct HiddenSelectionsTests {
  let c = (1...4).map { ConnectionID(UInt64($0)) }

  @Test func setAndMatchismoMayHideSelectionsConcentrationMayNot() throws {
    let hidden = TableOptions(showSelections: false)
    let refused = GameCatalog.setup(
      game: "concentration", seats: 2, options: hidden, replyTo: .int(3))
    guard case .failure(let error) = refused else {
      Issue.record("Concentration accepted hidden selections")
      return
    }
    #expect(error.code == .badSettings)
    #expect(error.replyTo == .int(3))
    for game in ["set", "matchismo"] {
      let setup = try GameCatalog.setup(game: game, seats: 3, options: hidden, replyTo: nil).get()
      #expect(!setup.showSelections)
      let plain = try GameCatalog.setup(
        game: game, seats: 3, options: TableOptions(), replyTo: nil
      ).get()
      #expect(plain.showSelections)
    }
  }

  @Test func theDecoderReadsTheSettingAndRefusesAnythingButABoolean() throws {
    let text = #"{"type":"createTable","id":1,"game":"set","seats":2,"showSelections":false}"#
    let envelope = try ClientMessageDecoder.decode(Array(text.utf8)).get()
    guard case .createTable(_, _, _, let options) = envelope.message else {
      Issue.record("decoded as \(envelope.message)")
      return
    }
    #expect(options.showSelections == false)
    let bad = #"{"type":"createTable","id":1,"game":"set","seats":2,"showSelections":"no"}"#
    guard case .failure(let error) = ClientMessageDecoder.decode(Array(bad.utf8)) else {
      Issue.record("a string was taken for a boolean")
      return
    }
    #expect(error.code == .badField)
  }

  /// The kinds, seats and cards of a diff's events.
  static func events(_ diff: JSONValue) -> [JSONValue] { diff["events"]?.elements ?? [] }

  @Test func aChoiceIsNewsOnlyForItsChooserAndTheSpectators() throws {
    var state = TableState<SetCard>(
      id: "t1", settings: .set(seats: 3), seed: 7, names: ["Ada", "Bob", "Cy"],
      selectionsVisible: false)
    let card = state.game.board[0].id
    let b = try state.play(.choose(seat: 0, card: card), replyTo: .int(4)).get().broadcast
    let frames = try #require(b.seatFrames)
    #expect(frames.count == 3)
    // Bob and Cy read the same diff: one frame, encoded once.
    #expect(frames[1] === frames[2])
    let ada = JSONValue.parse(frames[0].payload) ?? .null
    let bob = JSONValue.parse(frames[1].payload) ?? .null
    let whole = JSONValue.parse(b.frame.payload) ?? .null
    #expect(Self.events(ada).contains { $0["kind"] == "select" && $0["card"] == .int(card) })
    #expect(Self.events(whole).contains { $0["kind"] == "select" && $0["card"] == .int(card) })
    #expect(!Self.events(bob).contains { $0["kind"] == "select" })
    #expect(bob["version"] == ada["version"])
    #expect(
      bob["status"]?.elements?.prefix(2).map { $0 } == [
        StyledRun.name("Ada", seat: 0).json, StyledRun.text(" chose a card.").json,
      ])
    #expect(!(bob.text.contains(#""card":\#(card)"#)), "Bob's diff names the card: \(bob.text)")

    // The snapshots agree: only Ada (and a spectator) see her selection and her status line.
    func selection(_ you: Int?) -> JSONValue? {
      state.snapshot(replyTo: nil, you: you)["table"]?["players"]?.elements?.first?["selection"]
    }
    #expect(selection(0) == .array([.int(card)]))
    #expect(selection(nil) == .array([.int(card)]))
    #expect(selection(1) == .array([]))
    let bobStatus = state.snapshot(replyTo: nil, you: 1)["table"]?["status"]
    #expect(
      bobStatus?.elements?.prefix(2).map { $0 } == [
        StyledRun.name("Ada", seat: 0).json, StyledRun.text(" chose a card.").json,
      ])
    #expect(
      state.snapshot(replyTo: nil, you: 1)["table"]?["settings"]?["showSelections"]
        == .bool(false))

    // Un-choosing is private too.
    let back = try state.play(.choose(seat: 0, card: card), replyTo: nil).get().broadcast
    let bobBack = JSONValue.parse(try #require(back.seatFrames)[1].payload) ?? .null
    #expect(
      bobBack["status"]?.elements?.prefix(2).map { $0 } == [
        StyledRun.name("Ada", seat: 0).json, StyledRun.text(" let go of a card.").json,
      ])
  }

  @Test func aCardLetGoTurnsDownForItsChooserWhileAnotherStillHoldsIt() throws {
    var state = TableState<PlayingCard>(
      id: "t1", settings: .matchismo(matchSize: 3, seats: 2), seed: 5, names: ["Ada", "Bob"],
      selectionsVisible: false)
    _ = try state.play(.choose(seat: 0, card: 4), replyTo: nil).get()
    let bobChose = try state.play(.choose(seat: 1, card: 4), replyTo: nil).get().broadcast
    // Bob turns up the card Ada holds: he is shown its face himself.
    let bobsOwn = JSONValue.parse(try #require(bobChose.seatFrames)[1].payload) ?? .null
    #expect(Self.events(bobsOwn).contains { $0["kind"] == "flip" && $0["seat"] == .int(1) })
    let adaSees = JSONValue.parse(try #require(bobChose.seatFrames)[0].payload) ?? .null
    #expect(!Self.events(adaSees).contains { $0["kind"] == "flip" })

    let b = try state.play(.choose(seat: 0, card: 4), replyTo: nil).get().broadcast
    let frames = try #require(b.seatFrames)
    let ada = Self.events(JSONValue.parse(frames[0].payload) ?? .null)
    let bob = Self.events(JSONValue.parse(frames[1].payload) ?? .null)
    let whole = Self.events(JSONValue.parse(b.frame.payload) ?? .null)
    #expect(ada.map { $0["kind"] } == ["deselect", "hide"])
    #expect(ada.last?["cards"] == .array([.int(4)]))
    #expect(bob.isEmpty)
    // Everyone else who sees every selection still sees the card up: Bob holds it.
    #expect(whole.map { $0["kind"] } == ["deselect"])
  }

  /// Random play at hidden tables of Set and Matchismo, with every broadcast checked per seat:
  /// a seat's diff has no opponent's select, deselect or flip; a flip without a seat shows only
  /// a card matched in the same diff; a status line names no card before a claim is judged;
  /// seats with the same diff share its frame; and each seat's client (and a spectator's)
  /// built from its diffs equals its own fresh snapshot after every move.
  @Test(arguments: 0..<8 as Range<UInt64>)
  func everySeatsViewMatchesItsSnapshot(seed: UInt64) throws {
    let seats = 2 + Int(seed % 3)
    let names = ["Ada", "Bob", "Cy", "Dee"].prefix(seats).map { $0 }
    if seed % 2 == 0 {
      var state = TableState<SetCard>(
        id: "t1", settings: .set(seats: seats, scoring: seed % 4 == 0 ? .classic : .course),
        seed: seed, names: names, selectionsVisible: false)
      var players = (0..<seats).map { SetPlayer(seed: seed &+ UInt64($0) &* 7919) }
      let kinds = try Self.play(&state, seed: seed, seats: seats) { state, seat, _ in
        players[seat].nextMove(in: state.game, seat: seat)
      }
      #expect(kinds.isSuperset(of: ["select", "deselect", "match", "mismatch", "history"]))
    } else {
      var state = TableState<PlayingCard>(
        id: "t1", settings: .matchismo(matchSize: 2 + Int(seed / 2 % 2), seats: seats),
        seed: seed, names: names, selectionsVisible: false)
      let kinds = try Self.play(&state, seed: seed, seats: seats) { state, seat, random in
        let playable = state.game.playableCards
        if random.below(3) == 0, let pair = pairAndStranger(playable) {
          return .choose(seat: seat, card: state.game.handle(of: playable[pair.0]))
        }
        return .choose(seat: seat, card: random.below(state.game.board.count))
      }
      #expect(kinds.isSuperset(of: ["select", "flip", "hide", "match", "mismatch", "reveal"]))
    }
  }

  static func play<Card: WireCard>(
    _ state: inout TableState<Card>, seed: UInt64, seats: Int,
    move next: (TableState<Card>, Int, inout SeededGenerator) -> Move
  ) throws -> Set<String> {
    var random = SeededGenerator(seed: seed ^ 0x5eed)
    var views = try (0..<seats).map {
      try TableClientView(snapshot: state.snapshot(replyTo: nil, you: $0))
    }
    var spectator = try TableClientView(snapshot: state.snapshot(replyTo: nil, you: nil))
    var kinds = Set<String>()
    var redeals = 0
    for step in 1...1500 where redeals < 2 {
      let seat = random.below(seats)
      let move: Move
      if state.game.isOver {
        move = .redeal(seat: seat)
        redeals += 1
      } else {
        move = next(state, seat, &random)
      }
      guard case .success(let (_, b)) = state.play(move, replyTo: .int(step)) else { continue }
      let frames = try #require(b.seatFrames, "\(move) was sent to every seat alike")
      for viewer in 0..<seats {
        let frame = b.frame(for: viewer)
        let diff = try #require(JSONValue.parse(frame.payload))
        let events = Self.events(diff)
        let matched = Set(
          events.filter { $0["kind"] == "match" }.flatMap { $0["cards"]?.elements ?? [] })
        for event in events {
          let kind = try #require(event["kind"]?.stringValue)
          kinds.insert(kind)
          switch kind {
          case "select", "deselect":
            #expect(event["seat"] == .int(viewer), "seat \(viewer) sees \(event.text)")
          case "flip" where event["seat"] == nil:
            kinds.insert("reveal")
            let card = try #require(event["card"]?["id"])
            #expect(matched.contains(card), "a reveal of an unmatched card: \(diff.text)")
          case "flip":
            #expect(event["seat"] == .int(viewer), "seat \(viewer) sees \(event.text)")
          default: break
          }
        }
        let judged = events.contains { $0["kind"] == "match" || $0["kind"] == "mismatch" }
        if move.seat != viewer && !judged {
          let named = diff["status"]?.elements?.contains { $0["card"] != nil } ?? false
          #expect(!named, "seat \(viewer)'s status names another seat's card: \(diff.text)")
        }
        // Seats that read the same bytes share one frame.
        for other in 0..<viewer where frames.indices.contains(other) {
          if frames[other].payload == frame.payload { #expect(frames[other] === frame) }
        }
        try views[viewer].apply(diff: diff)
        let fresh = try TableClientView(snapshot: state.snapshot(replyTo: nil, you: viewer))
        try #require(
          views[viewer] == fresh,
          "seat \(viewer) after \(move) (\(diff.text)):\n\(views[viewer])\n\(fresh)")
      }
      try spectator.apply(diff: try #require(JSONValue.parse(b.frame.payload)))
      let whole = try TableClientView(snapshot: state.snapshot(replyTo: nil, you: nil))
      try #require(spectator == whole, "spectator after \(move)")
    }
    #expect(redeals > 0, "no game ended in 1,500 moves")
    return kinds
  }

  /// Through the lobby: each seat's connection gets its own diff, a spectator the whole one, and
  /// a player who comes back catches up on the diffs of their own seat.
  @Test func theLobbySendsEachSeatItsOwnDiff() async throws {
    var configuration = LobbyConfiguration()
    configuration.countdown = 0
    let harness = LobbyHarness(configuration: configuration)
    _ = try await harness.hello(c[0], "Ada")
    let bobToken = try await harness.hello(c[1], "Bob")
    _ = try await harness.hello(c[2], "Cy")
    let created = try await harness.send(
      #"{"type":"createTable","id":2,"game":"set","seats":2,"showSelections":false}"#,
      from: c[0])
    let table = try #require(only(created, to: c[0])["table"])
    #expect(table["settings"]?["showSelections"] == .bool(false))
    let code = try #require(table["code"]?.stringValue)
    let id = try #require(table["id"]?.stringValue)
    let joined = try await harness.send(#"{"type":"join","id":3,"code":"\#(code)"}"#, from: c[1])
    let bobVersion = try #require(
      messages(joined, to: c[1]).first { $0["type"] == "snapshot" }?["table"]?["version"]?
        .intValue)
    _ = try await harness.send(#"{"type":"spectate","id":4,"code":"\#(code)"}"#, from: c[2])
    let state = try #require(harness.lobby.state.table(id) as? TableState<SetCard>)
    try #require(state.phase == .playing)
    let card = state.game.board[0].id

    let chose = try await harness.send(#"{"type":"choose","id":5,"card":\#(card)}"#, from: c[0])
    func selects(_ connection: ConnectionID) -> Bool {
      diffEvents(messages(chose, to: connection)).joined().contains { $0["kind"] == "select" }
    }
    #expect(selects(c[0]))
    #expect(!selects(c[1]))
    #expect(selects(c[2]))

    // Bob drops; Ada chooses again; Bob comes back from the version he had.
    harness.lobby.disconnected(c[1])
    _ = try harness.outbound.takeDeliveries()
    let second = state.game.board[1].id
    _ = try await harness.send(#"{"type":"choose","id":6,"card":\#(second)}"#, from: c[0])
    let resumed = try await harness.send(
      #"{"type":"hello","id":9,"resume":"\#(bobToken)","version":\#(bobVersion)}"#, from: c[3])
    let caughtUp = diffEvents(messages(resumed, to: c[3]))
    #expect(caughtUp.count >= 3)
    #expect(!caughtUp.joined().contains { $0["kind"] == "select" }, "\(caughtUp)")
    #expect(caughtUp.joined().contains { $0["kind"] == "away" })
  }
}
