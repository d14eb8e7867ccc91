import Lobby
import Protocol
import Testing

/// Issue 21: a quick match honours the table settings asked for, the list names who sits at a
/// table, and a quick match never fills a table whose other seats are held for players who left.
@Suite struct QuickMatchSettingsTests {
  let c = (1...6).map { ConnectionID(UInt64($0)) }

  /// `c[i]` says hello as `name` and asks for a quick match with `fields` added; returns the
  /// id of the table it was seated at.
  func quickMatch(
    _ harness: LobbyHarness, _ i: Int, _ name: String, seats: Int = 3, _ fields: String = ""
  ) async throws -> String {
    try await harness.hello(c[i], name)
    let answer = try await harness.send(
      #"{"type":"quickMatch","id":2,"game":"set","seats":\#(seats)\#(fields)}"#, from: c[i])
    let snapshot = try #require(messages(answer, to: c[i]).first { $0["type"] == "snapshot" })
    return try #require(snapshot["table"]?["id"]?.stringValue)
  }

  @Test func aQuickMatchGoesOnlyToATableWithTheSettingsAskedFor() async throws {
    let harness = LobbyHarness()
    let classic = try await quickMatch(harness, 0, "Ada", #","scoring":"classic""#)
    // Other settings: a table of its own, with them.
    let course = try await quickMatch(harness, 1, "Bob", #","scoring":"course""#)
    #expect(course != classic)
    let snapshot = try await harness.send(#"{"type":"resync","id":3}"#, from: c[1])
    #expect(snapshot.first?.message["table"]?["settings"]?["scoring"] == "course")
    // The same settings, spelled out or left to the defaults (classic with others): Ada's.
    #expect(
      try await quickMatch(harness, 2, "Cy", #","scoring":"classic","boardSize":12"#) == classic)
    #expect(try await quickMatch(harness, 3, "Dee") == classic)
    // A bigger board is another table again.
    #expect(try await quickMatch(harness, 4, "Eve", #","boardSize":15"#) != classic)
  }

  @Test func badSettingsAreRefusedAndSeatNobody() async throws {
    let harness = LobbyHarness()
    try await harness.hello(c[0], "Ada")
    let answer = try await harness.send(
      #"{"type":"quickMatch","id":2,"game":"set","seats":3,"boardSize":13}"#, from: c[0])
    let error = try only(answer, to: c[0])
    #expect(error["type"] == "error")
    #expect(error["code"] == "badSettings")
    #expect(harness.lobby.tableCount == 0)
  }

  @Test func theListNamesWhoSitsThereAndWhoIsAway() async throws {
    let harness = LobbyHarness()
    let table = try await quickMatch(harness, 0, "Ada")
    _ = try await quickMatch(harness, 1, "Bob")
    try await harness.hello(c[5], "Watcher")
    var answer = try await harness.send(#"{"type":"lobby","id":"l"}"#, from: c[5])
    var row = try #require(try only(answer, to: c[5])["tables"]?.elements?.first)
    #expect(row["id"] == .string(table))
    #expect(row["players"] == JSONValue.parse(#"[{"name":"Ada"},{"name":"Bob"}]"#))
    #expect(row["settings"]?["scoring"] == "classic")
    #expect(row["settings"]?["boardSize"] == .int(12))
    // Bob drops: his seat is held, and the list says so.
    harness.lobby.disconnected(c[1])
    answer = try harness.outbound.takeDeliveries()
    let diff = try #require(messages(answer, to: c[5]).first { $0["type"] == "lobbyDiff" })
    row = try #require(diff["changes"]?.elements?.first?["table"])
    #expect(row["players"] == JSONValue.parse(#"[{"name":"Ada"},{"name":"Bob","away":true}]"#))
  }

  @Test func aQuickMatchPassesOverATableWhoseOtherSeatsAreHeldForPlayersWhoLeft() async throws {
    let harness = LobbyHarness()
    let held = try await quickMatch(harness, 0, "Ada", seats: 2)
    harness.lobby.disconnected(c[0])
    _ = try harness.outbound.takeDeliveries()
    // Bob would fill it and start a game against nobody: he gets a table of his own.
    let bobs = try await quickMatch(harness, 1, "Bob", seats: 2)
    #expect(bobs != held)
    // Cy joins Bob's, where everyone is here.
    #expect(try await quickMatch(harness, 2, "Cy", seats: 2) == bobs)
  }
}
