import Protocol
import Testing

@Suite struct CrowdSnapshotEncoderTests {
  /// A snapshot as a table builds it for a spectator: its chat (first here) holds the bytes of a
  /// count's key in a string, and the arena's view a `spectators` key of its own, after the
  /// table's.
  static func snapshot(
    replyTo: MessageID? = nil, spectators: Int, version: Int = 3, countdown: Int = 5
  ) -> JSONValue {
    var members: [(String, JSONValue)] = [("type", "snapshot")]
    if let replyTo { members.append(("replyTo", replyTo.json)) }
    members += [
      ("chat", .array([.string(#"x,"spectators":9"#)])),
      (
        "table",
        .object([
          ("id", "t1"), ("version", .int(version)), ("spectators", .int(spectators)),
          ("countdown", .int(countdown)),
          ("arena", .object([("spectators", .int(77))])),
        ])
      ),
    ]
    return .object(members)
  }

  /// The bytes of the snapshot the table would have encoded for each spectator.
  @Test(arguments: [nil, MessageID.int(7), .int(-3), .string("a\"b")])
  func writesTheBytesOfEachSpectatorsOwnSnapshot(replyTo: MessageID?) {
    var encoder = CrowdSnapshotEncoder()
    for count in [0, 1, 12, 12_345, 3] {
      let frame = encoder.frame(
        replyTo: replyTo, spectators: count, snapshot: Self.snapshot(spectators: count))
      let expected = Self.snapshot(replyTo: replyTo, spectators: count).encoded
      #expect(frame.payload == expected, "\(String(decoding: frame.payload, as: UTF8.self))")
    }
    #expect(encoder.encodings == 1)
  }

  @Test func encodesAgainWhateverElseTheSnapshotShowsDifferently() {
    var encoder = CrowdSnapshotEncoder()
    let shown: [JSONValue] = [
      Self.snapshot(spectators: 1),
      Self.snapshot(spectators: 2, version: 4),
      Self.snapshot(spectators: 2, version: 4, countdown: 4),
      Self.snapshot(spectators: 2, version: 4, countdown: 4),
    ]
    for (index, snapshot) in shown.enumerated() {
      let frame = encoder.frame(replyTo: .int(index), spectators: 9, snapshot: snapshot)
      guard case .object(var members) = snapshot,
        case .object(var table) = members[2].1
      else {
        Issue.record("not a snapshot")
        return
      }
      table[2].1 = .int(9)
      members[2].1 = .object(table)
      members.insert(("replyTo", .int(index)), at: 1)
      #expect(frame.payload == JSONValue.object(members).encoded)
    }
    // The last one showed what the one before did.
    #expect(encoder.encodings == 3)
  }

  @Test func encodesStrictlyWhatEqualsLooselyAndKeepsNothingItCannotSplice() {
    var encoder = CrowdSnapshotEncoder()
    let whole: JSONValue = .object([("type", "snapshot"), ("table", .object([("n", .int(1))]))])
    let loose: JSONValue = .object([
      ("type", "snapshot"), ("table", .object([("n", .double(1))])),
    ])
    // No count to splice: encoded every time, nothing kept.
    #expect(encoder.frame(replyTo: nil, spectators: 4, snapshot: whole).payload == whole.encoded)
    #expect(!encoder.isHolding)
    #expect(encoder.frame(replyTo: nil, spectators: 4, snapshot: loose).payload == loose.encoded)
    #expect(encoder.encodings == 2)
    // `1` and `1.0` are equal JSON values but not the same bytes.
    var counted = CrowdSnapshotEncoder()
    for value in [JSONValue.int(1), .double(1)] {
      let snapshot: JSONValue = .object([
        ("type", "snapshot"), ("table", .object([("spectators", .int(0)), ("n", value)])),
      ])
      #expect(
        counted.frame(replyTo: nil, spectators: 0, snapshot: snapshot).payload == snapshot.encoded)
    }
    #expect(counted.encodings == 2)
    counted.forget()
    #expect(!counted.isHolding)
  }
}
