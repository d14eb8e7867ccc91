import Foundation

/// A JSON value with object keys kept in the order they were written, so that encoded messages
/// are deterministic and match the examples in `docs/PROTOCOL.md`.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// The value of `key` in an object, or nil.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.0 == key }?.1
  }

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.int(let a), .int(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      // Objects are equal when they hold the same members, whatever their order. Both
      // directions are checked so that equality stays symmetric when a key is repeated. Members
      // in the same order (as one writer or one parse leaves them) are compared pairwise first:
      // comparing each value in both directions doubles the work at every level of nesting.
      a.count == b.count
        && (zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
          || (a.allSatisfy { member in b.contains { $0.0 == member.0 && $0.1 == member.1 } }
            && b.allSatisfy { member in a.contains { $0.0 == member.0 && $0.1 == member.1 } }))
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(b)
    case .int(let i): hasher.combine(Double(i))
    case .double(let d): hasher.combine(d)
    case .string(let s): hasher.combine(s)
    case .array(let a): hasher.combine(a)
    case .object(let members): hasher.combine(members.count)
    }
  }
}

extension JSONValue {
  /// The compact UTF-8 encoding of this value.
  public var encoded: [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(256)
    write(to: &out)
    return out
  }

  /// Appends the compact UTF-8 encoding of this value to `out`.
  public func write(to out: inout [UInt8]) {
    switch self {
    case .null: out += "null".utf8
    case .bool(let b): out += (b ? "true" : "false").utf8
    case .int(let i): Self.writeInteger(i, to: &out)
    case .double(let d): Self.writeDouble(d, to: &out)
    case .string(let s): Self.writeString(s, to: &out)
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (i, item) in items.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        item.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        Self.writeString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        value.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Appends the decimal digits of `value` without making a `String` (the hot path writes many).
  static func writeInteger(_ value: Int, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    if magnitude < 10 {
      out.append(UInt8(ascii: "0") + UInt8(magnitude))
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      while magnitude > 0 {
        buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      }
      out.append(contentsOf: buffer[(24 - count)...])
    }
  }

  /// Appends a number: whole numbers below 10^15 as integers, other finite ones in Swift's
  /// shortest form, anything else as `null`.
  static func writeDouble(_ d: Double, to out: inout [UInt8]) {
    if d.isFinite && d == d.rounded() && abs(d) < 1e15 {
      writeInteger(Int(d), to: &out)
    } else if writeFewDecimals(d, to: &out) {
      return
    } else if d.isFinite {
      out += String(d).utf8
    } else {
      out += "null".utf8
    }
  }

  /// Appends `d` when it is exactly the double nearest a number of one to three decimals below
  /// 10^9 (a time in tenths, a score's mean): the digits that `String(d)` would write, without
  /// its general algorithm (a game's look back, some hundred such numbers, took 229,000
  /// instructions to write, most of them there). Below 10^9 two such numbers 0.001 apart are
  /// never the same double, so the shortest form that reads back as `d` is those decimals.
  /// False, and nothing written, for any other number.
  /// `JSONDoubleTests` compare it with `String(d)`.
  static func writeFewDecimals(_ d: Double, to out: inout [UInt8]) -> Bool {
    let magnitude = abs(d)
    guard magnitude < 1e9, magnitude >= 0.001 else { return false }
    // The fewest decimals first: at the first scale that matches, the last digit is not 0 (with
    // a 0 there the number would have matched one scale before).
    var scale = 10
    while scale <= 1000 {
      let scaled = (magnitude * Double(scale)).rounded()
      guard scaled / Double(scale) == magnitude else {
        scale *= 10
        continue
      }
      let fraction = Int(scaled) % scale
      guard fraction > 0 else { return false }  // whole numbers are written as integers
      if d < 0 { out.append(UInt8(ascii: "-")) }
      writeInteger(Int(scaled) / scale, to: &out)
      out.append(UInt8(ascii: "."))
      var divisor = scale / 10
      while divisor > 0 {  // with its leading zeros: 0.05 is "0.05"
        out.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
        divisor /= 10
      }
      return true
    }
    return false
  }

  /// Appends `s` quoted, escaping what JSON requires.
  static func writeString(_ s: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most strings need no escape: copy them whole, from the one look at their bytes.
    let utf8 = s.utf8
    let copied = utf8.withContiguousStorageIfAvailable { bytes in
      for byte in bytes
      where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        return false
      }
      out.append(contentsOf: bytes)
      return true
    }
    if copied == true {
      out.append(UInt8(ascii: "\""))
      return
    }
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += "\\\"".utf8
      case UInt8(ascii: "\\"): out += "\\\\".utf8
      case 0x0A: out += "\\n".utf8
      case 0x0D: out += "\\r".utf8
      case 0x09: out += "\\t".utf8
      case 0..<0x20:
        out += "\\u00".utf8
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  /// Parses one JSON text, or returns nil when it is not valid JSON. An object's members come
  /// sorted by key.
  public static func parse(_ bytes: [UInt8]) -> JSONValue? {
    JSONParser.parse(bytes)
  }
}

extension JSONValue: Decodable {
  public init(from decoder: any Decoder) throws {
    if var array = try? decoder.unkeyedContainer() {
      var items: [JSONValue] = []
      while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
      self = .array(items)
      return
    }
    if let object = try? decoder.container(keyedBy: AnyKey.self) {
      // The decoder gives the keys in no fixed order (not even from one parse to the next):
      // sorted, one text always parses to the same value, and writes back as the same bytes.
      self = .object(
        try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
          ($0.stringValue, try object.decode(JSONValue.self, forKey: $0))
        })
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let b = try? single.decode(Bool.self) {
      self = .bool(b)
    } else if let i = try? single.decode(Int.self) {
      self = .int(i)
    } else if let d = try? single.decode(Double.self) {
      self = .double(d)
    } else {
      self = .string(try single.decode(String.self))
    }
  }

  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
