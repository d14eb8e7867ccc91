import Model
import Protocol

/// The table's phases and clock: the start, the countdown, the deal, held seats running out,
/// re-deal votes that reach their majority and the turn clock.
extension TableState {
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

  mutating func beginCountdown(now: Double) -> ([Entry], [StyledRun]) {
    if rules.countdown <= 0 {
      let (events, runs) = beginPlay(now: now)
      return (events + followOffer(now: now), runs)
    }
    phase = .countdown
    countdownEnds = now + rules.countdown
    let seconds = Int(rules.countdown.rounded(.up))
    return (
      [.table(.phase(.countdown, countdown: seconds))] + followOffer(now: now),
      [.text("Starting in \(seconds)…")]
    )
  }

  private mutating func beginPlay(now: Double) -> ([Entry], [StyledRun]) {
    phase = .playing
    playStartedAt = now
    countdownEnds = nil
    startSprintClock(now: now)
    turnClockPending = game.settings.turnBased
    var events: [Entry] = [
      .table(.phase(.playing, countdown: nil)),
      .game(.redealt(board: game.board, deckCount: game.deckCount)),
    ]
    if let turn = game.turn { events.append(.game(.turn(seat: turn))) }
    // Computers plan from the deal at once (a table without a countdown is not ticked first).
    if hasBots { planBots(now: now) }
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
    if let b = runSprintClock(now: now) { broadcasts.append(b) }
    broadcasts += runTurnClock(now: now)
    broadcasts += runBots(now: now)
    broadcasts += runOffer(now: now)
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
    let sprintEnds = phase == .playing ? sprintEndsAt : nil
    return
      ([countdownEnds, turn, nextBotMove, nextOffer, sprintEnds]
      + seats.map { $0?.awayUntil?.nextUp })
      .compactMap { $0 }.min()
  }
}
