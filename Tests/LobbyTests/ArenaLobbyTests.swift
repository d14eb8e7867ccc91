import Model
import Protocol
import TestSupport
import Testing

@testable import Lobby

/// Arenas in the lobby: a private arena created and joined by code, its free players paired
/// within the pairing pass and seated at a sprint that starts at once, the sprint's end (first
/// to 5 sets, time, a forfeit) scored in the standings, the next pairing, and every refusal.
@Suite struct ArenaLobbyTests {
  let ann = ConnectionID(1)
  let bob = ConnectionID(2)
  let cy = ConnectionID(3)

  /// A harness with no countdown, and Ann's private arena that Bob joined, starting now.
  func arenaOfTwo() async throws -> (LobbyHarness, arena: String, code: String) {
    let harness = LobbyHarness(countdown: 0)
    try await harness.hello(ann, "Ann")
    try await harness.hello(bob, "Bob")
    let created = try reply(
      await harness.send(
        #"{"type":"createArena","id":2,"game":"set","minutes":10,"startsIn":0}"#, from: ann),
      to: ann)
    #expect(created["type"] == "arena" && created["replyTo"] == .int(2))
    #expect(created["joined"] == .bool(true))
    let arena = try #require(created["arena"]?["id"]?.stringValue)
    let code = try #require(created["arena"]?["code"]?.stringValue)
    #expect(created["arena"]?["private"] == .bool(true))
    #expect(created["arena"]?["phase"] == "running")
    let joined = try reply(
      await harness.send(#"{"type":"joinArena","id":3,"code":"\#(code)"}"#, from: bob), to: bob)
    #expect(joined["arena"]?["players"] == .int(2) && joined["joined"] == .bool(true))
    #expect(joined["arena"]?["you"] == .int(2))
    return (harness, arena, code)
  }

  /// The answer to `connection`'s request among `deliveries` (the standings that may follow
  /// it at once left out).
  func reply(
    _ deliveries: [OutboundRecorder.Delivery], to connection: ConnectionID,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> JSONValue {
    try #require(
      messages(deliveries, to: connection).first { $0["type"] != "arenaStandings" },
      sourceLocation: sourceLocation)
  }

  /// The table a player was seated at by an `arenaGame` among `deliveries`.
  func arenaGame(_ deliveries: [OutboundRecorder.Delivery], to connection: ConnectionID) -> String?
  {
    messages(deliveries, to: connection).first { $0["type"] == "arenaGame" }?["table"]?
      .stringValue
  }

  /// The cards of a set on table `id`'s board.
  func setAt(_ harness: LobbyHarness, _ id: String) throws -> [Int] {
    let table = try #require(harness.lobby.state.table(id) as? TableState<SetCard>)
    return aSet(on: table)
  }

  @Test func freePlayersArePairedAndTheFirstToFiveSetsWinsTwoPoints() async throws {
    let (harness, arena, _) = try await arenaOfTwo()
    // The pairing pass comes within a second of both being free.
    let paired = try await harness.tick(at: 1)
    let table = try #require(arenaGame(paired, to: ann))
    #expect(arenaGame(paired, to: bob) == table)
    let snapshot = try #require(
      messages(paired, to: ann).first { $0["type"] == "snapshot" })
    // The last to sit fills the table, which starts at once.
    #expect(
      messages(paired, to: ann).contains {
        $0["type"] == "diff" && $0.text.contains(#""phase":"playing""#)
      })
    #expect(!messages(paired, to: ann).contains { $0["type"] == "error" })
    #expect(
      snapshot["table"]?["arena"]?["id"] == .string(arena)
        && snapshot["table"]?["arena"]?["sets"] == .int(5))
    // Ann takes five sets: the game is over and she has won it.
    var sent: [OutboundRecorder.Delivery] = []
    for _ in 0..<5 {
      for card in try setAt(harness, table) {
        sent += try await harness.send(#"{"type":"choose","card":\#(card)}"#, from: ann)
      }
    }
    #expect(messages(sent, to: bob).contains { $0.text.contains(#""kind":"over""#) })
    let redeal = try reply(await harness.send(#"{"type":"redeal","id":8}"#, from: ann), to: ann)
    expectError(redeal, .arenaRule, replyTo: .int(8))
    // The standings go out (one frame for both) and the two are paired again within 3 s.
    let after = try await harness.tick(at: 2.5)
    let standings = try #require(
      messages(sent + after, to: bob).last { $0["type"] == "arenaStandings" })
    let rows = try #require(standings["standings"]?.elements)
    #expect(rows.map { $0["name"]?.stringValue } == ["Ann", "Bob"])
    #expect(rows.map { $0["points"]?.intValue } == [2, 0])
    #expect(rows.map { $0["played"]?.intValue } == [1, 1])
    let next = try #require(arenaGame(after, to: ann))
    #expect(next != table && arenaGame(after, to: bob) == next)
  }

  @Test func aSprintEndsOnTimeAndAPlayerWhoLeavesLosesTheGameButStaysInTheStandings()
    async throws
  {
    let (harness, arena, _) = try await arenaOfTwo()
    let table = try #require(arenaGame(try await harness.tick(at: 1), to: ann))
    for card in try setAt(harness, table) {
      try await harness.send(#"{"type":"choose","card":\#(card)}"#, from: bob)
    }
    // Three minutes on, the sprint is over: Bob, one set ahead, has won.
    let timeUp = try await harness.tick(at: 181.5)
    #expect(messages(timeUp, to: ann).contains { $0.text.contains(#""kind":"over""#) })
    let second = try #require(arenaGame(try await harness.tick(at: 183), to: ann))
    #expect(second != table)
    // Bob leaves the arena in the middle of the next game: he has lost it, Ann has won.
    let left = try await harness.send(
      #"{"type":"leaveArena","id":5,"arena":"\#(arena)"}"#, from: bob)
    let answer = try #require(messages(left, to: bob).first { $0["type"] == "arena" })
    #expect(answer["joined"] == .bool(false) && answer["replyTo"] == .int(5))
    let standings = try #require(
      messages(try await harness.tick(at: 184), to: ann).last { $0["type"] == "arenaStandings" })
    let rows = try #require(standings["standings"]?.elements)
    #expect(rows.map { $0["name"]?.stringValue } == ["Ann", "Bob"])
    #expect(rows.map { $0["points"]?.intValue } == [2, 2])
    #expect(rows.map { $0["left"]?.boolValue } == [false, true])
    // Nobody is left to play Ann: no third game.
    #expect(arenaGame(try await harness.tick(at: 190), to: ann) == nil)
  }

  @Test func badArenaRequestsAreRefusedAndChangeNothing() async throws {
    let (harness, arena, code) = try await arenaOfTwo()
    try await harness.hello(cy, "Cy")
    let twice = try reply(
      await harness.send(#"{"type":"joinArena","id":4,"code":"\#(code)"}"#, from: bob), to: bob)
    expectError(twice, .alreadyJoined, replyTo: .int(4))
    // A private arena is not found by its id, nor shown to someone not in it.
    let byID = try reply(
      await harness.send(#"{"type":"joinArena","id":5,"arena":"\#(arena)"}"#, from: cy), to: cy)
    expectError(byID, .unknownArena, replyTo: .int(5))
    let list = try reply(await harness.send(#"{"type":"arenas","id":6}"#, from: cy), to: cy)
    #expect(list["arenas"]?.elements?.contains { $0["id"] == .string(arena) } == false)
    let notIn = try reply(
      await harness.send(#"{"type":"leaveArena","id":7,"arena":"\#(arena)"}"#, from: cy), to: cy)
    expectError(notIn, .unknownArena, replyTo: .int(7))
    // Guessing codes, slower than the flood limit: each wrong one is unknownArena, until the
    // guesses run out as invite codes' do.
    var codes: [String] = []
    for guess in 0..<20 {
      _ = try await harness.tick(at: 2 + Double(guess) * 2)
      let answer = try reply(
        await harness.send(#"{"type":"joinArena","id":9,"code":"WRONG\#(guess)"}"#, from: cy),
        to: cy)
      codes.append(answer["code"]?.stringValue ?? "")
    }
    #expect(codes.prefix(10).allSatisfy { $0 == "unknownArena" }, "\(codes)")
    #expect(codes.last == "tooManyGuesses", "\(codes)")
    // After its end (and its games') nobody joins.
    _ = try await harness.tick(at: 601)
    let late = try reply(
      await harness.send(#"{"type":"joinArena","id":10,"code":"\#(code)"}"#, from: cy), to: cy)
    #expect(late["code"] == "arenaOver" || late["code"] == "tooManyGuesses")
    #expect(harness.lobby.state.arenaBook.arenas[arena]?.entrants.count == 2)
  }

  @Test func joinAndLeaveFloodsAreRateLimited() async throws {
    let (harness, arena, _) = try await arenaOfTwo()
    var answers: [String] = []
    for _ in 0..<10 {
      let sent = try await harness.send(
        #"{"type":"leaveArena","id":1,"arena":"\#(arena)"}"#, from: bob)
      answers.append(messages(sent, to: bob).first?["code"]?.stringValue ?? "ok")
    }
    #expect(answers.contains("tooFast"))
  }

  @Test func aSpectatorOfTheFeaturedGameFollowsTheLeaderToTheirNextGame() async throws {
    let (harness, arena, code) = try await arenaOfTwo()
    try await harness.hello(cy, "Cy")
    // Before any game there is nothing to watch.
    let early = try reply(
      await harness.send(#"{"type":"watchFeatured","id":4,"arena":"\#(arena)"}"#, from: cy),
      to: cy)
    expectError(early, .unknownArena, replyTo: .int(4))
    // Cy joins with the code (a private arena's games are for those in it), then leaves it,
    // staying to watch.
    _ = try await harness.send(#"{"type":"joinArena","code":"\#(code)"}"#, from: cy)
    _ = try await harness.send(#"{"type":"leaveArena","arena":"\#(arena)"}"#, from: cy)
    let table = try #require(arenaGame(try await harness.tick(at: 1), to: ann))
    let watched = messages(
      try await harness.send(#"{"type":"watchFeatured","id":5,"arena":"\#(arena)"}"#, from: cy),
      to: cy)
    #expect(watched.first?["type"] == "arenaGame" && watched.first?["featured"] == .bool(true))
    #expect(watched.first?["table"] == .string(table))
    let snapshot = try #require(watched.first { $0["type"] == "snapshot" })
    #expect(snapshot["table"]?["id"] == .string(table) && snapshot["table"]?["you"] == nil)
    for _ in 0..<5 {
      for card in try setAt(harness, table) {
        try await harness.send(#"{"type":"choose","card":\#(card)}"#, from: bob)
      }
    }
    let next = try await harness.tick(at: 2.5)
    let nextTable = try #require(arenaGame(next, to: bob))
    let followed = messages(next, to: cy).first { $0["type"] == "arenaGame" }
    #expect(followed?["table"] == .string(nextTable) && followed?["featured"] == .bool(true))
    #expect(
      messages(next, to: cy).contains {
        $0["type"] == "snapshot" && $0["table"]?["id"] == .string(nextTable)
      })
  }

  @Test func theScheduleOpensItsNextArenaForEveryone() async throws {
    var configuration = LobbyConfiguration()
    configuration.arenaSchedule = ArenaSchedule(every: 60, minutes: 10, game: "set")
    let harness = LobbyHarness(configuration: configuration)
    try await harness.hello(ann, "Ann")
    let list = try reply(await harness.send(#"{"type":"arenas","id":2}"#, from: ann), to: ann)
    let arenas = try #require(list["arenas"]?.elements)
    // The wall clock of these tests is 2026-01-01 00:00 UTC: the next arena is at once.
    #expect(arenas.map { $0["name"]?.stringValue } == ["Set arena 00:00"])
    #expect(arenas.first?["private"] == .bool(false) && arenas.first?["phase"] == "running")
    #expect(arenas.first?["endsIn"] == .double(600))
    let id = try #require(arenas.first?["id"]?.stringValue)
    let joined = try reply(
      await harness.send(#"{"type":"joinArena","id":3,"arena":"\#(id)"}"#, from: ann), to: ann)
    #expect(joined["joined"] == .bool(true) && joined["arena"]?["code"] != nil)
    // Once it has started, the one after it is opened.
    _ = try await harness.tick(at: 2)
    let later = try reply(await harness.send(#"{"type":"arenas","id":4}"#, from: ann), to: ann)
    #expect(
      later["arenas"]?.elements?.map { $0["name"]?.stringValue } == [
        "Set arena 00:00", "Set arena 01:00",
      ])
  }

  @Test func standingsGoOutAtMostFourTimesASecondAndArenaGamesAreRated() async throws {
    let harness = LobbyHarness(countdown: 0)
    try await harness.hello(ann, "Ann")
    let created = try reply(
      await harness.send(
        #"{"type":"createArena","id":2,"game":"set","minutes":10,"startsIn":60}"#, from: ann),
      to: ann)
    let code = try #require(created["arena"]?["code"]?.stringValue)
    // Three join at the same moment: Ann hears the standings once now, then once more a
    // quarter of a second after the first (with all three), not before.
    var sent: [OutboundRecorder.Delivery] = []
    for (connection, name) in [(bob, "Bob"), (cy, "Cy"), (ConnectionID(4), "Dee")] {
      try await harness.hello(connection, name)
      sent += try await harness.send(#"{"type":"joinArena","code":"\#(code)"}"#, from: connection)
    }
    let standings = { (deliveries: [OutboundRecorder.Delivery]) in
      messages(deliveries, to: self.ann).filter { $0["type"] == "arenaStandings" }
    }
    #expect(standings(sent).count <= 1)
    #expect(standings(try await harness.tick(at: 0.2)).isEmpty)
    let later = standings(try await harness.tick(at: 0.3))
    #expect(later.count == 1 && later.first?["players"] == .int(4))
    // Once it starts, its games are rated (two people play them), private as they are.
    let paired = try await harness.tick(at: 61)
    let table = try #require(arenaGame(paired, to: ann))
    let state = try #require(harness.lobby.state.table(table) as? TableState<SetCard>)
    #expect(state.isPrivate && state.rated)
  }
}
