import Model
import Protocol

/// The table as the journal keeps it, and opened again from it after a restart.
extension TableState {
  /// The journal entries since the last call: a new ``TableRecord`` when anything besides a move
  /// changed (first), then the moves of the current deal in order, then the games that ended.
  /// Empty unless ``TableRules/journals``.
  public mutating func takeJournal(creator: String) -> [JournalEntry] {
    guard !journal.isEmpty else { return [] }
    // The record is made only when one is due (it copies the seats and names).
    return journal.take(record: journal.recordDue ? journalRecord(creator: creator) : nil)
  }

  public func closingJournal() -> [JournalEntry] {
    journal.isOn ? [.tableClosed(id)] : []
  }

  /// The table around its game as the journal keeps it.
  public func journalRecord(creator: String) -> TableRecord {
    TableRecord(
      id: id, game: Card.gameName, settings: game.settings, code: code, isPrivate: isPrivate,
      showSelections: selectionsVisible, turnSeconds: turnSeconds, phase: phase.rawValue,
      host: host,
      seats: seats.map {
        $0.map { SeatRecord(name: $0.name, token: $0.token, player: $0.player, bot: $0.bot?.name) }
      },
      names: names, everSeated: everSeated.sorted(), votes: votes, version: version, deal: deal,
      dealSeed: game.dealSeed, creator: creator, solo: seats.count == 1,
      chat: chat.isEmpty ? nil : chat, daily: daily,
      playedBy: playedBy.isEmpty
        ? nil : Dictionary(uniqueKeysWithValues: playedBy.map { (String($0.key), $0.value) }),
      offerComputer: offer.after, sprint: sprint)
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
    for (seat, player) in record.playedBy ?? [:] {
      if let seat = Int(seat) { playedBy[seat] = player }
    }
    // A person's seat is held for them; a computer player's is played on at once.
    seats = record.seats.map {
      $0.map {
        let bot = $0.bot.flatMap(BotLevel.named)
        return Seat(
          name: $0.name, token: $0.token,
          awayUntil: bot == nil ? now + rules.reconnectGrace : nil, player: $0.player, bot: bot)
      }
    }
    host = record.host
    chat = record.chat ?? []
    daily = record.daily
    sprint = record.sprint
    emptySince = peopleSeated > 0 ? nil : now
    let recorded = TablePhase(rawValue: record.phase) ?? .waiting
    switch recorded {
    case .playing, .finished:
      phase = .playing
      playStartedAt = now - (moves.last?.at ?? 0)
      startSprintClock(now: playStartedAt)
      for move in moves where move.deal == record.deal {
        _ = play(move.move, replyTo: nil, now: playStartedAt + move.at)
      }
      // A sprint that ended on time or by a forfeit ended with no move: its record says so.
      if recorded == .finished, sprint != nil, phase == .playing {
        phase = .finished
        sprintEndsAt = nil
      }
      sprintResult = nil
    case .countdown:
      // The countdown starts again.
      phase = .countdown
      countdownEnds = now + rules.countdown
    case .waiting:
      phase = .waiting
    }
    votes = record.votes.filter { seats.indices.contains($0) && seats[$0] != nil }
    // A person waiting alone waits again from now for the offer of a computer.
    offer.after = record.offerComputer
    _ = followOffer(now: now)
    // One version on (the restart is a change: every seat is away), and nobody can catch up
    // from diffs made before it: every resume gets a snapshot.
    version = max(record.version, moves.last?.version ?? 0) + 1
    ring.removeAll()
    // What the table owed was written before the restart (a game that ended then was kept
    // with its last move).
    journal.restored()
    status = [.text("The server restarted; play on.")]
    seatStatus = nil
  }
}
