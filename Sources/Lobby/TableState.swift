import Model
import Protocol

/// Timings of a table, in seconds.
public struct TableRules: Hashable, Sendable {
  /// The countdown between a start and the deal.
  public var countdown = LobbyConfiguration.defaults.countdown
  /// How long a dropped player's seat is held.
  public var reconnectGrace = LobbyConfiguration.defaults.reconnectGrace
  /// How many recent diffs are kept for reconnecting clients.
  public var ringSize = 64
  /// The most moves the record of one game keeps in memory (2 bytes each); beyond it the record
  /// says it is truncated. See ``MoveLog``.
  public var recordCap = MoveLog.defaultCap
  /// Whether the table keeps journal entries for the lobby to take
  /// (``TableState/takeJournal(creator:)``).
  public var journals = false

  /// The default rules.
  public init() {}
}

/// Who sits in a seat of a table (whatever its game: not generic, so that code walking the
/// seats needs no type metadata at run time).
public struct TableSeat: Hashable, Sendable {
  /// The player's name.
  public var name: String
  /// The player's session token (secret).
  public var token: String
  /// When a dropped player's seat is released, or nil while connected.
  public var awayUntil: Double?
  /// The hash of the person's player token (``FinishedPlayer/player``), or nil.
  public var player: String? = nil
}

/// The arbiter of one table as a pure state machine: seats, phases, votes and one game. It
/// applies changes one at a time, numbers every broadcast, and says what to send. The
/// ``LobbyState`` holds one per open table, feeds it and turns its answers into actions.
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
  private enum Entry {
    case table(TableEvent)
    case game(GameEvent<Card>)
  }

  /// One entry of a move's diff as one seat sees it when selections are hidden.
  private enum SeenEvent {
    /// A game event as it happened.
    case game(GameEvent<Card>)
    /// The face of a card an opponent turned up unseen, shown now that their claim is judged.
    case reveal(Card)
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
  public private(set) var version = 0
  /// The latest status line.
  public private(set) var status: [StyledRun]
  /// Every seat, nil when empty.
  public private(set) var seats: [Seat?]
  /// The phase.
  public private(set) var phase: TablePhase
  /// The host's seat.
  public private(set) var host: Int?
  /// How many are watching.
  public private(set) var spectators = 0
  /// When the countdown ends.
  public private(set) var countdownEnds: Double?
  /// Seats that voted for a re-deal, in voting order.
  public private(set) var votes: [Int] = []
  /// Since when no seat has been taken, or nil while someone sits here.
  public private(set) var emptySince: Double?
  /// The name each seat had last (for standings after someone left).
  public private(set) var names: [String]
  /// Seconds a turn may last before it passes (turn-based games), or nil for no limit.
  public let turnSeconds: Double?
  /// Whether players see the cards their opponents choose. When not, each player sees only
  /// their own selection (and the faces it turned up) until a claim is judged: a match or a
  /// mismatch, its cards and points are news for everyone. Spectators always see everything.
  public let selectionsVisible: Bool
  /// With hidden selections, the latest status line as each seat read it (nil: as everyone
  /// did, ``status``).
  private var seatStatus: [[StyledRun]]?
  /// When the turn being played passes by itself.
  public private(set) var turnEnds: Double?
  /// The matches and mismatches of the game being played, oldest first: the last
  /// ``historyCap`` of them (a player toggling cards for ever cannot grow it).
  public private(set) var history: [HistoryEntry] = []
  /// Entries made this game (numbers the next one).
  private var historyCount = 0
  /// When play of the current game began (the history's clock).
  private var playStartedAt: Double = 0
  /// The latest matches (seat and card ids), newest last: a choice that lost the race to one
  /// of them is told who took which cards.
  private var recentMatches: [(seat: Int, cards: [Int])] = []
  /// The most history entries a table keeps.
  public static var historyCap: Int { 200 }
  /// The turn changed (or play began) and its clock has not been started yet: the next
  /// ``tick(now:)`` starts it.
  private var turnClockPending = false
  private var everSeated: Set<Int>
  private var ring: [(version: Int, frame: Frame, seatFrames: [Frame]?)] = []
  /// How many deals this table has had (1 for the first): journal moves belong to one deal.
  public private(set) var deal = 1
  /// Moves accepted in the current deal.
  private var movesThisDeal = 0
  /// With ``TableRules/journals``: moves not yet taken by ``takeJournal(creator:)``.
  private var journalQueue: [JournalMove] = []
  /// With ``TableRules/journals``: something besides a move changed since the last record.
  private var recordDue = true
  /// With ``TableRules/journals``: when each move of ``record`` was made, in seconds into play
  /// (its ``FinishedGame`` keeps the moves with their times), to the millisecond.
  private var dealTimes = MoveTimes()
  /// Mismatches per seat this deal.
  private var mistakes: [Int] = []
  /// With ``TableRules/journals``: a game that ended and is not taken yet (a
  /// ``JournalEntry/finished(_:)`` or ``JournalEntry/finishedInJournal(_:table:deal:)``).
  private var finishedQueue: [JournalEntry] = []

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
  }

  /// How many seats are taken.
  public var seatedCount: Int { seats.count { $0 != nil } }

  /// How many seated players are connected.
  public var connectedCount: Int { seats.count { $0 != nil && $0?.awayUntil == nil } }

  /// The seat held by the session `token`.
  public func seat(of token: String) -> Int? {
    seats.firstIndex { $0?.token == token }
  }

  /// The lobby's row for this table.
  public var listing: TableListing {
    TableListing(
      id: id, game: Card.gameName, seats: seats.count, seated: seatedCount,
      spectators: spectators, phase: phase)
  }

  // MARK: - People

  /// Why ``sit(token:name:replyTo:now:)`` would refuse a newcomer now, or nil when it would
  /// seat them. Asking changes nothing, so a refused request can leave its sender where they are.
  public func sitProblem(replyTo: MessageID?) -> ProtocolError? {
    // A full table has always started (its last seat starts it), so check fullness first, or
    // tableFull could never be answered.
    guard seats.contains(where: { $0 == nil }) else {
      return ProtocolError(.tableFull, "Every seat is taken; you can watch.", replyTo: replyTo)
    }
    guard phase == .waiting else {
      return ProtocolError(
        .alreadyStarted, "This game has started; you can watch it.", replyTo: replyTo)
    }
    return nil
  }

  /// Seats a player in the lowest free seat; a full table starts its countdown.
  public mutating func sit(
    token: String, name: String, player: String? = nil, replyTo: MessageID?, now: Double
  ) -> Result<(seat: Int, broadcast: Broadcast), ProtocolError> {
    if let problem = sitProblem(replyTo: replyTo) { return .failure(problem) }
    guard let seat = seats.firstIndex(where: { $0 == nil }) else { fatalError("checked above") }
    seats[seat] = Seat(name: name, token: token, awayUntil: nil, player: player)
    names[seat] = name
    everSeated.insert(seat)
    emptySince = nil
    var events: [Entry] = [.table(.joined(seat: seat, name: name))]
    var runs: [StyledRun] = [.text("\(name) joined.")]
    if host == nil {
      host = seat
      events.append(.table(.host(seat: seat)))
    }
    if seatedCount == seats.count {
      let (more, line) = beginCountdown(now: now)
      events += more
      runs = [.text("\(name) joined. ")] + line
    }
    return .success((seat, broadcast(seat: seat, replyTo: replyTo, events: events, status: runs)))
  }

  /// The player in `seat` left (or did not come back in time): the seat is empty again.
  public mutating func release(seat: Int, now: Double) -> Broadcast? {
    guard seats.indices.contains(seat), let leaving = seats[seat] else { return nil }
    let needed = votesNeeded
    seats[seat] = nil
    var events: [Entry] = [.table(.left(seat: seat))]
    if votes.contains(seat) {
      votes.removeAll { $0 == seat }
      events.append(.table(.vote(seats: votes, needed: votesNeeded)))
    } else {
      events += voteUpdate(neededBefore: needed)
    }
    if host == seat {
      host = seats.firstIndex { $0 != nil }
      // Nobody left to host is news too: clients must stop showing the old host.
      events.append(.table(.host(seat: host)))
    }
    if seatedCount == 0 {
      emptySince = now
      if phase == .countdown {
        phase = .waiting
        countdownEnds = nil
        events.append(.table(.phase(.waiting, countdown: nil)))
      }
    }
    return broadcast(
      seat: nil, replyTo: nil, events: events, status: [.text("\(leaving.name) left.")])
  }

  /// The player in `seat` dropped: the seat is held for the grace period.
  public mutating func disconnect(seat: Int, now: Double) -> Broadcast? {
    guard seats.indices.contains(seat), let player = seats[seat], player.awayUntil == nil else {
      return nil
    }
    let needed = votesNeeded
    seats[seat]?.awayUntil = now + rules.reconnectGrace
    let seconds = Int(rules.reconnectGrace.rounded(.up))
    return broadcast(
      seat: nil, replyTo: nil,
      events: [.table(.away(seat: seat, seconds: seconds))] + voteUpdate(neededBefore: needed),
      status: [.text("\(player.name) is reconnecting…")])
  }

  /// The dropped player in `seat` is back.
  public mutating func reconnect(seat: Int) -> Broadcast? {
    guard seats.indices.contains(seat), let player = seats[seat], player.awayUntil != nil else {
      return nil
    }
    let needed = votesNeeded
    seats[seat]?.awayUntil = nil
    return broadcast(
      seat: seat, replyTo: nil,
      events: [.table(.back(seat: seat))] + voteUpdate(neededBefore: needed),
      status: [.text("\(player.name) is back.")])
  }

  /// A `vote` event when a vote is open and the number of votes it needs has changed (the
  /// number of connected players did), so that clients keep `needed` right.
  private func voteUpdate(neededBefore: Int) -> [Entry] {
    guard !votes.isEmpty, votesNeeded != neededBefore else { return [] }
    return [.table(.vote(seats: votes, needed: votesNeeded))]
  }

  /// The number of spectators changed.
  public mutating func setSpectators(_ count: Int) -> Broadcast? {
    guard count != spectators else { return nil }
    spectators = count
    return broadcast(
      seat: nil, replyTo: nil, events: [.table(.spectators(count: count))], status: nil)
  }

  // MARK: - Phases

  /// The host starts a waiting table.
  public mutating func start(by seat: Int, replyTo: MessageID?, now: Double) -> Result<
    Broadcast, ProtocolError
  > {
    guard seat == host else {
      return .failure(
        ProtocolError(.notHost, "Only the host can start the game.", replyTo: replyTo))
    }
    guard phase == .waiting else {
      return .failure(
        ProtocolError(.alreadyStarted, "The game has already started.", replyTo: replyTo))
    }
    let (events, runs) = beginCountdown(now: now)
    return .success(broadcast(seat: seat, replyTo: replyTo, events: events, status: runs))
  }

  private mutating func beginCountdown(now: Double) -> ([Entry], [StyledRun]) {
    if rules.countdown <= 0 { return beginPlay(now: now) }
    phase = .countdown
    countdownEnds = now + rules.countdown
    let seconds = Int(rules.countdown.rounded(.up))
    return (
      [.table(.phase(.countdown, countdown: seconds))],
      [.text("Starting in \(seconds)…")]
    )
  }

  private mutating func beginPlay(now: Double) -> ([Entry], [StyledRun]) {
    phase = .playing
    playStartedAt = now
    countdownEnds = nil
    turnClockPending = game.settings.turnBased
    var events: [Entry] = [
      .table(.phase(.playing, countdown: nil)),
      .game(.redealt(board: game.board, deckCount: game.deckCount)),
    ]
    if let turn = game.turn { events.append(.game(.turn(seat: turn))) }
    return (events, [.text("Go! ")] + StatusLine.newGame(Card.self))
  }

  /// Moves time on: ends a countdown, releases seats whose grace period has passed, carries out
  /// a re-deal vote that now has its majority. Returns the broadcasts and the tokens of the
  /// sessions that lost their seat.
  public mutating func tick(now: Double) -> (broadcasts: [Broadcast], released: [String]) {
    var broadcasts: [Broadcast] = []
    var released: [String] = []
    if phase == .countdown, let ends = countdownEnds, now >= ends {
      let (events, runs) = beginPlay(now: now)
      broadcasts.append(broadcast(seat: nil, replyTo: nil, events: events, status: runs))
    }
    for (seat, player) in seats.enumerated() {
      if let player, let until = player.awayUntil, now > until,
        let b = release(seat: seat, now: now)
      {
        broadcasts.append(b)
        released.append(player.token)
      }
    }
    // A vote can reach its majority without a new vote: players who had not voted dropped or
    // left, so fewer votes are needed. It is carried out here rather than left waiting.
    if !votes.isEmpty, votes.count >= votesNeeded, let voter = votes.last,
      case .success(let (_, b)) = play(.redeal(seat: voter), replyTo: nil, now: now)
    {
      broadcasts.append(b)
    }
    broadcasts += runTurnClock(now: now)
    return (broadcasts, released)
  }

  /// Turn-based play: starts the clock of a new turn, and passes the turn of a seat that is
  /// empty or out of time (at most once round the table, and only while someone who could play
  /// is connected).
  private mutating func runTurnClock(now: Double) -> [Broadcast] {
    guard game.settings.turnBased, phase == .playing, !game.isOver else {
      turnClockPending = false
      turnEnds = nil
      return []
    }
    if turnClockPending {
      turnClockPending = false
      turnEnds = turnSeconds.map { now + $0 }
    }
    var broadcasts: [Broadcast] = []
    for _ in seats.indices {
      guard let turn = game.turn, !game.isOver, seats.count > 1,
        seats.contains(where: { $0 != nil && $0?.awayUntil == nil })
      else { break }
      // An empty seat's turn passes at once; a dropped player keeps theirs until its time runs
      // out (a reload, or the server restarting, does not cost a turn), and their seat, once
      // released, is empty.
      let empty = seats[turn] == nil
      let late = turnEnds.map { now >= $0 } ?? false
      guard empty || late else { break }
      guard case .success(let (_, b)) = play(.pass(seat: turn), replyTo: nil, now: now) else {
        break
      }
      broadcasts.append(b)
      turnClockPending = false
      turnEnds = turnSeconds.map { now + $0 }
    }
    return broadcasts
  }

  /// Whether seats take turns (the lobby then decides its moves with the whole state, so that
  /// the turn clock can be scheduled).
  public var isTurnBased: Bool { game.settings.turnBased }

  /// When the next timed change is due, if any.
  public var nextDeadline: Double? {
    // A held seat is released once the time is past `awayUntil` (not at it): the deadline is
    // the first instant after it. A turn whose clock is not started yet is due at once.
    let turn = turnClockPending ? -Double.infinity : turnEnds
    return ([countdownEnds, turn] + seats.map { $0?.awayUntil?.nextUp }).compactMap { $0 }.min()
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
  @_specialize(exported:false,where Card == SetCard)
  public mutating func play(_ move: Move, replyTo: MessageID?, now: Double = 0) -> Result<
    (events: [GameEvent<Card>], broadcast: Broadcast), ProtocolError
  > {
    if move.isPlay, phase != .playing {
      let message =
        phase == .finished
        ? "The game is over; deal again to play on." : "The game has not started yet."
      return .failure(
        ProtocolError(phase == .finished ? .gameOver : .notPlaying, message, replyTo: replyTo))
    }
    // Hidden selections: what each seat saw face up before the move.
    let seenBefore = selectionsVisible ? [] : game.players.map(\.selection)
    let matchedBefore = selectionsVisible ? [] : game.matchedOnBoard
    let events: [GameEvent<Card>]
    do {
      events = try game.apply(move)
    } catch {
      if case .cardNotOnTable(let id) = error, !game.settings.faceDown,
        let taken = recentMatches.last(where: { $0.cards.contains(id) })
      {
        let cards = taken.cards.map { Card.fullDeck[$0].spokenName }.joined(separator: ", ")
        return .failure(
          ProtocolError(
            .cardNotOnTable,
            "\(ServerMessage.name(of: taken.seat, in: names)) took those cards first: \(cards).",
            replyTo: replyTo))
      }
      return .failure(Self.protocolError(for: error, replyTo: replyTo))
    }
    movesAccepted += 1
    lastMove = move
    // Table events that come before the game's own (a re-deal closes a vote, starts play).
    var before: [TableEvent] = []
    if case .redeal = move {
      history = []
      historyCount = 0
      playStartedAt = now
      deal += 1
      movesThisDeal = 0
      // A new deal is a new record; the old deal's moves are done with.
      journalQueue = []
      dealTimes = MoveTimes()
      mistakes = []
      recordDue = rules.journals
      // A new game: its record starts from the new deal, and the old game's moves are let go.
      record = GameLog(settings: game.settings, seed: game.dealSeed, cap: rules.recordCap)
      // The new game's standings rank the players sitting now.
      everSeated = Set(seats.indices.filter { seats[$0] != nil })
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
      if rules.journals && !record.isTruncated { dealTimes.append(max(0, now - playStartedAt)) }
    }
    if game.settings.turnBased { turnClockPending = true }
    let names = names
    let naming = CardNaming(game)
    // Matches and mismatches go into the history (and into the diff, styled).
    var entries: [HistoryEntry] = []
    for event in events {
      switch event {
      case .matched(let seat, let cards, let points):
        entries.append(record(.match, seat: seat, points: points, cards: cards, now: now))
        if recentMatches.count >= 8 { recentMatches.removeFirst() }
        recentMatches.append((seat, cards.map(\.id)))
      case .mismatched(let seat, let cards, let penalty):
        entries.append(record(.mismatch, seat: seat, points: penalty, cards: cards, now: now))
        if mistakes.count <= seat {
          mistakes += Array(repeating: 0, count: seat + 1 - mistakes.count)
        }
        mistakes[seat] += 1
      default: break
      }
    }
    // The standings only rank seats taken this game; the game's end finishes the table (and,
    // kept whole, is written down).
    var ended: [Standing]?
    for event in events {
      if case .ended(let standings) = event {
        ended = Standing.ranked(
          standings.filter { everSeated.contains($0.seat) },
          byMatches: game.settings.ranksByMatches)
        phase = .finished
        if rules.journals, let ended {
          if let log = record.record {
            finishedQueue.append(.finished(finishedGame(ended, moves: log.moves, now: now)))
          } else {
            // Longer than the log keeps: rather than hold every move of a game that may never
            // end (a player toggling a card), the table lets the journal, which holds every
            // move of the deal already (until the next deal or the table's close), give the
            // record its moves in the transaction that keeps it. Memory stays bounded by the
            // cap; the record loses nothing.
            finishedQueue.append(
              .finishedInJournal(finishedGame(ended, moves: [], now: now), table: id, deal: deal))
          }
        }
      }
    }
    var status = StatusLine.runs(for: events, names: names, naming: naming)
    if case .pass(let seat) = move {
      status.insert(.text("\(names[seat]) passes. "), at: 0)
    }
    // Each match or mismatch is followed by its history entry.
    func write(_ event: GameEvent<Card>, to list: inout DiffEvents, nextEntry: inout Int) {
      if case .ended = event, let ended {
        list.add(GameEvent<Card>.ended(ended), names: names, naming: naming)
        list.add(TableEvent.phase(.finished, countdown: nil))
      } else {
        list.add(event, names: names, naming: naming)
      }
      switch event {
      case .matched, .mismatched:
        list.add(
          TableEvent.history(entries[nextEntry].json(names: names, naming: naming, as: Card.self)))
        nextEntry += 1
      default: break
      }
    }
    var b = broadcast(seat: move.seat, replyTo: replyTo, status: status) { list in
      for event in before { list.add(event) }
      var nextEntry = 0
      for event in events { write(event, to: &list, nextEntry: &nextEntry) }
    }
    if rules.journals, move.isPlay {
      journalQueue.append(
        JournalMove(
          table: id, deal: deal, index: movesThisDeal, move: move, at: now - playStartedAt,
          version: version))
    }
    if move.isPlay { movesThisDeal += 1 }
    if !selectionsVisible {
      // Each seat's own diff: the same news, with the opponents' selections left out.
      var frames: [Frame] = []
      var lines: [[StyledRun]] = []
      for viewer in seats.indices {
        let seen = seenEvents(
          events, by: viewer, selectionBefore: seenBefore[viewer], matchedBefore: matchedBefore)
        var seenGame: [GameEvent<Card>] = []
        for case .game(let event) in seen { seenGame.append(event) }
        var line = StatusLine.runs(for: seenGame, names: names, naming: naming)
        if line.isEmpty, move.seat != viewer, case .choose = move {
          // An opponent's choice, kept from this seat: that they chose, not what.
          var verb = "chose"
          if let first = events.first, case .deselected = first { verb = "let go of" }
          line = [.text("\(names[move.seat]) \(verb) a card.")]
        }
        if case .pass(let seat) = move { line.insert(.text("\(names[seat]) passes. "), at: 0) }
        let frame = ServerMessage.diffFrame(
          tableID: id, version: version, seat: move.seat, replyTo: replyTo, status: line
        ) { list in
          for event in before { list.add(event) }
          var nextEntry = 0
          for event in seen {
            switch event {
            case .game(let event): write(event, to: &list, nextEntry: &nextEntry)
            case .reveal(let card): list.reveal(card, naming: naming)
            }
          }
        }
        // Seats that see the same diff share one frame.
        frames.append(frames.first { $0.hasSamePayload(as: frame) } ?? frame)
        lines.append(line)
      }
      seatStatus = lines
      b = Broadcast(version: b.version, frame: b.frame, seatFrames: frames)
      ring[ring.count - 1].seatFrames = frames
    }
    return .success((events, b))
  }

  /// What seat `viewer` sees of a move's `events` when players do not see each other's
  /// selections: its own choices and the faces it turned up, but no opponent's; every judged
  /// claim (a match or mismatch, its points), with the faces of matched cards it had not seen;
  /// and its own cards turning back down, whoever else still holds them up. `selectionBefore`
  /// is its selection before the move, `matchedBefore` the matched cards on the board.
  private func seenEvents(
    _ events: [GameEvent<Card>], by viewer: Int, selectionBefore: [Int], matchedBefore: Set<Int>
  ) -> [SeenEvent] {
    let faceDown = game.settings.faceDown
    // The cards this seat saw face up (beyond the matched ones) before and during the move.
    var seenUp = Set(selectionBefore)
    var seen: [SeenEvent] = []
    for event in events {
      switch event {
      case .selected(let seat, _), .deselected(let seat, _):
        if seat == viewer { seen.append(.game(event)) }
      case .turnedUp(let seat, let card):
        if seat == viewer {
          seenUp.insert(card.id)
          seen.append(.game(event))
        }
      case .turnedDown:
        // Worked out for this seat below.
        break
      case .matched(let seat, let cards, _):
        if faceDown && seat != viewer {
          for card in cards
          where !seenUp.contains(card.id) && !matchedBefore.contains(card.id)
            && game.board.contains(card)
          {
            seen.append(.reveal(card))
          }
        }
        seen.append(.game(event))
      default:
        seen.append(.game(event))
      }
    }
    if faceDown {
      let mine = Set(game.players[viewer].selection)
      let down = game.board.filter {
        seenUp.contains($0.id) && !mine.contains($0.id) && !game.matchedOnBoard.contains($0.id)
      }
      if !down.isEmpty { seen.append(.game(.turnedDown(down))) }
    }
    return seen
  }

  /// Keeps a history entry (the last ``historyCap``) and returns it.
  private mutating func record(
    _ kind: HistoryEntry.Kind, seat: Int, points: Int, cards: [Card], now: Double
  ) -> HistoryEntry {
    historyCount += 1
    let entry = HistoryEntry(
      number: historyCount, at: max(0, now - playStartedAt), seat: seat, kind: kind,
      points: points, cards: cards.map(\.id))
    if history.count >= Self.historyCap { history.removeFirst(history.count - Self.historyCap + 1) }
    history.append(entry)
    return entry
  }

  /// Majority needed for a re-deal vote: more than half of the connected seated players.
  public var votesNeeded: Int { max(1, connectedCount / 2 + 1) }

  /// A re-deal asked for by `seat`: at once for a solo table or the host, otherwise a vote.
  public mutating func requestRedeal(by seat: Int, replyTo: MessageID?, now: Double = 0) -> Result<
    Broadcast, ProtocolError
  > {
    guard phase == .playing || phase == .finished else {
      return .failure(
        ProtocolError(.notPlaying, "The game has not started yet.", replyTo: replyTo))
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
        status: [.text("\(name) wants a re-deal (\(votes.count) of \(votesNeeded) votes).")]))
  }

  // MARK: - Messages

  private mutating func broadcast(
    seat: Int?, replyTo: MessageID?, events: [Entry], status runs: [StyledRun]?
  ) -> Broadcast {
    // Whatever changes besides a move (seats, phases, votes) needs a new record.
    if rules.journals { recordDue = true }
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
    ring.append((version, frame, nil))
    if ring.count > rules.ringSize { ring.removeFirst(ring.count - rules.ringSize) }
    return Broadcast(version: version, frame: frame)
  }

  /// The diffs after `version` as `seat` saw them (nil: a spectator), oldest first, or nil
  /// when some of them are gone.
  public func diffs(after version: Int, seat: Int? = nil) -> [Frame]? {
    if version == self.version { return [] }
    guard version < self.version, let first = ring.first, first.version <= version + 1 else {
      return nil
    }
    return ring.filter { $0.version > version }.map { entry in
      guard let seat, let frames = entry.seatFrames, frames.indices.contains(seat) else {
        return entry.frame
      }
      return frames[seat]
    }
  }

  /// The snapshot a member sitting at `you` (nil for a spectator) sees at `now`.
  public func snapshot(replyTo: MessageID?, you: Int?, now: Double = 0) -> JSONValue {
    let occupied = seats.enumerated().compactMap { seat, player -> SeatView? in
      guard let player else { return nil }
      return SeatView(
        seat: seat, name: player.name, connected: player.awayUntil == nil,
        away: player.awayUntil.map { max(0, Int(($0 - now).rounded(.up))) })
    }
    var meta = TableMeta(
      phase: phase, code: code, isPrivate: isPrivate, seats: seats.count, host: host,
      spectators: spectators,
      countdown: countdownEnds.map { max(0, Int(($0 - now).rounded(.up))) },
      vote: votes.isEmpty ? nil : (votes, votesNeeded), occupied: occupied,
      ranked: everSeated.sorted())
    meta.turnSeconds = turnSeconds.map { Int($0) }
    meta.turnLeft = turnEnds.map { max(0, Int(($0 - now).rounded(.up))) }
    meta.selectionsHidden = !selectionsVisible
    var line = status
    if let you, let seatStatus, seatStatus.indices.contains(you) { line = seatStatus[you] }
    return ServerMessage.snapshot(
      replyTo: replyTo, tableID: id, version: version, you: you, game: game, names: names,
      status: line, meta: meta, history: history)
  }

  // MARK: - Journal

  /// The journal entries since the last call: a new ``TableRecord`` when anything besides a move
  /// changed (first), then the moves of the current deal in order. Empty unless
  /// ``TableRules/journals``.
  public mutating func takeJournal(creator: String) -> [JournalEntry] {
    guard rules.journals, recordDue || !journalQueue.isEmpty || !finishedQueue.isEmpty else {
      return []
    }
    var entries: [JournalEntry] = []
    if recordDue {
      recordDue = false
      entries.append(.table(journalRecord(creator: creator)))
    }
    for move in journalQueue { entries.append(.move(move)) }
    journalQueue.removeAll(keepingCapacity: true)
    // After the move that ended it, in the same batch.
    entries += finishedQueue
    finishedQueue.removeAll()
    return entries
  }

  /// The game just ended with `standings`, as it is kept.
  private func finishedGame(_ standings: [Standing], moves: [Move], now: Double) -> FinishedGame {
    let players = standings.map { row in
      FinishedPlayer(
        seat: row.seat, name: names[row.seat], score: row.score, matches: row.matches,
        mistakes: mistakes.indices.contains(row.seat) ? mistakes[row.seat] : 0, rank: row.rank,
        player: seats[row.seat]?.player)
    }
    return FinishedGame(
      game: Card.gameName, settings: game.settings, seed: game.dealSeed,
      showSelections: selectionsVisible, players: players,
      moves: zip(moves, dealTimes.seconds).map { FinishedMove($0, at: $1) },
      seconds: max(0, now - playStartedAt), source: "\(id)#\(deal)")
  }

  /// Plays a finished game's `move` again at `at` seconds into it: the diff it made, as a
  /// spectator saw it (``FinishedGameReplay``).
  mutating func replay(_ move: Move, at: Double) -> Frame? {
    guard case .success(let (_, b)) = play(move, replyTo: nil, now: playStartedAt + at) else {
      return nil
    }
    return b.frame
  }

  /// The table around its game as the journal keeps it.
  public func journalRecord(creator: String) -> TableRecord {
    TableRecord(
      id: id, game: Card.gameName, settings: game.settings, code: code, isPrivate: isPrivate,
      showSelections: selectionsVisible, turnSeconds: turnSeconds, phase: phase.rawValue,
      host: host,
      seats: seats.map { $0.map { SeatRecord(name: $0.name, token: $0.token, player: $0.player) } },
      names: names, everSeated: everSeated.sorted(), votes: votes, version: version, deal: deal,
      dealSeed: game.dealSeed, creator: creator, solo: seats.count == 1)
  }

  /// The table of `record` opened again at `now` after a restart, its current deal replayed
  /// from `moves` (that deal's moves, in order). Every seated player is away, held for the
  /// grace period; the version goes on from where it was, so clients resync with a snapshot.
  public init(restoring record: TableRecord, moves: [JournalMove], rules: TableRules, now: Double) {
    self.init(
      id: record.id, code: record.code, isPrivate: record.isPrivate, settings: record.settings,
      seed: record.dealSeed, rules: rules, now: now, turnSeconds: record.turnSeconds,
      selectionsVisible: record.showSelections)
    deal = record.deal
    names = record.names
    everSeated = Set(record.everSeated)
    seats = record.seats.map {
      $0.map {
        Seat(
          name: $0.name, token: $0.token, awayUntil: now + rules.reconnectGrace, player: $0.player)
      }
    }
    host = record.host
    emptySince = seats.contains { $0 != nil } ? nil : now
    let recorded = TablePhase(rawValue: record.phase) ?? .waiting
    switch recorded {
    case .playing, .finished:
      phase = .playing
      playStartedAt = now - (moves.last?.at ?? 0)
      for move in moves where move.deal == record.deal {
        _ = play(move.move, replyTo: nil, now: playStartedAt + move.at)
      }
    case .countdown:
      // The countdown starts again.
      phase = .countdown
      countdownEnds = now + rules.countdown
    case .waiting:
      phase = .waiting
    }
    votes = record.votes.filter { seats.indices.contains($0) && seats[$0] != nil }
    // One version on (the restart is a change: every seat is away), and nobody can catch up
    // from diffs made before it: every resume gets a snapshot.
    version = max(record.version, moves.last?.version ?? 0) + 1
    ring = []
    journalQueue = []
    // A game that ended before the restart was kept with its last move.
    finishedQueue = []
    recordDue = false
    status = [.text("The server restarted; play on.")]
    seatStatus = nil
  }

  /// The wire error for a refused move.
  public static func protocolError(for rejection: MoveRejection, replyTo: MessageID?)
    -> ProtocolError
  {
    switch rejection {
    case .unknownCard(let id):
      ProtocolError(.unknownCard, "There is no card \(id) in this game.", replyTo: replyTo)
    case .cardNotOnTable(let id):
      ProtocolError(.cardNotOnTable, "Card \(id) is not on the table.", replyTo: replyTo)
    case .cardAlreadyMatched(let id):
      ProtocolError(.cardNotOnTable, "Card \(id) is already matched.", replyTo: replyTo)
    case .gameOver:
      ProtocolError(.gameOver, "The game is over; deal again to play on.", replyTo: replyTo)
    case .unknownSeat:
      ProtocolError(.notAtTable, "You have no seat at this table.", replyTo: replyTo)
    case .notYourTurn:
      ProtocolError(.notYourTurn, "It is not your turn; wait for it.", replyTo: replyTo)
    case .notTurnBased:
      ProtocolError(.badField, "This game has no turns to pass.", replyTo: replyTo)
    case .alreadyChosen(let id):
      ProtocolError(
        .alreadyChosen, "Card \(id) is already turned up; choose another.", replyTo: replyTo)
    }
  }
}
