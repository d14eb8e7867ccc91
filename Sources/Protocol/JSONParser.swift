/// Reads one JSON text (RFC 8259) into a ``JSONValue`` in one pass over its bytes, without
/// throwing: ``JSONValue/parse(_:)``.
///
/// Why not `JSONDecoder`: a `Decodable` value of unknown shape can only be read by trying each
/// container and type in turn, and every failed try throws. A frame's scalars cost four or
/// five throws each; under Swift Testing every throw also captures a backtrace, and the
/// unwinder took 41 % of the Swift tests' CPU (`perf record` of `swift test`, libgcc_s), most
/// of it for tests that read the frames the server wrote. This reader makes the same values
/// (an object's members sorted by key; a number without a fraction or an exponent that fits
/// `Int` is an `int`, any other a `double`, a repeated key keeps its first value) and refuses
/// what the decoder refuses, and a trailing comma, which the decoder lets pass and RFC 8259
/// does not (`JSONParserTests` holds the two side by side).
struct JSONParser {
  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0
  /// Deeper nesting than this is refused, so that a hostile text cannot exhaust the stack.
  static let maximumDepth = 512

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The value of `bytes`, or nil when they are not one JSON text.
  static func parse(_ bytes: [UInt8]) -> JSONValue? {
    var parser = JSONParser(bytes)
    parser.skipWhitespace()
    guard let value = parser.value() else { return nil }
    parser.skipWhitespace()
    return parser.index == bytes.count ? value : nil
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      index += 1
    }
  }

  private mutating func value() -> JSONValue? {
    guard let byte = current else { return nil }
    switch byte {
    case UInt8(ascii: "{"): return object()
    case UInt8(ascii: "["): return array()
    case UInt8(ascii: "\""): return string().map(JSONValue.string)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return number()
    }
  }

  private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return nil }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
    index += count
    return value
  }

  private mutating func object() -> JSONValue? {
    guard depth < Self.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    index += 1
    var members: [(String, JSONValue)] = []
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\""), let key = string() else { return nil }
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { return nil }
      index += 1
      skipWhitespace()
      guard let value = value() else { return nil }
      members.append((key, value))
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "}"):
        index += 1
        // As the decoder's reading gives them: sorted by key, the first of a repeated key.
        var byKey: [String: JSONValue] = [:]
        for (key, value) in members where byKey[key] == nil { byKey[key] = value }
        return .object(byKey.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
      default:
        return nil
      }
    }
  }

  private mutating func array() -> JSONValue? {
    guard depth < Self.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    index += 1
    var items: [JSONValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      skipWhitespace()
      guard let item = value() else { return nil }
      items.append(item)
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(items)
      default:
        return nil
      }
    }
  }

  /// A string, its opening quote at `index`.
  private mutating func string() -> String? {
    index += 1
    let start = index
    // Most strings have no escape: their bytes are the string.
    while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
      guard byte >= 0x20 else { return nil }
      index += 1
    }
    guard let stop = current else { return nil }
    if stop == UInt8(ascii: "\"") {
      index += 1
      return String(validating: bytes[start..<(index - 1)], as: UTF8.self)
    }
    var out = Array(bytes[start..<index])
    while let byte = current {
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(validating: out, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard let escaped = current else { return nil }
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          guard let scalar = unicodeEscape() else { return nil }
          out.append(contentsOf: String(Character(scalar)).utf8)
        default: return nil
        }
      case 0..<0x20:
        return nil
      default:
        out.append(byte)
      }
    }
    return nil
  }

  /// The scalar of a `\u` escape whose four hex digits start at `index` (a surrogate pair
  /// takes the `\u` escape after it).
  private mutating func unicodeEscape() -> Unicode.Scalar? {
    guard let high = hexQuad() else { return nil }
    if (0xD800..<0xDC00).contains(high) {
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else { return nil }
      index += 2
      guard let low = hexQuad(), (0xDC00..<0xE000).contains(low) else { return nil }
      return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }
    return Unicode.Scalar(high)
  }

  private mutating func hexQuad() -> UInt32? {
    guard let value = UInt32(fourHexDigitsIn: bytes, at: index) else { return nil }
    index += 4
    return value
  }

  /// A number as RFC 8259 writes one: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)? ([eE] [+-]? [0-9]+)?
  private mutating func number() -> JSONValue? {
    let start = index
    if current == UInt8(ascii: "-") { index += 1 }
    guard let first = current, isDigit(first) else { return nil }
    index += 1
    if first != UInt8(ascii: "0") { skipDigits() }
    var integral = true
    if current == UInt8(ascii: ".") {
      integral = false
      index += 1
      guard let digit = current, isDigit(digit) else { return nil }
      skipDigits()
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      integral = false
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard let digit = current, isDigit(digit) else { return nil }
      skipDigits()
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if integral, let int = Int(text) { return .int(int) }
    guard let double = Double(text), double.isFinite else { return nil }
    return .double(double)
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private mutating func skipDigits() {
    while let byte = current, isDigit(byte) { index += 1 }
  }
}
