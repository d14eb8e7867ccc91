import Model
import Protocol

/// The people at a table: who sits where, who dropped and came back, who watches.
extension TableState {
  /// The sessions seated (their tokens), held seats included, in seat order; computer players
  /// have none.
  public var seatTokens: [String] { seats.compactMap { $0?.bot == nil ? $0?.token : nil } }

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

  /// Seats a player in the lowest free seat (a person takes the place of a computer standing
  /// in: ``standInLeaves()``); a full table starts its countdown.
  public mutating func sit(
    token: String, name: String, player: String? = nil, replyTo: MessageID?, now: Double
  ) -> Result<(seat: Int, broadcast: Broadcast), ProtocolError> {
    sit(token: token, name: name, player: player, bot: nil, replyTo: replyTo, now: now)
  }

  /// Seats a person, or (`bot`) a computer player of that level.
  mutating func sit(
    token: String, name: String, player: String?, bot: BotLevel?, replyTo: MessageID?,
    now: Double
  ) -> Result<(seat: Int, broadcast: Broadcast), ProtocolError> {
    if let problem = sitProblem(replyTo: replyTo) { return .failure(problem) }
    let standIn = bot == nil ? standInLeaves() : []
    guard let seat = seats.firstIndex(where: { $0 == nil }) else { fatalError("checked above") }
    seats[seat] = Seat(name: name, token: token, awayUntil: nil, player: player, bot: bot)
    names[seat] = name
    everSeated.insert(seat)
    playedBy[seat] = player
    if bot == nil { emptySince = nil }
    var events: [Entry] = standIn + [.table(.joined(seat: seat, name: name, bot: bot))]
    var runs: [StyledRun] = [.name(name, seat: seat), .text(" joined.")]
    if host == nil {
      host = seat
      events.append(.table(.host(seat: seat)))
    }
    if seatedCount == seats.count {
      let (more, line) = beginCountdown(now: now)
      events += more
      runs = [.name(name, seat: seat), .text(" joined. ")] + line
    }
    events += followOffer(now: now)
    return .success((seat, broadcast(seat: seat, replyTo: replyTo, events: events, status: runs)))
  }

  /// The player in `seat` left (or did not come back in time): the seat is empty again.
  public mutating func release(seat: Int, now: Double) -> Broadcast? {
    guard seats.indices.contains(seat), let leaving = seats[seat] else { return nil }
    let needed = votesNeeded
    seats[seat] = nil
    var events: [Entry] = [.table(.left(seat: seat))]
    // Leaving an arena's sprint before its end loses it.
    events += forfeitSprint(seat: seat, now: now)
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
    if peopleSeated == 0 {
      emptySince = now
      if phase == .countdown {
        phase = .waiting
        countdownEnds = nil
        events.append(.table(.phase(.waiting, countdown: nil)))
      }
    }
    events += followOffer(now: now)
    return broadcast(
      seat: nil, replyTo: nil, events: events,
      status: [.name(leaving.name, seat: seat), .text(" left.")])
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
      status: [.name(player.name, seat: seat), .text(" is reconnecting…")])
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
      status: [.name(player.name, seat: seat), .text(" is back.")])
  }

  /// A `vote` event when a vote is open and the number of votes it needs has changed (the
  /// number of connected players did), so that clients keep `needed` right.
  private func voteUpdate(neededBefore: Int) -> [Entry] {
    guard !votes.isEmpty, votesNeeded != neededBefore else { return [] }
    return [.table(.vote(seats: votes, needed: votesNeeded))]
  }

  /// The number of spectators changed: the snapshot and the lobby's row show it. It is no
  /// change of the game (no version, no diff): the host tells the members (``CrowdCount``).
  public mutating func setSpectators(_ count: Int) {
    spectators = count
  }
}
