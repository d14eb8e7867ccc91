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

/// What a client can ask for (protocol v2, `matchismo.v2`).
public enum ClientMessage: Hashable, Sendable {
  /// Opens (or, with `resume`, takes over) a session; `version` is the last table version the
  /// client applied, so that only missed diffs need to be sent; `player` names the person
  /// across sessions (their finished games); `games` whether `welcome` describes the games.
  case hello(
    name: String?, resume: String?, version: Int? = nil, player: String? = nil,
    games: GamesWanted = .none)
  /// Starts a solo game of `game` at a new one-seat table, with `options` changed from the
  /// game's defaults.
  case playSolo(game: String, options: TableOptions = TableOptions())
  /// Starts a game of `game` against `bots` computer players (1–3) of `level` at a new private
  /// table, with `options` changed from the game's defaults.
  case playBot(game: String, level: String, bots: Int, options: TableOptions = TableOptions())
  /// Chooses, or un-chooses, the card with this id.
  case choose(card: Int)
  /// Deals a new game at the current table.
  case redeal
  /// Asks for a fresh snapshot of the current table.
  case resync
  /// Asks for a hint: a match on the board that the game's own rule finds (solo tables of
  /// games that offer hints).
  case hint
  /// Asks how many matches are on the board now (practice, where `hint` is offered).
  case countMatches
  /// Subscribes to the lobby's table list.
  case lobby
  /// Sits at the fullest waiting public table of `game` with `seats` seats and the settings
  /// `options` make (the game's defaults changed by them), or at a new one with them.
  case quickMatch(game: String, seats: Int, options: TableOptions = TableOptions())
  /// Opens a new table and sits at it as host, with `options` changed from the game's
  /// defaults.
  case createTable(
    game: String, seats: Int, isPrivate: Bool, options: TableOptions = TableOptions())
  /// Sits at the table with this invite code or public id.
  case join(TableReference)
  /// Watches the table with this invite code or public id.
  case spectate(TableReference)
  /// Another node of the cluster, watching this table for `count` spectators of its own
  /// through this connection (a link), says how many they are; `key` is the cluster's link key
  /// (only the nodes know it), without which the count is refused.
  case watching(count: Int, key: String)
  /// Another node's link says a line of chat for `name`, a spectator it watches for (the
  /// spectator's own rules and limits were checked there); `key` as for ``watching(count:key:)``.
  case watcherChat(name: String, text: String, key: String)
  /// Leaves the current table.
  case leave
  /// The host starts a waiting table.
  case start
  /// The host of a waiting public table, offered a computer player after waiting alone, seats
  /// one of `level` (``TableState``'s computer offer).
  case addComputer(level: String)
  /// One page of a game's finished games.
  case scores(ScoresQuery)
  /// One finished game, whole, with its replay.
  case record(id: String)
  /// Plays today's daily puzzle of `game`: the day's deal, the same for everyone, at a new solo
  /// table.
  case playDaily(game: String)
  /// The daily puzzle's board of results of `game`, today's or yesterday's.
  case daily(game: String, yesterday: Bool)
  /// The asking player's rating at `game` and their latest rated games of it.
  case ratings(game: String)
  /// A line of chat, trimmed, for everyone at the sender's table (players and spectators), or
  /// in the lobby for everyone who watches the lobby's list.
  case chat(text: String)
  /// The arenas: public ones upcoming and running, the latest finished, and private ones the
  /// asker is in.
  case arenas
  /// Creates a private arena of `game`, `minutes` long, starting in `startsIn` seconds, and
  /// joins it.
  case createArena(game: String, minutes: Int, startsIn: Int)
  /// Joins the arena with this id (public ones) or invite code.
  case joinArena(ArenaReference)
  /// Leaves the arena `arena` (a game in progress is lost).
  case leaveArena(arena: String)
  /// Follows the standings of the arena `arena` without playing.
  case watchArena(arena: String)
  /// Watches the featured game of the arena `arena`, and the leader's next games after it.
  case watchFeatured(arena: String)
}

/// How a client names an arena: by id (public ones) or by invite code (any).
public enum ArenaReference: Hashable, Sendable {
  case id(String)
  case code(String)
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
  case badSettings, notYourTurn, alreadyChosen, unavailable, unknownRecord
  case tooFast, alreadyPlayed, chainRule
  case noHints, hintsAlone, dailyNoHints
  case noBots, noOffer
  case unknownArena, alreadyJoined, arenaOver, notInArena, arenaRule
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

/// Settings a client may choose when it opens a table; nil keeps the game's default. The
/// decoder checks only their types; whether they make sense for the game is the lobby's call
/// (`badSettings`).
public struct TableOptions: Hashable, Sendable {
  /// Cards on the board.
  public var boardSize: Int?
  /// Cards per match (Matchismo: 2 or 3).
  public var matchSize: Int?
  /// `classic`, `course` or `custom` (Set; `custom` takes the three constants below).
  public var scoring: String?
  /// Points a choice costs.
  public var costToChoose: Int?
  /// Points a mismatch costs.
  public var mismatchPenalty: Int?
  /// The multiplier of a match's score.
  public var matchBonus: Int?
  /// Seconds a turn may last before it passes (Concentration; 0: no limit).
  public var turnSeconds: Int?
  /// The emoji theme (Concentration), by index.
  public var theme: Int?
  /// Whether players see the cards their opponents have chosen (spectators always do); false
  /// keeps each player's selection to that player until it is judged (Set and Matchismo).
  public var showSelections: Bool?
  /// Seconds a player waits alone at a public table before a computer player is offered
  /// (0: never).
  public var offerComputer: Int?

  /// Options that keep every default, or change those given.
  public init(
    boardSize: Int? = nil, matchSize: Int? = nil, scoring: String? = nil,
    costToChoose: Int? = nil, mismatchPenalty: Int? = nil, matchBonus: Int? = nil,
    turnSeconds: Int? = nil, theme: Int? = nil, showSelections: Bool? = nil,
    offerComputer: Int? = nil
  ) {
    self.offerComputer = offerComputer
    self.boardSize = boardSize
    self.matchSize = matchSize
    self.scoring = scoring
    self.costToChoose = costToChoose
    self.mismatchPenalty = mismatchPenalty
    self.matchBonus = matchBonus
    self.turnSeconds = turnSeconds
    self.theme = theme
    self.showSelections = showSelections
  }

  /// The options as message fields, in a fixed order.
  public var members: [(String, JSONValue)] {
    var members: [(String, JSONValue)] = []
    if let boardSize { members.append(("boardSize", .int(boardSize))) }
    if let matchSize { members.append(("matchSize", .int(matchSize))) }
    if let scoring { members.append(("scoring", .string(scoring))) }
    if let costToChoose { members.append(("costToChoose", .int(costToChoose))) }
    if let mismatchPenalty { members.append(("mismatchPenalty", .int(mismatchPenalty))) }
    if let matchBonus { members.append(("matchBonus", .int(matchBonus))) }
    if let turnSeconds { members.append(("turnSeconds", .int(turnSeconds))) }
    if let theme { members.append(("theme", .int(theme))) }
    if let showSelections { members.append(("showSelections", .bool(showSelections))) }
    if let offerComputer { members.append(("offerComputer", .int(offerComputer))) }
    return members
  }
}
