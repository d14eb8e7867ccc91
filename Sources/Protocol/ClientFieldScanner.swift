/// A strict, single-pass reader of the top-level JSON object of a client frame.
///
/// It accepts exactly RFC 8259 JSON (no comments, trailing commas, single quotes, `NaN`,
/// leading zeros or `+`, no bytes after the object) with these limits of its own, and answers
/// `badJSON` for anything else:
/// - the top level is one object; containers nest at most ``maxDepth`` deep (the top object
///   counts);
/// - a number has at most ``maxIntegerDigits`` integer digits, ``maxExponentDigits`` exponent
///   digits and ``maxNumberBytes`` bytes in all;
/// - strings are valid UTF-8 with valid escapes (`\u` surrogates in pairs), without raw control
///   characters;
/// - a known field given twice is refused: parsers disagree on which copy wins, and a message
///   that means different things to different readers is a classic smuggling trick. Unknown
///   fields are not checked for repeats, since nothing reads them.
///
/// Values of known fields are kept as ``FieldValue``s; everything else is validated and
/// skipped without building anything. Nothing here allocates per node, and every failure is
/// the same typed throw.
struct ClientFieldScanner {
  /// The deepest nesting accepted, the top-level object being depth 1.
  static let maxDepth = 32
  /// Most digits before a number's fraction or exponent.
  static let maxIntegerDigits = 20
  /// Most digits in a number's exponent.
  static let maxExponentDigits = 3
  /// Most bytes in one number.
  static let maxNumberBytes = 40
  /// Longest string value (decoded UTF-8 bytes) whose text is kept; no field allows more (the
  /// longest is a line of chat, ``ClientMessageDecoder/maxChatBytes``).
  static let maxKeptStringBytes = ClientMessageDecoder.maxChatBytes

  /// The one refusal this reader makes.
  static let malformed = ProtocolError(.badJSON, "A message must be one JSON object.")

  private let bytes: [UInt8]
  private var at = 0
  /// The decoded text of the key or string being read, when it has escapes; reused.
  private var scratch: [UInt8] = []

  private init(bytes: [UInt8]) { self.bytes = bytes }

  /// The known fields of `bytes`, which must be exactly one JSON object.
  static func scan(_ bytes: [UInt8]) throws(ProtocolError) -> ClientFields {
    // The fields are the caller's from the start, not the scanner's: returned from a stored
    // property they were copied slot by slot, and both copies destroyed later (~1,000
    // instructions a move, `scripts/callgrind-moves.sh`).
    var fields = ClientFields()
    var scanner = ClientFieldScanner(bytes: bytes)
    try scanner.topObject(into: &fields)
    return fields
  }

  /// The byte at the cursor, or 0 at the end. A real 0 byte is never valid where this is
  /// looked at (outside strings, and raw inside them), so the two need no telling apart.
  private var peek: UInt8 { at < bytes.count ? bytes[at] : 0 }

  private mutating func skipWhitespace() {
    while at < bytes.count {
      switch bytes[at] {
      case Byte.space, Byte.tab, Byte.newline, Byte.carriageReturn: at += 1
      default: return
      }
    }
  }

  private mutating func expect(_ byte: UInt8) throws(ProtocolError) {
    guard peek == byte else { throw Self.malformed }
    at += 1
  }

  private mutating func topObject(into fields: inout ClientFields) throws(ProtocolError) {
    skipWhitespace()
    try expect(Byte.openBrace)
    skipWhitespace()
    if peek == Byte.closeBrace {
      at += 1
    } else {
      while true {
        try expect(Byte.quote)
        let key = try string(keep: true)
        let field = ClientField(key: key.escaped ? scratch[...] : bytes[key.contents])
        skipWhitespace()
        try expect(Byte.colon)
        skipWhitespace()
        if let field {
          guard fields.add(field, try fieldValue()) else { throw Self.malformed }
        } else {
          try skipValue(depth: 1)
        }
        skipWhitespace()
        guard peek == Byte.comma else { break }
        at += 1
        skipWhitespace()
      }
      try expect(Byte.closeBrace)
    }
    skipWhitespace()
    guard at == bytes.count else { throw Self.malformed }
  }

  /// The value of a known field, at depth 1.
  private mutating func fieldValue() throws(ProtocolError) -> FieldValue {
    switch peek {
    case Byte.quote:
      at += 1
      let text = try string(keep: true)
      let decoded = text.escaped ? scratch[...] : bytes[text.contents]
      guard decoded.count <= Self.maxKeptStringBytes else { return .longString }
      return .string(String(decoding: decoded, as: UTF8.self))
    case Byte.openBrace:
      try skipContainer(depth: 2, close: Byte.closeBrace)
      return .object
    case Byte.openBracket:
      try skipContainer(depth: 2, close: Byte.closeBracket)
      return .array
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      return try literal()
    default:
      return try number()
    }
  }

  /// Checks and passes over any value inside a container at `depth`.
  private mutating func skipValue(depth: Int) throws(ProtocolError) {
    switch peek {
    case Byte.quote:
      at += 1
      _ = try string(keep: false)
    case Byte.openBrace:
      try skipContainer(depth: depth + 1, close: Byte.closeBrace)
    case Byte.openBracket:
      try skipContainer(depth: depth + 1, close: Byte.closeBracket)
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      _ = try literal()
    default:
      _ = try number()
    }
  }

  /// Checks and passes over an object (`close` is `}`) or array (`]`) that starts at the
  /// cursor and sits at `depth`. Recursion is bounded by ``maxDepth``.
  private mutating func skipContainer(depth: Int, close: UInt8) throws(ProtocolError) {
    guard depth <= Self.maxDepth else { throw Self.malformed }
    let keyed = close == Byte.closeBrace
    at += 1
    skipWhitespace()
    if peek == close {
      at += 1
      return
    }
    while true {
      if keyed {
        try expect(Byte.quote)
        _ = try string(keep: false)
        skipWhitespace()
        try expect(Byte.colon)
        skipWhitespace()
      }
      try skipValue(depth: depth)
      skipWhitespace()
      guard peek == Byte.comma else { break }
      at += 1
      skipWhitespace()
    }
    try expect(close)
  }

  private static let trueBytes = Array("true".utf8)
  private static let falseBytes = Array("false".utf8)
  private static let nullBytes = Array("null".utf8)

  /// `true`, `false` or `null`, spelled exactly.
  private mutating func literal() throws(ProtocolError) -> FieldValue {
    if matches(Self.trueBytes) { return .bool(true) }
    if matches(Self.falseBytes) { return .bool(false) }
    if matches(Self.nullBytes) { return .null }
    throw Self.malformed
  }

  /// Moves past `word` when the bytes at the cursor are exactly it.
  private mutating func matches(_ word: [UInt8]) -> Bool {
    guard bytes.count - at >= word.count else { return false }
    for (offset, byte) in word.enumerated() where bytes[at + offset] != byte { return false }
    at += word.count
    return true
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// A number in JSON's grammar, within this reader's bounds: an `Int` when it is an integer
  /// literal that fits, otherwise just `.number`.
  private mutating func number() throws(ProtocolError) -> FieldValue {
    let start = at
    let negative = peek == UInt8(ascii: "-")
    if negative { at += 1 }
    let integerStart = at
    guard Self.isDigit(peek) else { throw Self.malformed }
    if peek == UInt8(ascii: "0") {
      at += 1
      // A leading zero must be the whole integer part.
      guard !Self.isDigit(peek) else { throw Self.malformed }
    } else {
      while Self.isDigit(peek) { at += 1 }
    }
    let integerEnd = at
    guard integerEnd - integerStart <= Self.maxIntegerDigits else { throw Self.malformed }
    var isInteger = true
    if peek == UInt8(ascii: ".") {
      isInteger = false
      at += 1
      guard Self.isDigit(peek) else { throw Self.malformed }
      while Self.isDigit(peek) { at += 1 }
    }
    if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
      isInteger = false
      at += 1
      if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { at += 1 }
      let exponentStart = at
      guard Self.isDigit(peek) else { throw Self.malformed }
      while Self.isDigit(peek) { at += 1 }
      guard at - exponentStart <= Self.maxExponentDigits else { throw Self.malformed }
    }
    guard at - start <= Self.maxNumberBytes else { throw Self.malformed }
    guard isInteger else { return .number }
    // Negative numbers are built downwards so that Int.min fits.
    var value = 0
    for index in integerStart..<integerEnd {
      let digit = Int(bytes[index] &- UInt8(ascii: "0"))
      let (shifted, overflowShifting) = value.multipliedReportingOverflow(by: 10)
      let (next, overflowAdding) =
        negative
        ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      guard !overflowShifting, !overflowAdding else { return .number }
      value = next
    }
    return .int(value)
  }

  /// Reads a string's contents and its closing quote (the opening one is already read),
  /// checking UTF-8 and escapes. Answers where the raw contents are and whether they hold an
  /// escape; only then, and with `keep`, is the decoded text built, in `scratch`: most strings
  /// have no escapes and are read in place.
  private mutating func string(keep: Bool) throws(ProtocolError) -> (
    contents: Range<Int>, escaped: Bool
  ) {
    let start = at
    var escaped = false
    while at < bytes.count {
      let byte = bytes[at]
      switch byte {
      case Byte.quote:
        at += 1
        return (start..<(at - 1), escaped)
      case Byte.backslash:
        if keep && !escaped {
          scratch.removeAll(keepingCapacity: true)
          scratch.append(contentsOf: bytes[start..<at])
        }
        escaped = true
        try escape(keep: keep)
      case 0..<0x20:
        throw Self.malformed
      case 0x20..<0x80:
        if keep && escaped { scratch.append(byte) }
        at += 1
      default:
        try multibyte(keep: keep && escaped)
      }
    }
    throw Self.malformed
  }

  /// One escape sequence, the backslash at the cursor.
  private mutating func escape(keep: Bool) throws(ProtocolError) {
    at += 1
    let letter = peek
    at += 1
    let decoded: UInt8
    switch letter {
    case Byte.quote, Byte.backslash, UInt8(ascii: "/"): decoded = letter
    case UInt8(ascii: "b"): decoded = 0x08
    case UInt8(ascii: "f"): decoded = 0x0C
    case UInt8(ascii: "n"): decoded = Byte.newline
    case UInt8(ascii: "r"): decoded = Byte.carriageReturn
    case UInt8(ascii: "t"): decoded = Byte.tab
    case UInt8(ascii: "u"):
      var scalar = try hex4()
      switch scalar {
      case 0xD800...0xDBFF:
        // A high surrogate is only half a scalar: the low half must follow at once.
        guard peek == Byte.backslash, at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "u")
        else { throw Self.malformed }
        at += 2
        let low = try hex4()
        guard (0xDC00...0xDFFF).contains(low) else { throw Self.malformed }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      case 0xDC00...0xDFFF:
        throw Self.malformed
      default:
        break
      }
      if keep { appendUTF8(scalar) }
      return
    default:
      throw Self.malformed
    }
    if keep { scratch.append(decoded) }
  }

  /// Four hex digits at the cursor, as a number.
  private mutating func hex4() throws(ProtocolError) -> UInt32 {
    guard let value = UInt32(fourHexDigitsIn: bytes, at: at) else { throw Self.malformed }
    at += 4
    return value
  }

  /// Appends `scalar` (a valid scalar value) to `scratch` as UTF-8.
  private mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  /// One multi-byte UTF-8 sequence at the cursor, checked as RFC 3629 says: no overlong
  /// forms, no surrogates, nothing past U+10FFFF.
  private mutating func multibyte(keep: Bool) throws(ProtocolError) {
    let lead = bytes[at]
    let length: Int
    // The second byte's range is narrower than 80...BF for some lead bytes: that is where
    // overlong forms, surrogates and values past U+10FFFF would start.
    let second: ClosedRange<UInt8>
    switch lead {
    case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
    case 0xE0: (length, second) = (3, 0xA0...0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
    case 0xED: (length, second) = (3, 0x80...0x9F)
    case 0xF0: (length, second) = (4, 0x90...0xBF)
    case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
    case 0xF4: (length, second) = (4, 0x80...0x8F)
    default: throw Self.malformed
    }
    guard bytes.count - at >= length, second.contains(bytes[at + 1]) else {
      throw Self.malformed
    }
    for offset in 2..<length where !(0x80...0xBF).contains(bytes[at + offset]) {
      throw Self.malformed
    }
    if keep { scratch.append(contentsOf: bytes[at..<(at + length)]) }
    at += length
  }
}

/// The bytes JSON's grammar is made of.
private enum Byte {
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")
  static let openBrace = UInt8(ascii: "{")
  static let closeBrace = UInt8(ascii: "}")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")
  static let colon = UInt8(ascii: ":")
  static let comma = UInt8(ascii: ",")
}
