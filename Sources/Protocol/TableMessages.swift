import Model

/// A table's phase: seats fill, a countdown runs, the game is played, the game has ended.
public enum TablePhase: String, Hashable, Sendable {
  case waiting, countdown, playing, finished
}

/// What happened at a table outside the game itself: people coming and going, phases, votes.
public enum TableEvent: Hashable, Sendable {
  /// A player sat down: a computer player (``BotLevel``) when `bot` names its level.
  case joined(seat: Int, name: String, bot: BotLevel? = nil)
  /// A seat is empty again.
  case left(seat: Int)
  /// A player dropped; the seat is held for `seconds`.
  case away(seat: Int, seconds: Int)
  /// A dropped player is back.
  case back(seat: Int)
  /// This seat is the host now.
  case host(seat: Int?)
  /// The phase changed; `countdown` is the seconds left when it is `.countdown`.
  case phase(TablePhase, countdown: Int?)
  /// The seats that voted to re-deal and how many votes are needed; no seats closes the vote.
  case vote(seats: [Int], needed: Int)
  /// The game just ended: its look back (``ServerMessage/lookBack(_:seats:daily:)``), written
  /// once for every view's diff.
  case lookBack(EncodedJSON)
  /// A computer player is offered to the host (a player waiting alone), or no longer is.
  case computerOffer(open: Bool)
}

extension TableEvent {
  /// Writes the event as a diff entry (its one encoder).
  public func write(to out: inout JSONWriter) {
    switch self {
    case .joined(let seat, let name, let bot):
      out.raw(#"{"kind":"join","seat":"#)
      out.int(seat)
      out.raw(#","name":"#)
      out.string(name)
      if let bot {
        out.raw(#","bot":{"level":"#)
        out.string(bot.name)
        out.byte(UInt8(ascii: "}"))
      }
    case .left(let seat):
      out.raw(#"{"kind":"leave","seat":"#)
      out.int(seat)
    case .away(let seat, let seconds):
      out.raw(#"{"kind":"away","seat":"#)
      out.int(seat)
      out.raw(#","seconds":"#)
      out.int(seconds)
    case .back(let seat):
      out.raw(#"{"kind":"back","seat":"#)
      out.int(seat)
    case .host(let seat?):
      out.raw(#"{"kind":"host","seat":"#)
      out.int(seat)
    case .host(nil):
      out.raw(#"{"kind":"host""#)
    case .phase(let phase, let countdown):
      out.raw(#"{"kind":"phase","phase":"#)
      out.string(phase.rawValue)
      if let countdown {
        out.raw(#","countdown":"#)
        out.int(countdown)
      }
    case .vote(let seats, let needed):
      out.raw(#"{"kind":"vote","seats":"#)
      out.ints(seats)
      out.raw(#","needed":"#)
      out.int(needed)
    case .lookBack(let lookBack):
      out.raw(#"{"kind":"lookBack","lookBack":"#)
      out.encoded(lookBack)
    case .computerOffer(let open):
      out.raw(#"{"kind":"computerOffer","open":"#)
      out.bool(open)
    }
    out.byte(UInt8(ascii: "}"))
  }
}

/// The events of one diff as they are written: each entry goes straight into the frame, with
/// the commas between entries.
public struct DiffEvents {
  fileprivate var out: JSONWriter
  private var count = 0

  fileprivate init(out: JSONWriter) {
    self.out = out
  }

  private mutating func separate() {
    if count > 0 { out.byte(UInt8(ascii: ",")) }
    count += 1
  }

  /// Adds a table event.
  public mutating func add(_ event: TableEvent) {
    separate()
    event.write(to: &out)
  }

  /// Adds a game event; `names` name the seats in standings, `naming` the cards.
  public mutating func add<Card: WireCard>(
    _ event: GameEvent<Card>, names: [String], naming: CardNaming<Card> = .byID
  ) {
    separate()
    ServerMessage.writeEvent(event, names: names, naming: naming, to: &out)
  }

  /// Adds a `history` event: a match or mismatch joined the table's history (`names` name the
  /// seats, `naming` the cards).
  public mutating func add<Card: WireCard>(
    _ entry: HistoryEntry, names: [String], naming: CardNaming<Card>
  ) {
    separate()
    out.raw(#"{"kind":"history","entry":"#)
    entry.write(names: names, naming: naming, to: &out)
    out.byte(UInt8(ascii: "}"))
  }

  /// Adds a `flip` without a seat: `card`'s face shown to a player who did not see it turned
  /// up (an opponent's hidden selection, judged now). Counts as nobody's flip.
  public mutating func reveal<Card: WireCard>(_ card: Card, naming: CardNaming<Card>) {
    separate()
    out.raw(#"{"kind":"flip","card":"#)
    out.value(naming.turnedUp(card))
    out.byte(UInt8(ascii: "}"))
  }
}

/// One occupied seat as a snapshot shows it, beyond the game's own numbers.
public struct SeatView: Hashable, Sendable {
  /// The seat number.
  public var seat: Int
  /// The player's name.
  public var name: String
  /// Whether the player is connected.
  public var connected: Bool
  /// Seconds left before a disconnected player's seat is released.
  public var away: Int?
  /// The player's rating at the game, when known.
  public var rating: PlayerRating?
  /// The level of a computer player (``BotLevel/name``), or nil for a person.
  public var bot: String?

  /// Creates a seat view.
  public init(
    seat: Int, name: String, connected: Bool, away: Int? = nil, rating: PlayerRating? = nil
  ) {
    self.rating = rating
    self.seat = seat
    self.name = name
    self.connected = connected
    self.away = away
  }
}

/// What a snapshot says about the table around the game.
public struct TableMeta: Hashable, Sendable {
  /// The phase.
  public var phase: TablePhase
  /// The invite code.
  public var code: String
  /// Whether the table is left out of the lobby list.
  public var isPrivate: Bool
  /// Seats in all.
  public var seats: Int
  /// The host's seat, if anyone is seated.
  public var host: Int?
  /// How many are watching.
  public var spectators: Int
  /// Seconds left in the countdown.
  public var countdown: Int?
  /// The open re-deal vote: who voted, and how many votes are needed.
  public var vote: (seats: [Int], needed: Int)?
  /// The occupied seats.
  public var occupied: [SeatView]
  /// The seats ranked in the final standings: every seat that was ever taken this game, so a
  /// player who left still counts. Nil ranks the occupied seats.
  public var ranked: [Int]?
  /// Seconds a turn may last (turn-based games with a limit).
  public var turnSeconds: Int?
  /// Seconds left in the current turn.
  public var turnLeft: Int?
  /// Whether players see only their own selection (spectators see every one).
  public var selectionsHidden = false
  /// The day of the daily puzzle the table deals, or nil.
  public var daily: String?
  /// Whether a computer player is offered to the host now (`computerOffer` events).
  public var computerOffer = false

  /// Creates table metadata.
  public init(
    phase: TablePhase, code: String, isPrivate: Bool, seats: Int, host: Int?, spectators: Int,
    countdown: Int? = nil, vote: (seats: [Int], needed: Int)? = nil, occupied: [SeatView],
    ranked: [Int]? = nil
  ) {
    self.phase = phase
    self.code = code
    self.isPrivate = isPrivate
    self.seats = seats
    self.host = host
    self.spectators = spectators
    self.countdown = countdown
    self.vote = vote
    self.occupied = occupied
    self.ranked = ranked
  }

  public static func == (a: TableMeta, b: TableMeta) -> Bool {
    a.phase == b.phase && a.code == b.code && a.isPrivate == b.isPrivate && a.seats == b.seats
      && a.host == b.host && a.spectators == b.spectators && a.countdown == b.countdown
      && a.vote?.seats == b.vote?.seats && a.vote?.needed == b.vote?.needed
      && a.occupied == b.occupied && a.ranked == b.ranked && a.turnSeconds == b.turnSeconds
      && a.turnLeft == b.turnLeft && a.selectionsHidden == b.selectionsHidden
      && a.daily == b.daily
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(phase)
  }
}

extension ServerMessage {
  /// The lobby's whole table list.
  public static func lobbySnapshot(replyTo: MessageID?, version: Int, tables: [TableListing])
    -> JSONValue
  {
    var members: [(String, JSONValue)] = [("type", "lobbySnapshot")]
    if let replyTo { members.append(("replyTo", replyTo.json)) }
    members += [("version", .int(version)), ("tables", .array(tables.map(\.json)))]
    return .object(members)
  }

  /// Changes to the lobby list.
  public static func lobbyDiff(version: Int, changes: [LobbyChange]) -> JSONValue {
    .object([
      ("type", "lobbyDiff"), ("version", .int(version)),
      ("changes", .array(changes.map(\.json))),
    ])
  }

  /// Answers `leave`.
  public static func left(replyTo: MessageID?) -> JSONValue {
    var members: [(String, JSONValue)] = [("type", "left")]
    if let replyTo { members.append(("replyTo", replyTo.json)) }
    return .object(members)
  }

  /// The frame of a diff whose events `events` writes, encoded straight into the frame (the one
  /// encoder of diffs: one per accepted move). `seat` is nil when the server caused the change;
  /// `status` is the table's new status line, if the change brought one (protocol v2: the status
  /// travels inside the diff, so one change is one frame).
  public static func diffFrame(
    tableID: String, version: Int, seat: Int?, replyTo: MessageID?, status: [StyledRun]?,
    events: (inout DiffEvents) -> Void
  ) -> Frame {
    Frame { out in
      out.raw(#"{"type":"diff","table":"#)
      out.string(tableID)
      out.raw(#","version":"#)
      out.int(version)
      if let seat {
        out.raw(#","seat":"#)
        out.int(seat)
      }
      if let replyTo {
        out.raw(#","replyTo":"#)
        out.messageID(replyTo)
      }
      out.raw(#","events":["#)
      var list = DiffEvents(out: JSONWriter())
      swap(&out, &list.out)
      events(&list)
      swap(&out, &list.out)
      out.byte(UInt8(ascii: "]"))
      if let status {
        out.raw(#","status":["#)
        for (i, run) in status.enumerated() {
          if i > 0 { out.byte(UInt8(ascii: ",")) }
          run.write(to: &out)
        }
        out.byte(UInt8(ascii: "]"))
      }
      out.byte(UInt8(ascii: "}"))
    }
  }
}
