/// The check every frame the lobby sends must pass: one JSON object (RFC 8259: strings with
/// valid escapes and UTF-8, numbers without leading zeros, nothing after the object) whose first
/// member is `"type"` with the name of a server message. It reads the payload in place, in one
/// loop, and allocates nothing, so it can afford every frame of every event.
enum FrameCheck {
  /// Every message type the server sends.
  static let types: [[UInt8]] = [
    "welcome", "snapshot", "diff", "error", "left", "lobbySnapshot", "lobbyDiff", "hint",
    "spectators",
  ].map { Array($0.utf8) }

  /// How every frame starts.
  static let prefix = Array(#"{"type":""#.utf8)

  /// Nesting deeper than this is refused (the deepest message, `welcome`, nests 7 levels: its
  /// games, a game, its settings, a setting, its choices, a choice).
  static let maxDepth = 16

  /// Stops the run unless `payload` is a typed JSON object.
  static func check(_ payload: UnsafeBufferPointer<UInt8>) {
    do {
      try validate(payload)
    } catch {
      fatalError(
        "a frame that is not a typed JSON object (\(error.what) at byte \(error.offset)): "
          + String(decoding: payload, as: UTF8.self))
    }
  }

  /// Why a payload is not a typed JSON object, and where.
  struct FrameError: Error {
    let what: String
    let offset: Int

    init(_ what: String, at offset: Int) {
      self.what = what
      self.offset = offset
    }
  }

  /// Throws unless `p` is one JSON object whose first member is a known `type`.
  static func validate(_ p: UnsafeBufferPointer<UInt8>) throws(FrameError) {
    let n = p.count
    guard n > prefix.count, p.starts(with: prefix) else {
      throw FrameError("no type first", at: 0)
    }
    // The type's name, then the rest of the top-level object.
    var i = try string(p, from: prefix.count - 1)
    let name = UnsafeBufferPointer(rebasing: p[prefix.count..<(i - 1)])
    guard types.contains(where: { $0.elementsEqual(name) }) else {
      throw FrameError("an unknown type", at: prefix.count)
    }
    // One bit per open container, innermost lowest: 1 for an object, 0 for an array.
    var objects: UInt64 = 1
    var depth = 1
    var needValue = false
    while true {
      i = space(p, from: i)
      guard i < n else { throw FrameError("the end inside a container", at: i) }
      let byte = p[i]
      if needValue {
        needValue = false
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          guard depth < maxDepth else { throw FrameError("nesting too deep", at: i) }
          let isObject = byte == UInt8(ascii: "{")
          depth += 1
          objects = objects << 1 | (isObject ? 1 : 0)
          i = space(p, from: i + 1)
          let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
          if i < n && p[i] == close {
            // Empty: the container is a whole value.
            i += 1
            depth -= 1
            objects >>= 1
          } else if isObject {
            i = space(p, from: try string(p, from: i))
            guard i < n && p[i] == UInt8(ascii: ":") else { throw FrameError("no ':'", at: i) }
            i += 1
            needValue = true
          } else {
            needValue = true
          }
        case UInt8(ascii: "\""): i = try string(p, from: i)
        case UInt8(ascii: "t"): i = try literal(p, from: i, "true")
        case UInt8(ascii: "f"): i = try literal(p, from: i, "false")
        case UInt8(ascii: "n"): i = try literal(p, from: i, "null")
        default: i = try number(p, from: i)
        }
        continue
      }
      // After a value: a comma and the next member or item, or the container's end.
      i += 1
      let inObject = objects & 1 == 1
      if byte == UInt8(ascii: ",") {
        if inObject {
          i = space(p, from: try string(p, from: space(p, from: i)))
          guard i < n && p[i] == UInt8(ascii: ":") else { throw FrameError("no ':'", at: i) }
          i += 1
        }
        needValue = true
      } else if byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
        depth -= 1
        objects >>= 1
        if depth == 0 {
          guard space(p, from: i) == n else { throw FrameError("bytes after the object", at: i) }
          return
        }
      } else {
        throw FrameError("neither ',' nor the container's end", at: i - 1)
      }
    }
  }

  /// The offset of the first byte from `start` on that is not JSON whitespace.
  static func space(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var i = start
    while i < p.count && (p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09) {
      i += 1
    }
    return i
  }

  /// The offset after the string that starts with the quote at `start`.
  static func string(
    _ p: UnsafeBufferPointer<UInt8>, from start: Int
  ) throws(FrameError) -> Int {
    let n = p.count
    guard start < n && p[start] == UInt8(ascii: "\"") else {
      throw FrameError("no string", at: start)
    }
    var i = start + 1
    while i < n {
      let byte = p[i]
      i += 1
      if byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): return i
      case UInt8(ascii: "\\"):
        guard i < n else { throw FrameError("an open escape", at: i) }
        let escaped = p[i]
        i += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          break
        case UInt8(ascii: "u"):
          let unit = try hex4(p, at: i)
          i += 4
          if (0xD800..<0xDC00).contains(unit) {
            // A high surrogate must be followed by an escaped low one.
            guard i + 1 < n && p[i] == UInt8(ascii: "\\") && p[i + 1] == UInt8(ascii: "u"),
              (0xDC00..<0xE000).contains(try hex4(p, at: i + 2))
            else { throw FrameError("a lone high surrogate", at: i) }
            i += 6
          } else if (0xDC00..<0xE000).contains(unit) {
            throw FrameError("a lone low surrogate", at: i)
          }
        default: throw FrameError("a bad escape", at: i - 1)
        }
      case 0..<0x20: throw FrameError("a raw control character", at: i - 1)
      default: i = try utf8Sequence(p, lead: byte, at: i)
      }
    }
    throw FrameError("an open string", at: start)
  }

  /// The four hex digits of a `\u` escape at `offset`.
  static func hex4(
    _ p: UnsafeBufferPointer<UInt8>, at offset: Int
  ) throws(FrameError) -> UInt32 {
    guard offset + 4 <= p.count else { throw FrameError("a short \\u escape", at: offset) }
    var value: UInt32 = 0
    for byte in p[offset..<(offset + 4)] {
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: throw FrameError("a bad \\u escape", at: offset)
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// The offset after the rest of a UTF-8 sequence whose lead byte is before `offset`:
  /// shortest form, no surrogates, nothing above U+10FFFF.
  static func utf8Sequence(
    _ p: UnsafeBufferPointer<UInt8>, lead: UInt8, at offset: Int
  ) throws(FrameError) -> Int {
    let count: Int
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: count = 1
    case 0xE0:
      count = 2
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: count = 2
    case 0xED:
      count = 2
      upper = 0x9F
    case 0xF0:
      count = 3
      lower = 0x90
    case 0xF1...0xF3: count = 3
    case 0xF4:
      count = 3
      upper = 0x8F
    default: throw FrameError("bad UTF-8", at: offset - 1)
    }
    guard offset + count <= p.count, (lower...upper).contains(p[offset]) else {
      throw FrameError("bad UTF-8", at: offset)
    }
    for index in (offset + 1)..<(offset + count) where !(0x80...0xBF).contains(p[index]) {
      throw FrameError("bad UTF-8", at: index)
    }
    return offset + count
  }

  /// The offset after the literal `word` at `start`.
  static func literal(
    _ p: UnsafeBufferPointer<UInt8>, from start: Int, _ word: StaticString,
  ) throws(FrameError) -> Int {
    let count = word.utf8CodeUnitCount
    guard start + count <= p.count,
      UnsafeBufferPointer(rebasing: p[start..<(start + count)]).elementsEqual(
        UnsafeBufferPointer(start: word.utf8Start, count: count))
    else { throw FrameError("a bad literal", at: start) }
    return start + count
  }

  /// The offset after the number at `start`: `-`, digits without a leading zero, then an
  /// optional fraction and exponent.
  static func number(
    _ p: UnsafeBufferPointer<UInt8>, from start: Int
  ) throws(FrameError) -> Int {
    let n = p.count
    var i = start
    func digits() -> Int {
      let first = i
      while i < n && p[i] >= 0x30 && p[i] <= 0x39 { i += 1 }
      return i - first
    }
    if i < n && p[i] == UInt8(ascii: "-") { i += 1 }
    if i < n && p[i] == UInt8(ascii: "0") {
      i += 1
    } else if digits() == 0 {
      throw FrameError("not a value", at: start)
    }
    if i < n && p[i] == UInt8(ascii: ".") {
      i += 1
      guard digits() > 0 else { throw FrameError("a fraction without digits", at: i) }
    }
    if i < n && (p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E")) {
      i += 1
      if i < n && (p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-")) { i += 1 }
      guard digits() > 0 else { throw FrameError("an exponent without digits", at: i) }
    }
    return i
  }
}
