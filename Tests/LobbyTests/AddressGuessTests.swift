import Testing

@testable import Lobby

/// Unknown invite codes are counted per client address as well as per session: a new session
/// is no new allowance, and in a cluster each node counts the others' misses.
@Suite struct AddressGuessTests {
  static let here = "198.51.100.7"
  static let elsewhere = "203.0.113.9"
  let c = (1...9).map { ConnectionID(UInt64($0)) }

  @Test func anAddressHasABurstThatDrains() {
    var book = AddressGuesses(burst: 3, refillSeconds: 10, capacity: 100)
    var allowed = false
    for _ in 0..<3 {
      allowed = book.mayGuess(Self.here, now: 0)
      #expect(allowed)
      book.missed(Self.here, now: 0)
    }
    allowed = book.mayGuess(Self.here, now: 0)
    #expect(!allowed)
    allowed = book.mayGuess(Self.elsewhere, now: 0)
    #expect(allowed)
    // One more after a refill; all of them after three, and the address is forgotten.
    allowed = book.mayGuess(Self.here, now: 10)
    #expect(allowed)
    allowed = book.mayGuess(Self.here, now: 30)
    #expect(allowed)
    #expect(book.buckets.isEmpty)
    // Misses told by another node count at once.
    book.missed(Self.here, count: 3, now: 40)
    allowed = book.mayGuess(Self.here, now: 40)
    #expect(!allowed)
  }

  @Test func theBookIsBounded() {
    var book = AddressGuesses(burst: 5, refillSeconds: 10, capacity: 3)
    for (index, address) in ["a", "b", "c"].enumerated() {
      book.missed(address, count: index + 2, now: 0)
    }
    // A fourth address makes room: the one that drains first goes.
    book.missed("d", now: 1)
    #expect(book.buckets.count == 3)
    #expect(Set(book.buckets.keys) == ["b", "c", "d"])
    // Drained ones go first.
    book.missed("e", now: 100)
    #expect(book.buckets.count <= 3 && book.buckets["e"] != nil)
  }

  /// Three sessions from one address share its allowance; a fourth from elsewhere does not.
  @Test func sessionsFromOneAddressShareItsGuesses() async throws {
    var configuration = LobbyConfiguration()
    configuration.inviteMissBurst = 3
    configuration.inviteMissAddressBurst = 5
    configuration.inviteMissAddressRefillSeconds = 10
    let harness = LobbyHarness(configuration: configuration)
    for i in 0..<5 { harness.lobby.connected(c[i], from: i == 4 ? Self.elsewhere : Self.here) }
    for i in 0..<5 { try await harness.hello(c[i], "P\(i)") }
    try await harness.send(
      #"{"type":"createTable","game":"set","seats":2,"private":true}"#, from: c[0])
    let code = try #require(harness.lobby.state.table("t1")?.code)
    func join(_ i: Int, _ guess: String, id: Int) async throws -> String? {
      let answer = try await harness.send(
        #"{"type":"join","id":\#(id),"code":"\#(guess)"}"#, from: c[i])
      return try only(answer, to: c[i])["code"]?.stringValue
    }
    for n in 0..<3 { #expect(try await join(1, "ZZZZZZZZZZ", id: n) == "unknownTable") }
    for n in 0..<2 { #expect(try await join(2, "YYYYYYYYYY", id: n) == "unknownTable") }
    // Five misses from the address: the second session's next try, and a third session's
    // first, are refused, even with the right code.
    #expect(try await join(2, "XXXXXXXXXX", id: 5) == "tooManyGuesses")
    #expect(try await join(3, code, id: 6) == "tooManyGuesses")
    // Another address is not held back.
    #expect(try await join(4, "WWWWWWWWWW", id: 7) == "unknownTable")
    // A connection gone takes its address along.
    harness.lobby.disconnected(c[3])
    #expect(harness.lobby.state.addresses[c[3]] == nil)
    // Once the address's misses drain, its sessions may guess again.
    harness.clock.set(60)
    let joined = try await harness.send(#"{"type":"join","id":8,"code":"\#(code)"}"#, from: c[2])
    #expect(messages(joined, to: c[2]).first?["type"] == "snapshot")
  }

  /// In a cluster, a miss here is news for the other nodes, and theirs count here.
  @Test func aClusterCountsEveryNodesMisses() throws {
    var node = try ClusterLobbyTests.Node("n1")
    let guesser = ClusterLobbyTests.ada
    let other = ClusterLobbyTests.bob
    node.state.noteAddress(Self.here, of: guesser)
    node.state.noteAddress(Self.elsewhere, of: other)
    _ = node.send(#"{"type":"hello","id":0,"name":"Guesser"}"#, from: guesser)
    _ = node.send(#"{"type":"hello","id":0,"name":"Other"}"#, from: other)
    func code(_ actions: [LobbyAction], to connection: ConnectionID) throws -> String? {
      try ClusterLobbyTests.messages(actions, to: connection).last?["code"]?.stringValue
    }
    let first = node.send(#"{"type":"join","id":1,"code":"ZZZZZZZZZZ"}"#, from: guesser)
    #expect(try code(first, to: guesser) == "unknownTable")
    #expect(
      first.contains { if case .missedGuess(address: Self.here) = $0 { true } else { false } })
    // 29 more misses of this address on other nodes: its allowance here is spent.
    _ = node.hear(.guessesMissed([Self.here: 29]))
    let refused = node.send(#"{"type":"join","id":2,"code":"YYYYYYYYYY"}"#, from: guesser)
    #expect(try code(refused, to: guesser) == "tooManyGuesses")
    #expect(!refused.contains { if case .missedGuess = $0 { true } else { false } })
    let elsewhere = node.send(#"{"type":"join","id":3,"code":"YYYYYYYYYY"}"#, from: other)
    #expect(try code(elsewhere, to: other) == "unknownTable")
  }
}
