/// Turns one text frame into a ``ClientEnvelope`` or a precise ``ProtocolError``.
///
/// The frame is read in one pass by ``ClientFieldScanner``, which checks the whole JSON syntax
/// strictly and keeps only the fields a client message can have, as typed values; then the
/// message's `type` picks which of those fields it reads. Every refusal travels as one typed
/// throw, caught once, in ``decode(_:)``.
///
/// Limits on strings are in UTF-8 bytes (and, for names, Unicode scalars), never in grapheme
/// clusters: a "character" of combining marks can be any number of bytes long.
public enum ClientMessageDecoder {
  /// Longest accepted `id` string, in UTF-8 bytes.
  public static let maxIDLength = 64
  /// Most Unicode scalars in a name, after trimming.
  public static let maxNameLength = 24
  /// Most UTF-8 bytes in a name, after trimming.
  public static let maxNameBytes = 64
  /// Longest resume token that can name a session, in bytes; a longer one is no token.
  public static let maxTokenLength = 128
  /// Longest `game` name, in UTF-8 bytes.
  public static let maxGameBytes = 32
  /// Longest invite `code`, in UTF-8 bytes.
  public static let maxCodeBytes = 16
  /// Longest `table` id, in UTF-8 bytes.
  public static let maxTableIDBytes = 32
  /// Longest `arena` id, in UTF-8 bytes.
  public static let maxArenaBytes = 32
  /// Longest finished game id (`record`), in UTF-8 bytes.
  public static let maxRecordIDBytes = 32
  /// Most characters (Unicode scalars) in a line of chat, after trimming.
  public static let maxChatLength = 200
  /// Most UTF-8 bytes of a `chat` message's `text` as sent, before trimming.
  public static let maxChatBytes = 1024
  /// The longest `list` a `scores` request may name (`multiplayer.classic.999x999` is 28).
  public static let maxListBytes = 32
  /// The lengths a player token may have.
  public static let playerTokenLengths = 16...64
  /// The seat counts a table may have.
  public static let seatRange = 1...8

  /// Decodes `bytes`, a complete text frame.
  public static func decode(_ bytes: [UInt8]) -> Result<ClientEnvelope, ProtocolError> {
    do throws(ProtocolError) {
      let fields = try ClientFieldScanner.scan(bytes)
      // The id is read first, so that every later refusal can carry it back.
      let id = try messageID(fields[.id])
      let reader = FieldReader(fields: consume fields, replyTo: id)
      return .success(ClientEnvelope(id: id, message: try message(reader)))
    } catch {
      return .failure(error)
    }
  }

  /// The message the fields describe. A new message type is one more `case` here.
  private static func message(_ fields: FieldReader) throws(ProtocolError) -> ClientMessage {
    let type = try fields.type()
    switch type {
    case "hello":
      return .hello(
        name: try fields.name(), resume: fields.resumeToken(),
        version: try fields.optionalInt(.version, in: 0...Int.max),
        player: try fields.playerToken(), games: try fields.gamesWanted())
    case "playBot":
      return .playBot(
        game: try fields.requiredString(.game, maxBytes: maxGameBytes),
        level: try fields.requiredString(.level, maxBytes: 16),
        bots: try fields.optionalInt(.bots, in: 1...3) ?? 1, options: try fields.tableOptions())
    case "playSolo":
      return .playSolo(
        game: try fields.requiredString(.game, maxBytes: maxGameBytes),
        options: try fields.tableOptions())
    case "choose":
      guard case .int(let card)? = fields[.card] else {
        throw fields.badField("Field 'card' must be an integer card id.")
      }
      return .choose(card: card)
    case "redeal": return .redeal
    case "resync": return .resync
    case "hint": return .hint
    case "countMatches": return .countMatches
    case "lobby": return .lobby
    case "scores":
      let game = try fields.requiredString(.game, maxBytes: maxGameBytes)
      let sortName = try fields.optionalString(.sort, maxBytes: 16) ?? "date"
      guard let sort = ScoresSort(rawValue: sortName) else {
        throw fields.badField("Field 'sort' must be 'date', 'score' or 'duration'.")
      }
      var descending = sort != .duration
      switch try fields.optionalString(.order, maxBytes: 8) {
      case nil: break
      case "asc": descending = false
      case "desc": descending = true
      default: throw fields.badField("Field 'order' must be 'asc' or 'desc'.")
      }
      var list: ScoreList?
      if let id = try fields.optionalString(.list, maxBytes: maxListBytes) {
        guard let named = ScoreList(id: id) else {
          throw fields.badField(
            "Field 'list' must name a high-score list, as `scores` answers them ('solo.course').")
        }
        list = named
      }
      return .scores(
        ScoresQuery(
          game: game, list: list, sort: sort, descending: descending,
          page: try fields.optionalInt(.page, in: 0...1_000_000) ?? 0,
          pageSize: try fields.optionalInt(.pageSize, in: ScoresQuery.pageSizes)
            ?? ScoresQuery.defaultPageSize,
          mine: try fields.optionalBool(.mine) ?? false))
    case "record":
      guard let id = try fields.optionalString(.record, maxBytes: maxRecordIDBytes) else {
        throw fields.badField("Field 'record' must name a finished game.")
      }
      return .record(id: id)
    case "chat": return .chat(text: try fields.chatText())
    case "playDaily":
      return .playDaily(game: try fields.requiredString(.game, maxBytes: maxGameBytes))
    case "daily":
      let game = try fields.requiredString(.game, maxBytes: maxGameBytes)
      switch try fields.optionalString(.day, maxBytes: 16) {
      case nil, "today": return .daily(game: game, yesterday: false)
      case "yesterday": return .daily(game: game, yesterday: true)
      default: throw fields.badField("Field 'day' must be 'today' or 'yesterday'.")
      }
    case "ratings":
      return .ratings(game: try fields.requiredString(.game, maxBytes: maxGameBytes))
    case "arenas": return .arenas
    case "createArena":
      return .createArena(
        game: try fields.requiredString(.game, maxBytes: maxGameBytes),
        minutes: try fields.optionalInt(.minutes, in: 1...60) ?? 10,
        startsIn: try fields.optionalInt(.startsIn, in: 0...3600) ?? 0)
    case "joinArena":
      if let code = try fields.optionalString(.code, maxBytes: maxCodeBytes) {
        return .joinArena(.code(code))
      }
      return .joinArena(.id(try fields.requiredString(.arena, maxBytes: maxArenaBytes)))
    case "leaveArena":
      return .leaveArena(arena: try fields.requiredString(.arena, maxBytes: maxArenaBytes))
    case "watchArena":
      return .watchArena(arena: try fields.requiredString(.arena, maxBytes: maxArenaBytes))
    case "watchFeatured":
      return .watchFeatured(arena: try fields.requiredString(.arena, maxBytes: maxArenaBytes))
    case "watching":
      guard let count = try fields.optionalInt(.count, in: 0...1_000_000) else {
        throw fields.badField("Field 'count' must be an integer 0...1000000.")
      }
      return .watching(count: count, key: try fields.requiredString(.key, maxBytes: 128))
    case "watcherChat":
      guard let name = try fields.name() else {
        throw fields.badField("Field 'name' must name the spectator.")
      }
      return .watcherChat(
        name: name, text: try fields.chatText(), key: try fields.requiredString(.key, maxBytes: 128)
      )
    case "leave": return .leave
    case "start": return .start
    case "addComputer":
      return .addComputer(level: try fields.requiredString(.level, maxBytes: 16))
    case "quickMatch":
      let game = try fields.requiredString(.game, maxBytes: maxGameBytes)
      return .quickMatch(
        game: game, seats: try fields.optionalInt(.seats, in: seatRange) ?? 4,
        options: try fields.tableOptions())
    case "createTable":
      let game = try fields.requiredString(.game, maxBytes: maxGameBytes)
      guard let seats = try fields.optionalInt(.seats, in: seatRange) else {
        throw fields.badField("Field 'seats' must be an integer 1...8.")
      }
      let isPrivate = try fields.optionalBool(.isPrivate) ?? false
      return .createTable(
        game: game, seats: seats, isPrivate: isPrivate, options: try fields.tableOptions())
    case "join", "spectate":
      let reference = try fields.tableReference()
      return type == "join" ? .join(reference) : .spectate(reference)
    default:
      throw fields.unknownType(type)
    }
  }

  /// The message id: absent, null, an integer, or a short string of allowed characters.
  private static func messageID(_ value: FieldValue?) throws(ProtocolError) -> MessageID? {
    switch value {
    case nil, .null?: return nil
    case .int(let i)?: return .int(i)
    case .string(let s)? where s.utf8.count <= maxIDLength && !containsRefusedScalar(s):
      return .string(s)
    default:
      // An id that cannot be read cannot be echoed.
      throw ProtocolError(
        .badField,
        "Field 'id' must be an integer or a string of at most \(maxIDLength) bytes, "
          + "without control characters.")
    }
  }

  /// Whether `scalar` is refused in names, ids and other strings a client sends: a control
  /// character (general category Cc) or a bidirectional formatting control, which could make
  /// text shown to other players read differently from what it is.
  public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// Whether any scalar of `string` is refused (see ``isRefused(_:)``).
  static func containsRefusedScalar(_ string: String) -> Bool {
    string.unicodeScalars.contains(where: isRefused)
  }
}
