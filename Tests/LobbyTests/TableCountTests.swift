import Protocol
import Testing

@testable import Lobby

/// The tables counted by game and phase where they are stored (the metrics' tables gauge),
/// against the same count read table by table.
@Suite struct TableCountTests {
  struct Kind: Equatable, Hashable {
    var game: String
    var phase: TablePhase
  }

  @Test func everyOpenTableIsCountedOnceByItsKind() throws {
    var state = MoveTicketTests.lobby(shards: 3)
    let opens = [
      #"{"type":"playSolo","game":"set"}"#, #"{"type":"playSolo","game":"set"}"#,
      #"{"type":"playSolo","game":"concentration"}"#,
      #"{"type":"createTable","game":"set","seats":2}"#,
      #"{"type":"createTable","game":"matchismo","seats":3}"#,
      #"{"type":"playSolo","game":"set"}"#,
    ]
    for (number, open) in opens.enumerated() {
      let connection = ConnectionID(rawValue: UInt64(number + 1))
      _ = MoveTicketTests.send(
        #"{"type":"hello","name":"P\#(number)"}"#, from: connection, to: &state)
      _ = MoveTicketTests.send(open, from: connection, to: &state)
    }
    #expect(state.tableCount == 6)

    var expected: [Kind: Int] = [:]
    for id in state.tableIDs {
      let table = try #require(state.table(id))
      expected[Kind(game: table.gameName, phase: table.phase), default: 0] += 1
    }
    let counted = state.countTables { Kind(game: $0.gameName, phase: $0.phase) }
    #expect(Set(counted.map(\.key)).count == counted.count, "each kind once")
    #expect(Dictionary(uniqueKeysWithValues: counted.map { ($0.key, $0.count) }) == expected)
    #expect(expected[Kind(game: "set", phase: .playing)] == 3, "\(expected)")
    #expect(expected.count >= 3, "\(expected)")
    // Counting changes nothing.
    #expect(state.tableCount == 6)
    #expect(state.countTables { Kind(game: $0.gameName, phase: $0.phase) }.count == counted.count)
  }
}
