/// The typed fields of one frame, with the id to echo in refusals, and the rules each field
/// must follow.
struct FieldReader {
  let fields: ClientFields
  let replyTo: MessageID?

  subscript(field: ClientField) -> FieldValue? { fields[field] }

  /// A `badField` refusal that carries the message's id back.
  func badField(_ message: String) -> ProtocolError {
    ProtocolError(.badField, message, replyTo: replyTo)
  }

  /// The message's type; a missing or non-string `type` is `unknownType`.
  func type() throws(ProtocolError) -> String {
    switch fields[.type] {
    case .string(let type)?: return type
    case nil, .null?:
      throw ProtocolError(.unknownType, "Field 'type' is missing.", replyTo: replyTo)
    default:
      throw ProtocolError(
        .unknownType, "Field 'type' must be a string naming a message.", replyTo: replyTo)
    }
  }

  /// The refusal of a type no message has. The type is quoted only when it is short and plain,
  /// so an error message never carries control characters or a flood of text back.
  func unknownType(_ type: String) -> ProtocolError {
    let quotable = type.utf8.count <= 32 && !ClientMessageDecoder.containsRefusedScalar(type)
    return ProtocolError(
      .unknownType, quotable ? "Unknown message type '\(type)'." : "Unknown message type.",
      replyTo: replyTo)
  }

  /// A string field of at most `maxBytes` UTF-8 bytes without refused characters, or nil when
  /// it is absent or null.
  func optionalString(_ field: ClientField, maxBytes: Int) throws(ProtocolError) -> String? {
    switch fields[field] {
    case nil, .null?: return nil
    case .string(let s)?
    where s.utf8.count <= maxBytes && !ClientMessageDecoder.containsRefusedScalar(s):
      return s
    default:
      throw badField(
        "Field '\(field.key)' must be a string of at most \(maxBytes) bytes, "
          + "without control characters.")
    }
  }

  /// A string field that must be there (see ``optionalString(_:maxBytes:)``).
  func requiredString(_ field: ClientField, maxBytes: Int) throws(ProtocolError) -> String {
    guard let value = try optionalString(field, maxBytes: maxBytes) else {
      throw badField("Field '\(field.key)' is required.")
    }
    return value
  }

  /// An integer field in `range`, or nil when it is absent or null.
  func optionalInt(_ field: ClientField, in range: ClosedRange<Int>) throws(ProtocolError) -> Int? {
    switch fields[field] {
    case nil, .null?: return nil
    case .int(let i)? where range.contains(i): return i
    default:
      throw badField(
        "Field '\(field.key)' must be an integer \(range.lowerBound)...\(range.upperBound).")
    }
  }

  /// The table settings a `createTable` or `playSolo` carries: types and broad ranges only.
  func tableOptions() throws(ProtocolError) -> TableOptions {
    let small = 0...1000
    return TableOptions(
      boardSize: try optionalInt(.boardSize, in: small),
      matchSize: try optionalInt(.matchSize, in: small),
      scoring: try optionalString(.scoring, maxBytes: 16),
      costToChoose: try optionalInt(.costToChoose, in: small),
      mismatchPenalty: try optionalInt(.mismatchPenalty, in: small),
      matchBonus: try optionalInt(.matchBonus, in: small),
      turnSeconds: try optionalInt(.turnSeconds, in: small),
      theme: try optionalInt(.theme, in: small),
      showSelections: try optionalBool(.showSelections),
      offerComputer: try optionalInt(.offerComputer, in: 0...600))
  }

  /// A boolean field, or nil when it is absent or null.
  func optionalBool(_ field: ClientField) throws(ProtocolError) -> Bool? {
    switch fields[field] {
    case nil, .null?: return nil
    case .bool(let b)?: return b
    default: throw badField("Field '\(field.key)' must be true or false.")
    }
  }

  /// The player's name, trimmed of whitespace; nil when absent, null or blank.
  func name() throws(ProtocolError) -> String? {
    let limits =
      "Field 'name' must be a string of at most \(ClientMessageDecoder.maxNameLength) "
      + "characters and \(ClientMessageDecoder.maxNameBytes) bytes after trimming, "
      + "without control characters."
    switch fields[.name] {
    case nil, .null?: return nil
    case .string(let raw)?:
      let name = raw.trimmingWhitespace
      guard name.unicodeScalars.count <= ClientMessageDecoder.maxNameLength,
        name.utf8.count <= ClientMessageDecoder.maxNameBytes,
        !ClientMessageDecoder.containsRefusedScalar(name)
      else { throw badField(limits) }
      return name.isEmpty ? nil : name
    default:
      throw badField(limits)
    }
  }

  /// A line of chat: a string, trimmed of whitespace, of 1 to
  /// ``ClientMessageDecoder/maxChatLength`` characters, without control characters (a line
  /// break included: a line is one line).
  func chatText() throws(ProtocolError) -> String {
    let limits =
      "Field 'text' must be a line of 1 to \(ClientMessageDecoder.maxChatLength) characters "
      + "after trimming, without control characters."
    guard case .string(let raw)? = fields[.text],
      raw.utf8.count <= ClientMessageDecoder.maxChatBytes
    else { throw badField(limits) }
    let text = raw.trimmingWhitespace
    guard !text.isEmpty, text.unicodeScalars.count <= ClientMessageDecoder.maxChatLength,
      !ClientMessageDecoder.containsRefusedScalar(text)
    else { throw badField(limits) }
    return text
  }

  /// The resume token, or nil when there is none that could name a session. A token of any
  /// other shape is no token, never an error: the protocol promises that a token naming no
  /// live session just starts a new one, and the server only ever hands out short base64url.
  func resumeToken() -> String? {
    guard case .string(let token)? = fields[.resume],
      (1...ClientMessageDecoder.maxTokenLength).contains(token.utf8.count),
      token.utf8.allSatisfy(Self.isBase64URL)
    else { return nil }
    return token
  }

  private static func isBase64URL(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
      true
    default: false
    }
  }

  /// The player token of a `hello`, or nil; one of another shape is refused (unlike a resume
  /// token, it is the client's own and never made by the server: a wrong one is a client bug).
  func playerToken() throws(ProtocolError) -> String? {
    switch fields[.player] {
    case nil, .null?: return nil
    case .string(let token)?
    where ClientMessageDecoder.playerTokenLengths.contains(token.utf8.count)
      && token.utf8.allSatisfy(Self.isBase64URL):
      return token
    default:
      throw badField("Field 'player' must be 16 to 64 characters of A-Z, a-z, 0-9, '-' and '_'.")
    }
  }

  /// What a `hello`'s `games` asks for: nothing (absent, null or false), every description
  /// (true), or them unless the client holds this version of them (a string).
  func gamesWanted() throws(ProtocolError) -> GamesWanted {
    switch fields[.games] {
    case nil, .null?, .bool(false)?: return .none
    case .bool(true)?: return .all
    case .string(let version)? where version.utf8.count <= GamesWanted.maxVersionBytes:
      return .unlessVersion(version)
    default:
      throw badField(
        "Field 'games' must be true, false, or the games' version held "
          + "(a string of at most \(GamesWanted.maxVersionBytes) bytes).")
    }
  }

  /// The table a `join` or `spectate` names: its invite code (upper-cased) or its public id.
  func tableReference() throws(ProtocolError) -> TableReference {
    if let code = try optionalString(.code, maxBytes: ClientMessageDecoder.maxCodeBytes) {
      // Only ASCII letters change case: codes are ASCII, and full Unicode upper-casing could
      // make a code longer than its limit ("ŉ" becomes two scalars).
      return .code(String(decoding: code.utf8.map(Self.asciiUppercased), as: UTF8.self))
    }
    if let id = try optionalString(.table, maxBytes: ClientMessageDecoder.maxTableIDBytes) {
      return .id(id)
    }
    throw badField("Give the table's 'code' or its 'table' id.")
  }

  private static func asciiUppercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 0x20 : byte
  }
}
