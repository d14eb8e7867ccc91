import Model
import Protocol

/// What a member sees on arriving or asking again: the whole table as a `snapshot`.
extension TableState {
  /// The snapshot a member sitting at `you` (nil for a spectator) sees at `now`.
  public func snapshot(replyTo: MessageID?, you: Int?, now: Double = 0) -> JSONValue {
    let occupied = seats.enumerated().compactMap { seat, player -> SeatView? in
      guard let player else { return nil }
      var view = SeatView(
        seat: seat, name: player.name, connected: player.awayUntil == nil,
        away: player.awayUntil.map { max(0, Int(($0 - now).rounded(.up))) },
        rating: shownRating(at: seat))
      view.bot = player.bot?.name
      return view
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
    meta.daily = daily
    meta.computerOffer = offer.isOpen
    var line = status
    if let you, let seatStatus, seatStatus.indices.contains(you) { line = seatStatus[you] }
    let message = ServerMessage.snapshot(
      replyTo: replyTo, tableID: id, version: version, you: you, game: game, names: names,
      status: line, meta: meta, history: history)
    // The table's lines of chat, when it has any, and the arena's sprint it plays.
    let sprintView = sprintView(now: now)
    guard !chat.isEmpty || sprintView != nil, case .object(var members) = message else {
      return message
    }
    if !chat.isEmpty { members.append(("chat", ServerMessage.chatLines(chat, timed: false))) }
    if let sprintView, let index = members.firstIndex(where: { $0.0 == "table" }),
      case .object(let table) = members[index].1
    {
      members[index].1 = .object(table + [("arena", sprintView)])
    }
    return .object(members)
  }
}
