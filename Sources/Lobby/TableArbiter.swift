import Model
import Protocol

/// One table as the lobby sees it, whatever game it holds: seats, phases, votes, spectators
/// and the versioned diffs. ``TableState`` is the implementation for every card game of the
/// engine; the lobby keeps tables as `any TableArbiter`, so a new game needs a
/// ``GameDefinition`` (and its card type), never a copy of the lobby or the table.
///
/// Every method that changes something returns the ``TableState/Broadcast`` to send to
/// everyone at the table, or a refusal that changed nothing.
public protocol TableArbiter: Sendable {
  /// The table's public id.
  var id: String { get }
  /// The invite code.
  var code: String { get }
  /// Whether the table is left out of the lobby list.
  var isPrivate: Bool { get }
  /// The version of the table's state.
  var version: Int { get }
  /// How many spectators watch.
  var spectators: Int { get }
  /// The lobby's row for the table.
  var listing: TableListing { get }
  /// The game's wire name (what ``listing`` says, without building the row).
  var gameName: String { get }
  /// The phase (what ``listing`` says, without building the row).
  var phase: TablePhase { get }
  /// Since when nobody has been seated (nil while someone is).
  var emptySince: Double? { get }
  /// When the table next needs ``tick(now:)``.
  var nextDeadline: Double? { get }
  /// Whether seats take turns (its moves then need the whole lobby: the turn clock).
  var isTurnBased: Bool { get }
  /// Whether computer players sit here (their plans change with every move: the clock again).
  var hasBots: Bool { get }
  /// Seats a computer player of `level` in the lowest free seat.
  mutating func sitBot(level: BotLevel, replyTo: MessageID?, now: Double)
    -> Result<(seat: Int, broadcast: TableBroadcast), ProtocolError>
  /// The seat held by the session `token`.
  func seat(of token: String) -> Int?
  /// Why a newcomer could not sit now (nil when they could). Changes nothing.
  func sitProblem(replyTo: MessageID?) -> ProtocolError?
  /// Seats a player (`player`: the hash of their player token) in the lowest free seat.
  mutating func sit(
    token: String, name: String, player: String?, replyTo: MessageID?, now: Double
  ) -> Result<(seat: Int, broadcast: TableBroadcast), ProtocolError>
  /// The seat is empty again.
  mutating func release(seat: Int, now: Double) -> TableBroadcast?
  /// The seat's player dropped; the seat is held.
  mutating func disconnect(seat: Int, now: Double) -> TableBroadcast?
  /// The seat's player is back.
  mutating func reconnect(seat: Int) -> TableBroadcast?
  /// The number of spectators changed (no version, no diff: ``CrowdCount``).
  mutating func setSpectators(_ count: Int)
  /// The host starts a waiting table.
  mutating func start(by seat: Int, replyTo: MessageID?, now: Double)
    -> Result<TableBroadcast, ProtocolError>
  /// A table of computers only plays on by itself: it is never empty, and deals again a few
  /// seconds after each game (``TableState/playsAlone``).
  mutating func playOnAlone()
  /// The host takes the offer of a computer player of `level` (``ComputerOffer``).
  mutating func addComputer(by seat: Int, level: BotLevel, replyTo: MessageID?, now: Double)
    -> Result<TableBroadcast, ProtocolError>
  /// The seat chooses a card.
  mutating func choose(card: Int, by seat: Int, replyTo: MessageID?, now: Double)
    -> Result<TableBroadcast, ProtocolError>
  /// The seat asks for a re-deal: at once or as a vote.
  mutating func requestRedeal(by seat: Int, replyTo: MessageID?, now: Double)
    -> Result<TableBroadcast, ProtocolError>
  /// Moves time on; returns the broadcasts and the tokens whose seats were released.
  mutating func tick(now: Double) -> (broadcasts: [TableBroadcast], released: [String])
  /// The answer to `seat`'s `hint`: a match a player may claim now (or none), or why the table
  /// gives no hint. Changes nothing.
  func hint(for seat: Int, replyTo: MessageID?) -> Result<JSONValue, ProtocolError>
  /// The `countMatches` answer for `seat`, or its refusal (as `hint`'s).
  func matchCount(for seat: Int, replyTo: MessageID?) -> Result<JSONValue, ProtocolError>
  /// The encoded diffs after `version` as `seat` sees them (nil: a spectator), or nil when
  /// some are gone.
  func diffs(after version: Int, seat: Int?) -> [Frame]?
  /// The snapshot a member sitting at `you` (nil: a spectator) sees at `now`.
  func snapshot(replyTo: MessageID?, you: Int?, now: Double) -> JSONValue
  /// The journal entries since the last call (empty unless the table journals).
  mutating func takeJournal(creator: String) -> [JournalEntry]
  /// The table closes: what the journal must be told (``JournalEntry/tableClosed(_:)``, unless
  /// the table does not journal).
  func closingJournal() -> [JournalEntry]
  /// `name` at `seat` (nil: a spectator) says `text`: the line as the table keeps it.
  mutating func say(_ text: String, name: String, seat: Int?, now: Double) -> ChatLine
  /// The people seated (the hashes of their player tokens), in seat order.
  var seatedPlayers: [String] { get }
  /// The sessions seated (their tokens), held seats included, in seat order.
  var seatTokens: [String] { get }
  /// Takes `known` (people's ratings at this table's game, by player) as what the table shows;
  /// returns the `seatRatings` frame for its members when what they were shown changed.
  mutating func rate(_ known: [String: PlayerRating]) -> Frame?
  /// The people a rated game that just ended rated, once (nil: none since the last call).
  mutating func takeRatedPlayers() -> [String]?
  /// The arena sprint the table's game is, if any (``ArenaSprint``).
  var sprint: ArenaSprint? { get }
  /// Makes the table's game an arena's sprint (before anyone sits).
  mutating func setSprint(_ sprint: ArenaSprint)
  /// The result of a sprint that just ended, once: each seat's rank (nil: none since the last
  /// call).
  mutating func takeSprintResult() -> [Int: Int]?
}

/// One numbered change for everyone at a table, whatever its game: one diff (with the status
/// line it brought) encoded once into one frame that every recipient shares.
///
/// At a table whose players do not see each other's selections, a move can read differently
/// from each seat: then ``seatFrames`` holds the diff each seat gets (seats that see the same
/// share one frame), and ``frame``, the whole diff, goes to spectators.
public struct TableBroadcast: Sendable {
  /// The version the diff produces.
  public let version: Int
  /// The diff, encoded once: for everyone, or for spectators when ``seatFrames`` is set.
  public let frame: Frame
  /// The diff each seat gets, by seat number, when the seats see it differently.
  public let seatFrames: [Frame]?

  /// A broadcast of `frame`, the diff that produces `version`, and per seat `seatFrames`.
  public init(version: Int, frame: Frame, seatFrames: [Frame]? = nil) {
    self.version = version
    self.frame = frame
    self.seatFrames = seatFrames
  }

  /// The frame a member sitting at `seat` (nil: a spectator) gets.
  public func frame(for seat: Int?) -> Frame {
    guard let seat, let seatFrames, seatFrames.indices.contains(seat) else { return frame }
    return seatFrames[seat]
  }

  /// The diff read back from the frame as a value (for tests and tools: it parses the frame).
  public var diff: JSONValue { JSONValue.parse(frame.payload) ?? .null }
}

extension TableState: TableArbiter {
  // The lobby holds tables as `any TableArbiter`, whose witnesses run the generic code; this
  // copy for the game served skips the type-metadata look-ups on every move.
  @_specialize(exported:false,where Card == SetCard)
  public mutating func choose(card: Int, by seat: Int, replyTo: MessageID?, now: Double)
    -> Result<TableBroadcast, ProtocolError>
  {
    play(.choose(seat: seat, card: card), replyTo: replyTo, now: now).map { $0.broadcast }
  }
}
