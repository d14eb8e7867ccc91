import Model
import Protocol
import TestSupport
import Testing

@testable import Lobby

/// `playBot`: a private table of the game with computer players of one level, the person
/// sitting last (and hosting), which starts it; the computers play by the lobby's clock.
@Suite struct PlayBotLobbyTests {
  let c1 = ConnectionID(1)

  @Test func aGameAgainstTheComputerStartsAndTheComputersPlayByTheClock() async throws {
    let harness = LobbyHarness()
    _ = try await harness.send(#"{"type":"hello","id":1,"name":"Ada"}"#, from: c1)
    let snapshot = try only(
      await harness.send(
        #"{"type":"playBot","id":2,"game":"set","level":"expert","bots":2}"#, from: c1), to: c1)
    #expect(snapshot["type"] == "snapshot" && snapshot["replyTo"] == .int(2))
    let table = try #require(snapshot["table"])
    let players = try #require(table["players"]?.elements)
    #expect(players.map { $0["bot"]?["level"]?.stringValue } == ["expert", "expert", nil])
    #expect(
      players.map { $0["name"]?.stringValue } == [
        "Computer 1 (expert)", "Computer 2 (expert)", "Ada",
      ])
    #expect(table["you"] == .int(2) && table["host"] == .int(2) && table["private"] == .bool(true))
    var claims: [Int: Int] = [:]
    var versions: [Int] = []
    for tenth in 1...600 {
      for message in messages(try await harness.tick(at: Double(tenth) / 10), to: c1)
      where message["type"] == "diff" {
        versions.append(message["version"]?.intValue ?? -1)
        if let seat = message["seat"]?.intValue { claims[seat, default: 0] += 1 }
      }
    }
    // Both computers chose cards, the person none; the diffs came in order, none missed.
    #expect((claims[0] ?? 0) >= 3 && (claims[1] ?? 0) >= 3 && claims[2] == nil, "\(claims)")
    #expect(versions == Array((versions.first ?? 0)...(versions.last ?? 0)))
  }

  @Test func whatCannotBePlayedAgainstTheComputerIsRefused() async throws {
    let harness = LobbyHarness()
    _ = try await harness.send(#"{"type":"hello","id":1,"name":"Ada"}"#, from: c1)
    let asked: [(String, ErrorCode)] = [
      (#""game":"set","level":"wizard""#, .badField),
      (#""game":"set","level":"casual","bots":4"#, .badField),
      (#""game":"set","level":"casual","bots":0"#, .badField),
      (#""game":"chess","level":"casual""#, .unknownGame),
      (#""game":"set","level":"casual","boardSize":4"#, .badSettings),
    ]
    for (fields, code) in asked {
      let answer = try only(
        await harness.send(#"{"type":"playBot","id":9,\#(fields)}"#, from: c1), to: c1)
      expectError(answer, code, replyTo: .int(9))
    }
    #expect(harness.lobby.tableCount == 0)
  }
}
