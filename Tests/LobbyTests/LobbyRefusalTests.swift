import Lobby
import Model
import Protocol
import TestSupport
import Testing

/// A refused request changes nothing; caps answer with typed errors; lobby changes coalesce.
@Suite struct LobbyRefusalTests {
  let c = (1...9).map { ConnectionID(UInt64($0)) }

  /// Ada and Bob at a full two-seat table `t1` that is playing; Cy sits alone at `t2`.
  func fullTableAndCy() async throws -> LobbyHarness {
    let harness = LobbyHarness(countdown: 0)
    for (i, name) in ["Ada", "Bob", "Cy"].enumerated() { try await harness.hello(c[i], name) }
    try await harness.send(
      #"{"type":"createTable","game":"set","seats":2,"private":false}"#, from: c[0])
    try await harness.send(#"{"type":"join","table":"t1"}"#, from: c[1])
    try await harness.send(
      #"{"type":"createTable","game":"set","seats":3,"private":false}"#, from: c[2])
    return harness
  }

  @Test func aRefusedJoinLeavesThePlayerSeated() async throws {
    let harness = try await fullTableAndCy()
    let answer = try await harness.send(#"{"type":"join","id":5,"table":"t1"}"#, from: c[2])
    // Only Cy hears anything: the refusal. Nobody at t2 sees Cy leave.
    expectError(try only(answer, to: c[2]), .tableFull, replyTo: .int(5))
    let resync = try await harness.send(#"{"type":"resync","id":6}"#, from: c[2])
    let table = try #require(only(resync, to: c[2])["table"])
    #expect(table["id"] == "t2")
    #expect(table["you"] == .int(0))
    #expect(table["host"] == .int(0))
  }

  @Test func aRefusedSpectateLeavesThePlayerSeated() async throws {
    var configuration = LobbyConfiguration()
    configuration.countdown = 0
    configuration.spectatorLimit = 1
    let harness = LobbyHarness(configuration: configuration)
    for (i, name) in ["Ada", "Bob", "Cy", "Dee"].enumerated() {
      try await harness.hello(c[i], name)
    }
    try await harness.send(
      #"{"type":"createTable","game":"set","seats":2,"private":false}"#, from: c[0])
    try await harness.send(#"{"type":"spectate","table":"t1"}"#, from: c[1])
    try await harness.send(#"{"type":"playSolo","game":"set"}"#, from: c[2])
    let answer = try await harness.send(#"{"type":"spectate","id":7,"table":"t1"}"#, from: c[2])
    expectError(try only(answer, to: c[2]), .spectatorLimit, replyTo: .int(7))
    let unknown = try await harness.send(#"{"type":"spectate","id":8,"table":"t99"}"#, from: c[2])
    expectError(try only(unknown, to: c[2]), .unknownTable, replyTo: .int(8))
    let resync = try await harness.send(#"{"type":"resync"}"#, from: c[2])
    #expect(try only(resync, to: c[2])["table"]?["id"] == "t2")
    #expect(harness.lobby.tableCount == 2)
  }

  @Test func tablesPerSessionAreCapped() async throws {
    var configuration = LobbyConfiguration()
    configuration.tablesPerSession = 2
    let harness = LobbyHarness(configuration: configuration)
    try await harness.hello(c[0], "Ada")
    try await harness.hello(c[1], "Bob")
    // Ada opens a table, Bob sits at it, Ada opens another: two tables of Ada's stay open.
    try await harness.send(#"{"type":"createTable","game":"set","seats":3}"#, from: c[0])
    try await harness.send(#"{"type":"join","table":"t1"}"#, from: c[1])
    try await harness.send(#"{"type":"createTable","game":"set","seats":3}"#, from: c[0])
    try await harness.send(#"{"type":"join","table":"t2"}"#, from: c[1])
    let refused = try await harness.send(
      #"{"type":"createTable","id":3,"game":"set","seats":3}"#, from: c[0])
    expectError(try only(refused, to: c[0]), .tooManyTables, replyTo: .int(3))
    // Ada is still at t2.
    let resync = try await harness.send(#"{"type":"resync"}"#, from: c[0])
    #expect(try only(resync, to: c[0])["table"]?["id"] == "t2")
  }

  @Test func theServerHoldsAtMostMaxTables() async throws {
    var configuration = LobbyConfiguration()
    configuration.maxTables = 2
    let harness = LobbyHarness(configuration: configuration)
    for i in 0..<3 { try await harness.hello(c[i], "P\(i)") }
    try await harness.send(#"{"type":"playSolo","game":"set"}"#, from: c[0])
    try await harness.send(#"{"type":"playSolo","game":"set"}"#, from: c[1])
    let refused = try await harness.send(#"{"type":"playSolo","id":4,"game":"set"}"#, from: c[2])
    expectError(try only(refused, to: c[2]), .serverFull, replyTo: .int(4))
    #expect(harness.lobby.tableCount == 2)
  }

  @Test func unknownInviteCodesAreLimitedPerSession() async throws {
    var configuration = LobbyConfiguration()
    configuration.inviteMissBurst = 3
    configuration.inviteMissRefillSeconds = 10
    let harness = LobbyHarness(configuration: configuration)
    try await harness.hello(c[0], "Ada")
    try await harness.hello(c[1], "Bob")
    try await harness.send(
      #"{"type":"createTable","game":"set","seats":2,"private":true}"#, from: c[0])
    let code = try #require(
      harness.lobby.state.table("t1")?.code)
    for n in 0..<3 {
      let miss = try await harness.send(
        #"{"type":"join","id":\#(n),"code":"ZZZZZZZZZZ"}"#, from: c[1])
      expectError(try only(miss, to: c[1]), .unknownTable, replyTo: .int(n))
    }
    // Even the right code is refused now: guessing is throttled, not just failing.
    let throttled = try await harness.send(#"{"type":"join","id":9,"code":"\#(code)"}"#, from: c[1])
    expectError(try only(throttled, to: c[1]), .tooManyGuesses, replyTo: .int(9))
    harness.clock.set(10.5)
    let allowed = try await harness.send(#"{"type":"join","id":10,"code":"\#(code)"}"#, from: c[1])
    #expect(messages(allowed, to: c[1]).first?["type"] == "snapshot")
  }

  @Test func lobbyChangesAreCoalescedIntoOneDiffPerInterval() async throws {
    var configuration = LobbyConfiguration()
    configuration.lobbyFlushInterval = 0.5
    let harness = LobbyHarness(configuration: configuration)
    try await harness.hello(c[8], "Watcher")
    try await harness.send(#"{"type":"lobby"}"#, from: c[8])
    harness.clock.set(1)
    for i in 0..<4 {
      try await harness.hello(c[i], "P\(i)")
      let answer = try await harness.send(
        #"{"type":"quickMatch","game":"set","seats":4}"#, from: c[i])
      // The first change goes out at once (nothing was published for a while); the next ones
      // wait for the interval.
      let diffs = messages(answer, to: c[8]).filter { $0["type"] == "lobbyDiff" }
      #expect(diffs.count == (i == 0 ? 1 : 0))
    }
    #expect(try await harness.tick(at: 1.4).isEmpty)
    let later = try await harness.tick(at: 1.5)
    let diffs = messages(later, to: c[8])
    try #require(diffs.count == 1)
    #expect(diffs[0]["version"] == .int(2))
    let changes = try #require(diffs[0]["changes"]?.elements)
    // One change per table: its latest row.
    #expect(changes.count == 1)
    #expect(changes[0]["table"]?["seated"] == .int(4))
    #expect(try await harness.tick(at: 3).isEmpty)
  }
}
