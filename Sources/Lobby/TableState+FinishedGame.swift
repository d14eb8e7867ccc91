import Model
import Protocol

/// The end of a game: the standings the table shows, and the finished game it keeps.
extension TableState {
  /// The game ended with `standings` (as the game ranks every seat): ranks the seats taken
  /// this game, finishes the table and, when it journals, queues the finished game. Returns
  /// the table's standings.
  mutating func finish(_ standings: [Standing], now: Double) -> [Standing] {
    let ended = Standing.ranked(
      standings.filter { everSeated.contains($0.seat) }, byMatches: game.settings.ranksByMatches)
    phase = .finished
    noteSprintEnd(ended)
    guard journal.isOn else { return ended }
    let kept = finishedGame(ended, moves: record.record?.moves ?? [], now: now)
    // The lobby reads their new ratings once the game is written (``takeRatedPlayers()``).
    let rated = kept.ratedPlayers.map(\.player)
    ratedAtEnd = rated.isEmpty ? nil : rated
    if record.record != nil {
      journal.gameEnded(.finished(kept))
    } else {
      // Longer than the log keeps: rather than hold every move of a game that may never end
      // (a player toggling a card), the table lets the journal, which holds every move of the
      // deal already (until the next deal or the table's close), give the record its moves in
      // the transaction that keeps it. Memory stays bounded by the cap; the record loses
      // nothing.
      journal.gameEnded(.finishedInJournal(kept, table: id, deal: deal))
    }
    return ended
  }

  /// The game just ended with `standings`, as it is kept: its players with their names,
  /// scores and mistakes, its moves (`moves`) with the times they were made.
  func finishedGame(_ standings: [Standing], moves: [Move], now: Double) -> FinishedGame {
    let players = standings.map { row in
      FinishedPlayer(
        seat: row.seat, name: names[row.seat], score: row.score, matches: row.matches,
        mistakes: historyLog.mistakes(of: row.seat), rank: row.rank,
        player: seats[row.seat]?.player ?? playedBy[row.seat], bot: seats[row.seat]?.bot?.name)
    }
    return FinishedGame(
      game: Card.gameName, settings: game.settings, seed: game.dealSeed,
      showSelections: selectionsVisible, players: players,
      moves: zip(moves, journal.times.seconds).map { FinishedMove($0, at: $1) },
      seconds: max(0, now - playStartedAt), source: dailySource ?? "\(id)#\(deal)",
      chat: chat.filter { $0.deal == deal }, rated: rated ? true : nil)
  }

  /// Plays a finished game's `move` again at `at` seconds into it: the diff it made, as a
  /// spectator saw it (``FinishedGameReplay``).
  mutating func replay(_ move: Move, at: Double) -> Frame? {
    guard case .success(let (_, b)) = play(move, replyTo: nil, now: playStartedAt + at) else {
      return nil
    }
    return b.frame
  }

  /// The accepted `move`'s `events` go into the look back at the game (a re-deal starts a new
  /// one), while the game's record keeps every move and its time.
  mutating func followLookBack(_ move: Move, _ events: [GameEvent<Card>]) {
    guard journal.isOn else { return }
    if case .redeal = move {
      lookBack = LookBackTracker(game: game)
    } else if !record.isTruncated {
      lookBack?.note(events, in: game, at: journal.times.lastSeconds)
    }
  }

  /// The look back at the game that just ended (``GameLookBack``), encoded for its `lookBack`
  /// event; nil when the table does not journal (it keeps no move times) or the game was longer
  /// than its log keeps. The one the table kept as the game went, unless it did not see every
  /// move (a table opened again from the journal): then the moves are played again.
  func lookBackAtEnd() -> EncodedJSON? {
    guard let log = record.record, journal.times.count == log.moves.count else {
      return nil
    }
    let seen: GameLookBack?
    if let lookBack, lookBack.moves == log.moves.count {
      seen = lookBack.lookBack
    } else {
      seen = GameLookBack.of(
        Card.self, settings: game.settings, seed: game.dealSeed, moves: log.moves,
        times: journal.times.seconds)
    }
    return seen.map { ServerMessage.lookBack($0, seats: game.settings.seats) }
  }

  /// The source a daily puzzle's game is kept under: `daily:<day>:<game>:<who>`, who being the
  /// player (their player token's hash, else their session's). A store keeps one game per
  /// source, so a player's first game of the day to end is their result, on any node.
  var dailySource: String? {
    guard let daily, let seat = seats.first ?? nil else { return nil }
    return FinishedGame.dailySource(day: daily, game: Card.gameName, who: seat.player ?? seat.token)
  }
}
