/// Encodes a table's snapshot for its spectators once, and each spectator's answer from that
/// encoding: a crowd arriving at once asks for the same table in the same state, and encoding
/// a whole snapshot per spectator was most of what a join cost (in a join storm of 10,000, half
/// of every `watch` decision, `perf`, docs/BENCHMARKS.md).
///
/// The caller still builds the snapshot (the table's own view at `now`, no reply id), and it is
/// compared with the one encoded last: the encoding is reused only for the same snapshot, to
/// the byte, so nothing the table shows can be stale. What differs between two answers is
/// spliced into the shared bytes: the reply id (right after the type, as in
/// ``LobbySnapshotEncoder``) and the number of spectators (the table's own `spectators` member,
/// the first `"spectators"` key of the encoding: a key is the only place those bytes can stand
/// unescaped), which a crowd arriving changes with every newcomer.
public struct CrowdSnapshotEncoder: Sendable {
  /// The snapshot encoded last, and its encoding without the reply id, split around the
  /// spectators' count.
  private var encoded: (snapshot: JSONValue, head: [UInt8], tail: [UInt8])?
  /// How many snapshots were encoded (for tests and benchmarks).
  public private(set) var encodings = 0

  private static let type = Array(#"{"type":"snapshot""#.utf8)
  private static let countKey = Array(#","spectators":"#.utf8)

  /// An encoder that has encoded nothing yet.
  public init() {}

  /// Whether an encoding is kept.
  public var isHolding: Bool { encoded != nil }

  /// Lets the kept encoding go (the table changed: it would not be reused).
  public mutating func forget() { encoded = nil }

  /// `snapshot` (a table's snapshot without a reply id, as ``ServerMessage/snapshot`` builds
  /// it) answering `replyTo`, with its spectators' count set to `spectators`.
  public mutating func frame(
    replyTo: MessageID?, spectators: Int, snapshot: JSONValue
  ) -> Frame {
    if let encoded, Self.same(snapshot, encoded.snapshot) {
      return Self.frame(replyTo, spectators, encoded.head, encoded.tail)
    }
    encodings += 1
    let bytes = snapshot.encoded
    guard bytes.starts(with: Self.type), let key = bytes.firstRange(of: Self.countKey) else {
      // Not a table's snapshot with a count: nothing to splice, nothing kept.
      encoded = nil
      return Frame(bytes)
    }
    let countStart = key.upperBound
    var countEnd = countStart
    while countEnd < bytes.count, Self.isNumber(bytes[countEnd]) { countEnd += 1 }
    let head = Array(bytes[Self.type.count..<countStart])
    let tail = Array(bytes[countEnd...])
    encoded = (snapshot, head, tail)
    return Self.frame(replyTo, spectators, head, tail)
  }

  /// Whether two snapshots encode to the same bytes but for the table's spectators' count:
  /// the same members in the same order, the same values, compared strictly (`==` on
  /// ``JSONValue`` takes objects in any order and `1` for `1.0`, which encode differently).
  static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
    guard case .object(let x) = a, case .object(let y) = b, x.count == y.count else {
      return false
    }
    for (m, n) in zip(x, y) {
      guard m.0 == n.0 else { return false }
      if m.0 == "table", case .object(let t) = m.1, case .object(let u) = n.1 {
        guard t.count == u.count else { return false }
        for (p, q) in zip(t, u) {
          guard p.0 == q.0, p.0 == "spectators" || identical(p.1, q.1) else { return false }
        }
      } else if !identical(m.1, n.1) {
        return false
      }
    }
    return true
  }

  /// Whether two values encode to the same bytes.
  static func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.int(let x), .int(let y)): x == y
    case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
    case (.string(let x), .string(let y)): x == y
    case (.array(let x), .array(let y)):
      x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
    case (.object(let x), .object(let y)):
      x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && identical($0.1, $1.1) }
    default: false
    }
  }

  private static func frame(
    _ replyTo: MessageID?, _ spectators: Int, _ head: [UInt8], _ tail: [UInt8]
  ) -> Frame {
    Frame { out in
      out.reserveCapacity(out.count + type.count + head.count + tail.count + 32)
      out += type
      if let replyTo {
        out += #","replyTo":"#.utf8
        replyTo.json.write(to: &out)
      }
      out += head
      JSONValue.int(spectators).write(to: &out)
      out += tail
    }
  }

  private static func isNumber(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }
}
