import Model
import Protocol

/// What the lobby asks to be written down before the frames that follow it may leave (see
/// ``LobbyAction/journal(_:)``). Together the entries rebuild every open table and session
/// after a crash or a restart: a table is its latest ``TableRecord`` (settings, the current
/// deal's seed, seats, phase) plus the moves of that deal since, in order.
public enum JournalEntry: Hashable, Sendable {
  /// A table's state around its game, whole; replaces the table's previous record. A new deal
  /// (``TableRecord/deal``) starts its moves afresh.
  indirect case table(TableRecord)
  /// A move accepted at a table: the `index`th (from 0) of deal number `deal`.
  case move(JournalMove)
  /// The table closed: nothing of it is to be rebuilt.
  case tableClosed(String)
  /// A session, whole (by the hash of its token); replaces the session's previous entry.
  indirect case session(SessionRecord)
  /// The session ended: it is not to be rebuilt.
  case sessionEnded(String)
  /// The session (by the hash of its token) went to another node of the cluster, which takes
  /// it from the shared database; this node no longer writes it. A store that no other node
  /// shares keeps it as it is.
  case sessionReleased(String)
  /// A game ended: keep its record (its id is the store's to give).
  indirect case finished(FinishedGame)
  /// A game ended with more moves than its table keeps in memory (``TableRules/recordCap``):
  /// keep its record (whose own `moves` are empty) with every move of deal `deal` of `table`
  /// as the journal holds them, with their times. Comes after the move that ended the game, so
  /// a store that applies entries in order has the whole deal at hand.
  indirect case finishedInJournal(FinishedGame, table: String, deal: Int)
  /// An arena, whole; replaces the arena's previous entry (a finished arena is kept as it
  /// ended, its final standings).
  indirect case arena(Arena)
}

/// One accepted move of a table's current deal, as the journal keeps it.
public struct JournalMove: Hashable, Sendable {
  /// The table.
  public var table: String
  /// The deal the move belongs to (``TableRecord/deal``).
  public var deal: Int
  /// Its position among the deal's moves, from 0.
  public var index: Int
  /// The move as the game applied it.
  public var move: Move
  /// Seconds since play of the deal began.
  public var at: Double
  /// The table's version once the move was applied.
  public var version: Int

  /// Creates a journal move.
  public init(table: String, deal: Int, index: Int, move: Move, at: Double, version: Int) {
    self.table = table
    self.deal = deal
    self.index = index
    self.move = move
    self.at = at
    self.version = version
  }
}

/// One seat as a table record keeps it.
public struct SeatRecord: Hashable, Sendable, Codable {
  /// The player's name.
  public var name: String
  /// The hash of the player's session token.
  public var token: String
  /// The hash of the person's player token, or nil.
  public var player: String?
  /// The level of a computer player's seat (``BotLevel/name``), or nil for a person.
  public var bot: String?

  /// Creates a seat record.
  public init(name: String, token: String, player: String? = nil, bot: String? = nil) {
    self.name = name
    self.token = token
    self.player = player
    self.bot = bot
  }
}

/// A table around its game: everything needed to open it again but the moves of its deal.
public struct TableRecord: Hashable, Sendable, Codable {
  /// The table's id (`t12`).
  public var id: String
  /// The game's wire name.
  public var game: String
  /// The rules.
  public var settings: GameSettings
  /// The invite code.
  public var code: String
  /// Whether the table is left out of the lobby list.
  public var isPrivate: Bool
  /// Whether players see each other's selections.
  public var showSelections: Bool
  /// Seconds a turn may last (turn-based games), or nil.
  public var turnSeconds: Double?
  /// The phase (`waiting`, `countdown`, `playing`, `finished`).
  public var phase: String
  /// The host's seat.
  public var host: Int?
  /// Every seat, nil when empty.
  public var seats: [SeatRecord?]
  /// The name each seat had last.
  public var names: [String]
  /// Seats ranked in this game's standings.
  public var everSeated: [Int]
  /// Seats that voted for a re-deal.
  public var votes: [Int]
  /// The table's version when the record was made.
  public var version: Int
  /// How many deals the table has had (1 for the first); moves belong to one deal.
  public var deal: Int
  /// The seed of the current deal (secret).
  public var dealSeed: UInt64
  /// The session (token hash) that opened the table.
  public var creator: String
  /// Whether it is a solo table.
  public var solo: Bool
  /// The table's last lines of chat, oldest first (nil in a record written before chat).
  public var chat: [ChatLine]?
  /// The day of the daily puzzle the table deals, or nil.
  public var daily: String?
  /// Who last sat in each seat this game, by seat (`"0"`): the hashes of their player tokens
  /// (nil in a record written before ratings).
  public var playedBy: [String: String]?
  /// Seconds a person waits alone before a computer player is offered (``ComputerOffer``;
  /// nil: never, and in a record written before computer players).
  public var offerComputer: Double?
  /// The arena sprint the table's game is (nil: none, and in a record written before arenas).
  public var sprint: ArenaSprint?

  /// Creates a record.
  public init(
    id: String, game: String, settings: GameSettings, code: String, isPrivate: Bool,
    showSelections: Bool, turnSeconds: Double?, phase: String, host: Int?,
    seats: [SeatRecord?], names: [String], everSeated: [Int], votes: [Int], version: Int,
    deal: Int, dealSeed: UInt64, creator: String, solo: Bool, chat: [ChatLine]? = nil,
    daily: String? = nil, playedBy: [String: String]? = nil, offerComputer: Double? = nil,
    sprint: ArenaSprint? = nil
  ) {
    self.sprint = sprint
    self.offerComputer = offerComputer
    self.playedBy = playedBy
    self.chat = chat
    self.daily = daily
    self.id = id
    self.game = game
    self.settings = settings
    self.code = code
    self.isPrivate = isPrivate
    self.showSelections = showSelections
    self.turnSeconds = turnSeconds
    self.phase = phase
    self.host = host
    self.seats = seats
    self.names = names
    self.everSeated = everSeated
    self.votes = votes
    self.version = version
    self.deal = deal
    self.dealSeed = dealSeed
    self.creator = creator
    self.solo = solo
  }
}

/// A session as the journal keeps it: no token, only its hash.
public struct SessionRecord: Hashable, Sendable, Codable {
  /// The hash of the session's token.
  public var token: String
  /// The display name.
  public var name: String
  /// The table the session sits at or watches.
  public var tableID: String?
  /// The seat, or nil for a spectator (or no table).
  public var seat: Int?
  /// The hash of the person's player token, or nil.
  public var player: String?

  /// Creates a session record.
  public init(token: String, name: String, tableID: String?, seat: Int?, player: String? = nil) {
    self.token = token
    self.name = name
    self.tableID = tableID
    self.seat = seat
    self.player = player
  }
}

/// What a store read back at start: the open tables, each with its current deal's moves in
/// order, and the sessions.
public struct JournalContents: Sendable {
  /// Every open table and the moves of its current deal.
  public var tables: [(record: TableRecord, moves: [JournalMove])]
  /// Every live session.
  public var sessions: [SessionRecord]
  /// The arenas not finished, and the latest finished ones.
  public var arenas: [Arena] = []
  /// A number no lower than any table number ever used: new tables are numbered after it. The
  /// highest number used, or for a shared database the start of a range of this start's own.
  public var lastTableNumber: Int

  /// Creates contents.
  public init(
    tables: [(record: TableRecord, moves: [JournalMove])] = [], sessions: [SessionRecord] = [],
    lastTableNumber: Int = 0
  ) {
    self.tables = tables
    self.sessions = sessions
    self.lastTableNumber = lastTableNumber
  }
}
