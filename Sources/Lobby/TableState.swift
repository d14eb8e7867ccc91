import Model
import Protocol

/// The arbiter of one table as a pure state machine: seats, phases, votes and one game. It
/// applies changes one at a time, numbers every broadcast, and says what to send. The
/// ``LobbyState`` holds one per open table, feeds it and turns its answers into actions.
///
/// Its concerns live in files of their own: the seats (`TableState+Seats.swift`), the clock
/// and phases (`TableState+Clock.swift`), the journal and restarts (`TableState+Journal.swift`),
/// the finished game's record (`TableState+FinishedGame.swift`), refusals
/// (`TableState+Refusals.swift`); a move's steps use ``TableHistory``, ``MoveDiff``,
/// ``HiddenSelectionView``, ``TableJournalQueue`` and ``DiffRing``.
public struct TableState<Card: WireCard>: Sendable {
  /// What applying a move came to.
  public enum Outcome: Sendable {
    /// The move changed the game: broadcast `frame` (the diff, with its status) to everyone.
    /// `diff` is the frame read back as a value (for tests and tools).
    case accepted(version: Int, events: [GameEvent<Card>], diff: JSONValue, frame: Frame)
    /// The move was refused; tell its sender only. Nothing changed.
    case rejected(ProtocolError)
  }

  /// One numbered change for everyone at the table.
  public typealias Broadcast = TableBroadcast

  /// One entry of a diff outside the hot path, kept as data until the diff is written.
  enum Entry {
    case table(TableEvent)
    case game(GameEvent<Card>)
  }

  /// Who sits in a seat.
  public typealias Seat = TableSeat

  /// The table's public id.
  public let id: String
  /// The invite code.
  public let code: String
  /// Whether the table is left out of the lobby list.
  public let isPrivate: Bool
  /// Timings.
  public let rules: TableRules
  /// The game (dealt at creation, shown from the start of play).
  public private(set) var game: CardMatchingGame<Card>
  /// The record of the current game: the settings, the current deal's seed and the moves
  /// accepted since, two bytes each, up to ``TableRules/recordCap``. Until it is truncated it
  /// rebuilds ``game`` (``GameLog/record``). A re-deal starts a new one, so a table keeps only
  /// what the game being played needs, however long it lives. Secret (holds the seed).
  public private(set) var record: GameLog
  /// Every move accepted at this table, in every game.
  public private(set) var movesAccepted = 0
  /// The latest accepted move (a re-deal included), if any.
  public private(set) var lastMove: Move?
  /// The version of the state; grows by one per broadcast.
  public internal(set) var version = 0
  /// The latest status line.
  public internal(set) var status: [StyledRun]
  /// Every seat, nil when empty.
  public internal(set) var seats: [Seat?]
  /// The phase.
  public internal(set) var phase: TablePhase
  /// The host's seat.
  public internal(set) var host: Int?
  /// How many are watching.
  public internal(set) var spectators = 0
  /// When the countdown ends.
  public internal(set) var countdownEnds: Double?
  /// Seats that voted for a re-deal, in voting order.
  public internal(set) var votes: [Int] = []
  /// Since when no seat has been taken, or nil while someone sits here.
  public internal(set) var emptySince: Double?
  /// The name each seat had last (for standings after someone left).
  public internal(set) var names: [String]
  /// Seconds a turn may last before it passes (turn-based games), or nil for no limit.
  public let turnSeconds: Double?
  /// Whether players see the cards their opponents choose. When not, each player sees only
  /// their own selection (and the faces it turned up) until a claim is judged: a match or a
  /// mismatch, its cards and points are news for everyone. Spectators always see everything.
  public let selectionsVisible: Bool
  /// With hidden selections, the latest status line as each seat read it (nil: as everyone
  /// did, ``status``).
  var seatStatus: [[StyledRun]]?
  /// When the turn being played passes by itself.
  public internal(set) var turnEnds: Double?
  /// The matches and mismatches of the game being played.
  var historyLog = TableHistory(cap: historyCap)
  /// The matches and mismatches of the game being played, oldest first: the last
  /// ``historyCap`` of them (a player toggling cards for ever cannot grow it).
  public var history: [HistoryEntry] { historyLog.entries }
  /// When play of the current game began (the history's clock).
  var playStartedAt: Double = 0
  /// The most history entries a table keeps.
  public static var historyCap: Int { 200 }
  /// The turn changed (or play began) and its clock has not been started yet: the next
  /// ``tick(now:)`` starts it.
  var turnClockPending = false
  /// The seats taken this game (the standings rank them).
  var everSeated: Set<Int>
  /// Who last sat in each seat this game (the hash of their player token): a player who left
  /// a rated game before its end is rated all the same.
  var playedBy: [Int: String] = [:]
  /// The latest diffs, for members catching up.
  var ring: DiffRing
  /// How many deals this table has had (1 for the first): journal moves belong to one deal.
  public internal(set) var deal = 1
  /// What the table owes the journal (nothing unless ``TableRules/journals``).
  var journal: TableJournalQueue
  /// The UTC day (`yyyy-mm-dd`) whose daily puzzle the table deals, or nil for any other table.
  /// Its one deal is never dealt again, and the game it ends with is kept as the player's
  /// result of that day (``dailySource``).
  public internal(set) var daily: String?
  /// The table's last lines of chat (at most ``chatCap``), oldest first.
  public internal(set) var chat: [ChatLine] = []
  /// How many lines of chat a table keeps (its journal record holds them all; a finished game
  /// keeps those said during it).
  public static var chatCap: Int { 100 }
  /// The ratings at this game known of the people at the table (by the hash of their player
  /// token): what its snapshot, its row and `seatRatings` show beside their names.
  var knownRatings: [String: PlayerRating] = [:]
  /// Each computer player's plan, by seat, and the board it was made on (``planBots(now:)``).
  var botPlans: [Int: PlannedBot] = [:]
  /// What the computer players at a face-down board have seen this deal (``noteFaces(_:)``).
  var botMemory = BotMemory()
  /// Whether computers alone play on here, game after game (``playOnAlone()``), and when the
  /// next game is dealt once one has ended.
  public internal(set) var playsAlone = false
  var nextGameAt: Double?
  /// The offer of a computer player to a person waiting alone (``ComputerOffer``).
  public internal(set) var offer = ComputerOffer()
  /// The arena sprint this table's game is (``ArenaSprint``), and its state: when it ends on
  /// time, the seats that forfeited it, and its result until the lobby takes it.
  public internal(set) var sprint: ArenaSprint?
  var sprintEndsAt: Double?
  var sprintForfeits: Set<Int> = []
  var sprintResult: [Int: Int]?
  /// What the members were last told of the seats' ratings (`seatRatings`).
  var shownRatings: [Int: PlayerRating] = [:]
  /// The people a rated game that just ended rated, until the lobby takes them
  /// (``takeRatedPlayers()``) to read their new ratings.
  var ratedAtEnd: [String]?
  /// The look back at the current game, kept as it is played when the table journals (the
  /// journal keeps the game, and its record the look back): ready when the game ends.
  var lookBack: LookBackTracker?

  /// A table already playing with every seat taken by `names` (held by the sessions `tokens`,
  /// seat by seat): a solo table, or a test table.
  public init(
    id: String, settings: GameSettings, seed: UInt64, names: [String], tokens: [String] = [],
    players: [String?] = [], code: String = "", rules: TableRules = TableRules(),
    turnSeconds: Double? = nil,
    selectionsVisible: Bool = true, now: Double = 0
  ) {
    self.init(
      id: id, code: code, isPrivate: true, settings: settings, seed: seed, rules: rules, now: now,
      turnSeconds: turnSeconds, selectionsVisible: selectionsVisible)
    self.playStartedAt = now
    for (seat, name) in names.prefix(settings.seats).enumerated() { self.names[seat] = name }
    self.seats = self.names.indices.map {
      Seat(
        name: self.names[$0], token: tokens.indices.contains($0) ? tokens[$0] : "", awayUntil: nil,
        player: players.indices.contains($0) ? players[$0] : nil)
    }
    self.everSeated = Set(0..<settings.seats)
    self.phase = .playing
    self.host = 0
    self.emptySince = nil
    self.status = StatusLine.newGame(Card.self)
    self.turnClockPending = settings.turnBased
  }

  /// An empty table waiting for players.
  public init(
    id: String, code: String, isPrivate: Bool, settings: GameSettings, seed: UInt64,
    rules: TableRules, now: Double, turnSeconds: Double? = nil, selectionsVisible: Bool = true
  ) {
    self.turnSeconds = settings.turnBased ? turnSeconds : nil
    self.selectionsVisible = selectionsVisible
    self.id = id
    self.code = code
    self.isPrivate = isPrivate
    self.rules = rules
    self.game = CardMatchingGame(settings: settings, seed: seed)
    self.record = GameLog(settings: settings, seed: seed, cap: rules.recordCap)
    self.names = (0..<settings.seats).map { "Seat \($0 + 1)" }
    self.seats = Array(repeating: nil, count: settings.seats)
    self.everSeated = []
    self.phase = .waiting
    self.emptySince = now
    self.status = [.text("Waiting for players.")]
    self.ring = DiffRing(capacity: rules.ringSize)
    self.journal = TableJournalQueue(isOn: rules.journals)
    self.lookBack = rules.journals ? LookBackTracker(game: game) : nil
  }

  /// How many seats are taken.
  public var seatedCount: Int { seats.count { $0 != nil } }
  /// The people seated (computer players left out): a table without any is empty, and closes
  /// after the lobby's grace period however many computers sit there.
  public var peopleSeated: Int { seats.count { $0 != nil && $0?.bot == nil } }

  /// How many seated players are connected.
  public var connectedCount: Int { seats.count { $0 != nil && $0?.awayUntil == nil } }

  /// The seat held by the session `token`.
  public func seat(of token: String) -> Int? {
    seats.firstIndex { $0?.token == token }
  }

  public var gameName: String { Card.gameName }

  /// The lobby's row for this table.
  public var listing: TableListing {
    TableListing(
      id: id, game: Card.gameName, seats: seats.count, seated: seatedCount,
      spectators: spectators, phase: phase,
      players: seats.compactMap {
        $0.map {
          TableListing.Player(
            name: $0.name, away: $0.awayUntil != nil,
            rating: $0.player.flatMap { knownRatings[$0] })
        }
      },
      settings: ServerMessage.settings(game.settings, selectionsHidden: !selectionsVisible),
      turnSeconds: turnSeconds.map { Int($0) })
  }

  /// Majority needed for a re-deal vote: more than half of the connected seated people
  /// (computer players never vote, so they do not count).
  public var votesNeeded: Int {
    max(1, seats.count { $0 != nil && $0?.awayUntil == nil && $0?.bot == nil } / 2 + 1)
  }

  // MARK: - Moves

  /// Applies `move` (made by `move.seat`), answering the sender's message `replyTo`.
  public mutating func apply(_ move: Move, replyTo: MessageID?, now: Double = 0) -> Outcome {
    switch play(move, replyTo: replyTo, now: now) {
    case .success(let (events, b)):
      .accepted(version: b.version, events: events, diff: b.diff, frame: b.frame)
    case .failure(let error):
      .rejected(error)
    }
  }

  /// Applies `move`, returning its game events and the broadcast, or the refusal.
  ///
  /// One step per job: the game's rules decide; the table notes the move (a re-deal starts a
  /// new game); the history and the game's end are written down; the diff is encoded once for
  /// everyone, and once per seat when selections are hidden; the journal queues the move.
  @_specialize(exported:false,where Card == SetCard)
  public mutating func play(_ move: Move, replyTo: MessageID?, now: Double = 0) -> Result<
    (events: [GameEvent<Card>], broadcast: Broadcast), ProtocolError
  > {
    if let refusal = refusal(toPlay: move, replyTo: replyTo) { return .failure(refusal) }
    // Hidden selections: what each seat saw face up before the move.
    let hidden = selectionsVisible ? nil : HiddenSelectionView(before: game)
    var events: [GameEvent<Card>]
    do {
      events = try game.apply(move)
    } catch {
      return .failure(refusal(for: error, replyTo: replyTo))
    }
    let before = accepted(move, now: now)
    followLookBack(move, events)
    let entries = historyLog.note(
      events, at: max(0, now - playStartedAt), costToChoose: game.settings.costToChoose)
    // The standings only rank seats taken this game; the game's end finishes the table (and,
    // kept whole, is written down).
    var ended: [Standing]?
    if let sprint, !game.isOver, game.players[move.seat].matches >= sprint.sets {
      events.append(.ended(game.standings))
    }
    for case .ended(let standings) in events { ended = finish(standings, now: now) }
    var diff = MoveDiff(
      before: before, events: events, entries: entries, ended: ended, names: names,
      naming: CardNaming(game))
    if ended != nil { diff.lookBack = lookBackAtEnd() }
    let status = StatusLine.runs(
      after: move, events: events, names: diff.names, naming: diff.naming, entries: entries)
    let b = broadcast(seat: move.seat, replyTo: replyTo, status: status) { diff.write(to: &$0) }
    journal.accepted(move, table: id, deal: deal, at: now - playStartedAt, version: version)
    if game.settings.faceDown, hasBots { noteFaces(events) }
    if !botPlans.isEmpty { planBots(now: now) }
    guard let hidden else { return .success((events, b)) }
    // Each seat's own diff: the same news, with the opponents' selections left out.
    let (frames, lines) = hidden.seatDiffs(
      of: move, diff, in: game, tableID: id, version: version, replyTo: replyTo)
    seatStatus = lines
    ring.setNewestSeatFrames(frames)
    return .success((events, Broadcast(version: b.version, frame: b.frame, seatFrames: frames)))
  }

  /// Notes the accepted `move` made at `now`: counts it, logs it in the game's record (a
  /// re-deal starts a new game and a new record), and returns the table events its diff
  /// begins with (a re-deal closes a vote and starts play).
  private mutating func accepted(_ move: Move, now: Double) -> [TableEvent] {
    movesAccepted += 1
    lastMove = move
    var before: [TableEvent] = []
    if case .redeal = move {
      historyLog.newGame()
      playStartedAt = now
      deal += 1
      journal.newDeal()
      // A new game: its record starts from the new deal, and the old game's moves are let go.
      record = GameLog(settings: game.settings, seed: game.dealSeed, cap: rules.recordCap)
      // The new game's standings rank the players sitting now.
      everSeated = Set(seats.indices.filter { seats[$0] != nil })
      playedBy = playedBy.filter {
        everSeated.contains($0.key) && seats[$0.key]?.player == $0.value
      }
      if !votes.isEmpty {
        votes = []
        before.append(.vote(seats: [], needed: votesNeeded))
      }
      if phase != .playing {
        phase = .playing
        before.append(.phase(.playing, countdown: nil))
      }
    } else {
      record.append(move)
      journal.timeLogged(at: max(0, now - playStartedAt), logged: !record.isTruncated)
    }
    if game.settings.turnBased { turnClockPending = true }
    return before
  }

  /// A re-deal asked for by `seat`: at once for a solo table or the host, otherwise a vote.
  public mutating func requestRedeal(by seat: Int, replyTo: MessageID?, now: Double = 0) -> Result<
    Broadcast, ProtocolError
  > {
    guard phase == .playing || phase == .finished else {
      return .failure(
        ProtocolError(.notPlaying, "The game has not started yet.", replyTo: replyTo))
    }
    guard daily == nil else {
      return .failure(
        ProtocolError(
          .alreadyPlayed, "The daily puzzle is one deal: it cannot be dealt again.",
          replyTo: replyTo))
    }
    guard sprint == nil else {
      return .failure(
        ProtocolError(
          .arenaRule, "Arena games are not dealt again: the arena pairs you for the next one.",
          replyTo: replyTo))
    }
    // Everyone votes, the host included: one player cannot wipe the others' scores alone.
    if seats.count == 1 || !votes.contains(seat) && votes.count + 1 >= votesNeeded {
      return play(.redeal(seat: seat), replyTo: replyTo, now: now).map { $0.broadcast }
    }
    if !votes.contains(seat) { votes.append(seat) }
    let name = names[seat]
    return .success(
      broadcast(
        seat: seat, replyTo: replyTo,
        events: [.table(.vote(seats: votes, needed: votesNeeded))],
        status: [
          .name(name, seat: seat),
          .text(" wants a re-deal (\(votes.count) of \(votesNeeded) votes)."),
        ]))
  }

  // MARK: - Messages

  /// Numbers a change besides a move (seats, phases, votes) and writes its diff.
  mutating func broadcast(
    seat: Int?, replyTo: MessageID?, events: [Entry], status runs: [StyledRun]?
  ) -> Broadcast {
    // Whatever changes besides a move needs a new record.
    journal.tableChanged()
    let names = names
    // Face-down boards name cards by slot (a deal must not show the faces).
    let naming = CardNaming(game)
    return broadcast(seat: seat, replyTo: replyTo, status: runs) { list in
      for entry in events {
        switch entry {
        case .table(let event): list.add(event)
        case .game(let event): list.add(event, names: names, naming: naming)
        }
      }
    }
  }

  /// Numbers the change and writes its diff, whose events `events` writes, into one frame.
  private mutating func broadcast(
    seat: Int?, replyTo: MessageID?, status runs: [StyledRun]?,
    events: (inout DiffEvents) -> Void
  ) -> Broadcast {
    version += 1
    if let runs {
      status = runs
      seatStatus = nil
    }
    let frame = ServerMessage.diffFrame(
      tableID: id, version: version, seat: seat, replyTo: replyTo, status: runs, events: events)
    ring.append(version: version, frame: frame)
    return Broadcast(version: version, frame: frame)
  }

  /// The diffs after `version` as `seat` saw them (nil: a spectator), oldest first, or nil
  /// when some of them are gone.
  public func diffs(after version: Int, seat: Int? = nil) -> [Frame]? {
    if version == self.version { return [] }
    guard version < self.version else { return nil }
    return ring.diffs(after: version, seat: seat)
  }
}
