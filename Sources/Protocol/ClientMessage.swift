/// The id a client may attach to a message; replies carry it back unchanged as `replyTo`.
public enum MessageID: Hashable, Sendable {
  case int(Int)
  case string(String)

  /// The id as it goes on the wire.
  public var json: JSONValue {
    switch self {
    case .int(let i): .int(i)
    case .string(let s): .string(s)
    }
  }
}

/// What a client can ask for (protocol v1).
public enum ClientMessage: Hashable, Sendable {
  /// Opens (or, with `resume`, takes over) a session; `version` is the last table version the
  /// client applied, so that only missed diffs need to be sent.
  case hello(name: String?, resume: String?, version: Int? = nil)
  /// Starts a solo game of `game` at a new one-seat table.
  case playSolo(game: String)
  /// Chooses, or un-chooses, the card with this id.
  case choose(card: Int)
  /// Deals a new game at the current table.
  case redeal
  /// Asks for a fresh snapshot of the current table.
  case resync
  /// Subscribes to the lobby's table list.
  case lobby
  /// Sits at the fullest waiting public table of `game` with `seats` seats, or a new one.
  case quickMatch(game: String, seats: Int)
  /// Opens a new table and sits at it as host.
  case createTable(game: String, seats: Int, isPrivate: Bool)
  /// Sits at the table with this invite code or public id.
  case join(TableReference)
  /// Watches the table with this invite code or public id.
  case spectate(TableReference)
  /// Leaves the current table.
  case leave
  /// The host starts a waiting table.
  case start
}

/// How a client names a table: by invite code (any table) or by id (public tables).
public enum TableReference: Hashable, Sendable {
  case code(String)
  case id(String)
}

/// A decoded client message with its optional id.
public struct ClientEnvelope: Hashable, Sendable {
  /// The client's id for the message, echoed in replies.
  public var id: MessageID?
  /// The message.
  public var message: ClientMessage

  /// Creates an envelope.
  public init(id: MessageID?, message: ClientMessage) {
    self.id = id
    self.message = message
  }
}

/// The typed reasons a message can be refused; their raw values are the wire codes.
public enum ErrorCode: String, Hashable, Sendable, CaseIterable {
  case badJSON, unknownType, badField, helloRequired, alreadyHello, unknownGame, notAtTable
  case unknownCard, cardNotOnTable, gameOver
  case unknownTable, tableFull, alreadyStarted, notPlaying, spectator, notHost, spectatorLimit
  case tooManyTables, serverFull, tooManyGuesses
}

/// A refusal: a code for programs, a sentence for people, and the id of the refused message.
public struct ProtocolError: Error, Hashable, Sendable {
  /// What kind of refusal.
  public var code: ErrorCode
  /// A human-readable explanation.
  public var message: String
  /// The id of the refused message, when it had one that could be read.
  public var replyTo: MessageID?

  /// Creates an error.
  public init(_ code: ErrorCode, _ message: String, replyTo: MessageID? = nil) {
    self.code = code
    self.message = message
    self.replyTo = replyTo
  }
}

/// Turns one text frame into a ``ClientEnvelope`` or a precise ``ProtocolError``.
public enum ClientMessageDecoder {
  /// Longest accepted `id` string.
  public static let maxIDLength = 64
  /// Longest accepted name, after trimming.
  public static let maxNameLength = 24
  /// Longest accepted resume token.
  public static let maxTokenLength = 128

  /// Decodes `bytes`, a complete text frame.
  public static func decode(_ bytes: [UInt8]) -> Result<ClientEnvelope, ProtocolError> {
    guard let json = JSONValue.parse(bytes), case .object = json else {
      return .failure(ProtocolError(.badJSON, "A message must be one JSON object."))
    }
    var id: MessageID?
    switch json["id"] {
    case nil, .null?: id = nil
    case .int(let i)?: id = .int(i)
    case .string(let s)? where s.count <= maxIDLength: id = .string(s)
    default:
      return .failure(
        ProtocolError(
          .badField,
          "Field 'id' must be an integer or a string of at most \(maxIDLength) characters."
        ))
    }
    do {
      return .success(ClientEnvelope(id: id, message: try message(in: json)))
    } catch {
      var error = error
      error.replyTo = id
      return .failure(error)
    }
  }

  private static func message(in json: JSONValue) throws(ProtocolError) -> ClientMessage {
    guard case .string(let type)? = json["type"] else {
      throw ProtocolError(.unknownType, "Field 'type' is missing.")
    }
    switch type {
    case "hello":
      let name = try optionalString(json, "name", max: 200)?.trimmingWhitespace
      if let name, name.count > maxNameLength {
        throw ProtocolError(.badField, "Field 'name' must be at most \(maxNameLength) characters.")
      }
      let resume = try optionalString(json, "resume", max: maxTokenLength)
      let version = try optionalInt(json, "version", in: 0...Int.max)
      return .hello(name: name?.isEmpty == true ? nil : name, resume: resume, version: version)
    case "playSolo":
      guard let game = try optionalString(json, "game", max: 32) else {
        throw ProtocolError(.badField, "Field 'game' is required.")
      }
      return .playSolo(game: game)
    case "choose":
      guard case .int(let card)? = json["card"] else {
        throw ProtocolError(.badField, "Field 'card' must be an integer card id.")
      }
      return .choose(card: card)
    case "redeal": return .redeal
    case "resync": return .resync
    case "lobby": return .lobby
    case "leave": return .leave
    case "start": return .start
    case "quickMatch":
      let game = try requiredString(json, "game", max: 32)
      return .quickMatch(game: game, seats: try optionalInt(json, "seats", in: seatRange) ?? 4)
    case "createTable":
      let game = try requiredString(json, "game", max: 32)
      guard let seats = try optionalInt(json, "seats", in: seatRange) else {
        throw ProtocolError(.badField, "Field 'seats' must be an integer 1...8.")
      }
      var isPrivate = false
      switch json["private"] {
      case nil, .null?: break
      case .bool(let b)?: isPrivate = b
      default: throw ProtocolError(.badField, "Field 'private' must be true or false.")
      }
      return .createTable(game: game, seats: seats, isPrivate: isPrivate)
    case "join", "spectate":
      let reference: TableReference
      if let code = try optionalString(json, "code", max: 16) {
        reference = .code(code.uppercased())
      } else if let id = try optionalString(json, "table", max: 32) {
        reference = .id(id)
      } else {
        throw ProtocolError(.badField, "Give the table's 'code' or its 'table' id.")
      }
      return type == "join" ? .join(reference) : .spectate(reference)
    default:
      throw ProtocolError(.unknownType, "Unknown message type '\(type.prefix(32))'.")
    }
  }

  /// The seat counts a table may have.
  public static let seatRange = 1...8

  private static func requiredString(_ json: JSONValue, _ key: String, max: Int)
    throws(ProtocolError) -> String
  {
    guard let value = try optionalString(json, key, max: max) else {
      throw ProtocolError(.badField, "Field '\(key)' is required.")
    }
    return value
  }

  private static func optionalInt(_ json: JSONValue, _ key: String, in range: ClosedRange<Int>)
    throws(ProtocolError) -> Int?
  {
    switch json[key] {
    case nil, .null?: return nil
    case .int(let i)? where range.contains(i): return i
    default:
      throw ProtocolError(
        .badField, "Field '\(key)' must be an integer \(range.lowerBound)...\(range.upperBound).")
    }
  }

  private static func optionalString(_ json: JSONValue, _ key: String, max: Int)
    throws(ProtocolError) -> String?
  {
    switch json[key] {
    case nil, .null?: return nil
    case .string(let s)? where s.count <= max: return s
    default:
      throw ProtocolError(
        .badField, "Field '\(key)' must be a string of at most \(max) characters.")
    }
  }
}

extension String {
  var trimmingWhitespace: String {
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace || first.isNewline {
      scalars.removeFirst()
    }
    while let last = scalars.last, last.isWhitespace || last.isNewline { scalars.removeLast() }
    return String(scalars)
  }
}
