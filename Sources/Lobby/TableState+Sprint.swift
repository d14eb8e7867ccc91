import Model
import Protocol

/// An arena's sprint (``ArenaSprint``) at the table: it ends when a seat makes its matches
/// (``play(_:replyTo:now:)`` adds the game's end), when its time is up (``runSprintClock(now:)``)
/// or when a seat leaves it (``forfeitSprint(seat:now:)``); its result waits for the lobby
/// (``takeSprintResult()``), which scores it in the arena.
extension TableState {
  /// Makes the table's game a sprint of an arena (before anyone sits).
  public mutating func setSprint(_ sprint: ArenaSprint) {
    self.sprint = sprint
    journal.tableChanged()
  }

  /// Play began at `now`: the sprint's clock starts.
  mutating func startSprintClock(now: Double) {
    if let sprint { sprintEndsAt = now + sprint.seconds }
  }

  /// The game ended with `ranked` (the table's standings): the sprint's result is each seat's
  /// rank, seats that forfeited last, the others ranked again among themselves.
  mutating func noteSprintEnd(_ ranked: [Standing]) {
    guard sprint != nil else { return }
    sprintEndsAt = nil
    var ranks: [Int: Int] = [:]
    let playing = ranked.filter { !sprintForfeits.contains($0.seat) }
    for row in playing {
      ranks[row.seat] = 1 + playing.count { $0.rank < row.rank }
    }
    for seat in sprintForfeits { ranks[seat] = ranked.count + 1 }
    sprintResult = ranks
  }

  /// The result of a sprint that ended (each seat's rank, 1 the best), once.
  public mutating func takeSprintResult() -> [Int: Int]? {
    defer { sprintResult = nil }
    return sprintResult
  }

  /// The sprint's time is up at `now`: the game ends as it stands.
  mutating func runSprintClock(now: Double) -> Broadcast? {
    guard phase == .playing, let ends = sprintEndsAt, now >= ends else { return nil }
    return endSprint(now: now, why: "Time is up. ")
  }

  /// `seat` left the sprint before its end: the game ends, and the seat has lost it.
  mutating func forfeitSprint(seat: Int, now: Double) -> [Entry] {
    guard sprint != nil, phase == .playing, !game.isOver else { return [] }
    sprintForfeits.insert(seat)
    return sprintEnd(now: now).entries
  }

  /// Ends the sprint's game at `now`: its standings, its phase, its look back.
  private mutating func endSprint(now: Double, why: String) -> Broadcast {
    let (entries, ranked) = sprintEnd(now: now)
    return broadcast(
      seat: nil, replyTo: nil, events: entries,
      status: [.text(why)] + StatusLine.gameOver(ranked, names: names))
  }

  /// The game ends at `now`: the entries that say so, and its ranked standings.
  private mutating func sprintEnd(now: Double) -> (entries: [Entry], ranked: [Standing]) {
    let ranked = finish(game.standings, now: now)
    var entries: [Entry] = [.game(.ended(ranked)), .table(.phase(.finished, countdown: nil))]
    if let lookBack = lookBackAtEnd() { entries.append(.table(.lookBack(lookBack))) }
    return (entries, ranked)
  }

  /// The sprint as a snapshot shows it: its arena, its target and the seconds left.
  func sprintView(now: Double) -> JSONValue? {
    guard let sprint else { return nil }
    var members: [(String, JSONValue)] = [
      ("id", .string(sprint.arena)), ("name", .string(sprint.name)), ("sets", .int(sprint.sets)),
    ]
    if let ends = sprintEndsAt { members.append(("endsIn", .double(max(0, ends - now)))) }
    return .object(members)
  }
}
