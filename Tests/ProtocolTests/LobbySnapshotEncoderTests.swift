import Protocol
import Testing

@Suite struct LobbySnapshotEncoderTests {
  static let tables = [
    TableListing(id: "t1", game: "set", seats: 2, seated: 1, spectators: 0, phase: .waiting),
    TableListing(
      id: "t12", game: "concentration", seats: 4, seated: 4, spectators: 3, phase: .playing),
  ]

  /// The bytes of the message the protocol defines, whatever the reply id.
  @Test(arguments: [nil, MessageID.int(7), .int(-3), .string("a\"b")])
  func writesTheBytesOfTheLobbySnapshotMessage(replyTo: MessageID?) {
    var encoder = LobbySnapshotEncoder()
    for tables in [Self.tables, [], Array(Self.tables.prefix(1))] {
      let version = tables.count + 40
      let frame = encoder.frame(replyTo: replyTo, version: version) { tables }
      let expected = ServerMessage.lobbySnapshot(
        replyTo: replyTo, version: version, tables: tables
      ).encoded
      #expect(frame.payload == expected, "\(String(decoding: frame.payload, as: UTF8.self))")
    }
  }

  @Test func readsTheTablesOncePerVersion() {
    var encoder = LobbySnapshotEncoder()
    var reads = 0
    let tables = {
      reads += 1
      return Self.tables
    }
    let first = encoder.frame(replyTo: .int(1), version: 3, tables: tables)
    let second = encoder.frame(replyTo: .int(2), version: 3, tables: tables)
    #expect(reads == 1)
    #expect(first.payload != second.payload, "each answer has its own reply id")
    let later = encoder.frame(replyTo: nil, version: 4) { [] }
    #expect(reads == 1)
    #expect(
      later.payload
        == ServerMessage.lobbySnapshot(replyTo: nil, version: 4, tables: []).encoded)
  }
}
