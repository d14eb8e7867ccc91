/// A JSON value, read by a small parser that knows just enough JSON for the server's frames.
///
/// The load generator reads tens of thousands of frames a second on the same two cores as the
/// server, so this avoids Foundation's `JSONSerialization` (and its `NSNumber` boxing); numbers
/// are kept as `Double`, which holds every integer the protocol uses exactly.
public enum JSON: Equatable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// Any number.
  case number(Double)
  /// A string, escapes decoded.
  case string(String)
  /// An array.
  case array([JSON])
  /// An object (a repeated key keeps its last value).
  case object([String: JSON])

  /// The member `key` of an object, or nil.
  public subscript(key: String) -> JSON? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  /// The value as an integer, if it is a number with no fraction.
  public var int: Int? {
    if case .number(let n) = self, let i = Int(exactly: n) { return i }
    return nil
  }

  /// The value as a string, if it is one.
  public var string: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The value as a Boolean, if it is one.
  public var bool: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// The elements, if it is an array.
  public var array: [JSON]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// Parses one JSON text (UTF-8). Throws on anything malformed.
  public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSON {
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> JSON in
      var parser = JSONParser(bytes: buffer)
      let value = try parser.value(depth: 0)
      parser.skipSpace()
      guard parser.index == buffer.count else { throw JSONError(offset: parser.index) }
      return value
    }
  }

  /// Parses a JSON text given as a string.
  public static func parse(_ text: String) throws(JSONError) -> JSON {
    try parse(Array(text.utf8))
  }
}

/// Malformed JSON, with where the parser gave up.
public struct JSONError: Error, Equatable, Sendable {
  /// Byte offset of the problem.
  public let offset: Int
}

/// A recursive-descent parser over UTF-8 bytes.
private struct JSONParser {
  /// The text.
  let bytes: UnsafeBufferPointer<UInt8>
  /// The next byte to read.
  var index = 0

  /// A parser at the start of `bytes`.
  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// Skips JSON whitespace.
  mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// The error for the current position.
  func fail() -> JSONError { JSONError(offset: index) }

  /// One value of any kind, nested at most 64 deep.
  mutating func value(depth: Int) throws(JSONError) -> JSON {
    // Server frames nest a few levels; a bound keeps a hostile frame from exhausting the stack.
    guard depth < 64 else { throw fail() }
    skipSpace()
    guard index < bytes.count else { throw fail() }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      var members = [String: JSON]()
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail() }
        let key = try string()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail() }
        index += 1
        members[key] = try value(depth: depth + 1)
        skipSpace()
        guard index < bytes.count else { throw fail() }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
        } else if bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(members)
        } else {
          throw fail()
        }
      }
    case UInt8(ascii: "["):
      index += 1
      var elements = [JSON]()
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      while true {
        elements.append(try value(depth: depth + 1))
        skipSpace()
        guard index < bytes.count else { throw fail() }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
        } else if bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(elements)
        } else {
          throw fail()
        }
      }
    case UInt8(ascii: "\""):
      return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default:
      return .number(try number())
    }
  }

  /// Consumes `word` exactly.
  mutating func literal(_ word: String) throws(JSONError) {
    for byte in word.utf8 {
      guard index < bytes.count, bytes[index] == byte else { throw fail() }
      index += 1
    }
  }

  /// A number.
  mutating func number() throws(JSONError) -> Double {
    let from = index
    var integer: Int64 = 0
    var negative = false
    var simple = true
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    var digits = 0
    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
      if digits < 18 {
        integer = integer * 10 + Int64(bytes[index] - 0x30)
      } else {
        simple = false
      }
      digits += 1
      index += 1
    }
    guard digits > 0 else { throw fail() }
    while index < bytes.count {
      let c = bytes[index]
      guard
        (c >= 0x30 && c <= 0x39) || c == 0x2E || c == 0x65 || c == 0x45 || c == 0x2B || c == 0x2D
      else { break }
      simple = false
      index += 1
    }
    // Integers (all the protocol's ids, versions and counts) take the fast path; fractions such
    // as a status run's alpha go through the standard library's parser.
    if simple { return Double(negative ? -integer : integer) }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<index]), as: UTF8.self)
    guard let value = Double(text) else { throw JSONError(offset: from) }
    return value
  }

  /// A string at an opening quote; plain strings are sliced without copying byte by byte.
  mutating func string() throws(JSONError) -> String {
    index += 1  // the opening quote
    let from = index
    var plain = true
    while index < bytes.count {
      let c = bytes[index]
      if c == UInt8(ascii: "\"") {
        if plain {
          let text = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[from..<index]), as: UTF8.self)
          index += 1
          return text
        }
        break
      }
      if c == UInt8(ascii: "\\") {
        plain = false
        index += 2
        continue
      }
      index += 1
    }
    guard index < bytes.count else { throw fail() }
    return try unescape(from: from, to: index)
  }

  /// Decodes the escapes of the string body `from..<to` (the closing quote is at `to`).
  mutating func unescape(from: Int, to: Int) throws(JSONError) -> String {
    var out = [UInt8]()
    var i = from
    var pendingHigh: UInt32?
    while i < to {
      let c = bytes[i]
      guard c == UInt8(ascii: "\\") else {
        out.append(c)
        i += 1
        continue
      }
      guard i + 1 < to else { throw JSONError(offset: i) }
      let e = bytes[i + 1]
      i += 2
      switch e {
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "u"):
        guard i + 4 <= to, let unit = UInt32(hex: bytes, at: i) else { throw JSONError(offset: i) }
        i += 4
        var scalarValue = unit
        if (0xD800..<0xDC00).contains(unit) {
          pendingHigh = unit
          continue
        }
        if (0xDC00..<0xE000).contains(unit), let high = pendingHigh {
          scalarValue = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
        }
        pendingHigh = nil
        let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
      default: out.append(e)
      }
    }
    index = to + 1
    return String(decoding: out, as: UTF8.self)
  }
}

extension UInt32 {
  /// Four hex digits of `bytes` at `offset`, as a number.
  fileprivate init?(hex bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
    var value: UInt32 = 0
    for i in offset..<(offset + 4) {
      let c = bytes[i]
      let digit: UInt32
      switch c {
      case 0x30...0x39: digit = UInt32(c - 0x30)
      case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
      default: return nil
      }
      value = value << 4 | digit
    }
    self = value
  }
}
