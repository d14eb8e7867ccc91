import Lobby
import Protocol
import TestSupport
import Testing

/// `LobbyState.statistics` counts each move once: accepted, or refused with the error code the
/// player was sent.
@Suite struct LobbyStatisticsTests {
  @Test func movesAreCountedAcceptedOrRefusedByReason() async throws {
    let harness = LobbyHarness()
    let player = ConnectionID(rawValue: 1)
    #expect(harness.lobby.state.statistics == LobbyState.Statistics())

    try await harness.send(#"{"type":"choose","id":1,"card":0}"#, from: player)
    #expect(harness.lobby.state.statistics.movesRejected == [.helloRequired: 1])

    try await harness.send(#"{"type":"hello","id":2,"name":"Ada"}"#, from: player)
    try await harness.send(#"{"type":"choose","id":3,"card":0}"#, from: player)
    #expect(harness.lobby.state.statistics.movesRejected[.notAtTable] == 1)

    try await harness.send(#"{"type":"playSolo","id":4,"game":"set"}"#, from: player)
    let board = try #require(harness.lobby.state.tableIDs.first.flatMap(harness.lobby.state.table))
    let snapshot = board.snapshot(replyTo: nil, you: 0, now: 0)
    let cards = try #require(snapshot["table"]?["board"]?.elements)
    let onBoard = Set(cards.compactMap { $0["id"]?.intValue })
    let first = try #require(onBoard.first)
    let missing = try #require((0..<81).first { !onBoard.contains($0) })

    try await harness.send(#"{"type":"choose","id":5,"card":\#(first)}"#, from: player)
    try await harness.send(#"{"type":"choose","id":6,"card":\#(missing)}"#, from: player)
    // Not a move: the lobby list. Nothing changes.
    try await harness.send(#"{"type":"lobby","id":7}"#, from: player)

    let statistics = harness.lobby.state.statistics
    #expect(statistics.movesAccepted == 1)
    #expect(
      statistics.movesRejected == [.helloRequired: 1, .notAtTable: 1, .cardNotOnTable: 1])
  }
}
