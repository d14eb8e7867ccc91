extension EventLoop {
  /// Sends a `choose` of the board card at index `seat` (open, closed, idle): toggling one card
  /// selects and deselects it, so the board never changes.
  func sendMove(
    _ connection: Connection, scheduled: UInt64, timeline: Timeline, forceMeasured: Bool = false
  ) {
    let board = connection.tracker.board
    guard let seat = connection.seat, !board.isEmpty else { return }
    send(
      choose: board[seat % board.count], from: connection, scheduled: scheduled, timeline: timeline,
      forceMeasured: forceMeasured)
  }

  /// Sends a `choose` of `card` as a move whose latency runs from `scheduled`.
  private func send(
    choose card: Int, from connection: Connection, scheduled: UInt64, timeline: Timeline,
    forceMeasured: Bool = false
  ) {
    let seq = connection.nextSeq
    connection.nextSeq += 1
    let inWindow = scheduled >= timeline.windowStart && scheduled < timeline.windowEnd
    connection.pending[seq] = Connection.Pending(
      sent: scheduled, measured: inWindow || forceMeasured)
    pendingCount += 1
    statistics.movesTotal += 1
    if inWindow { statistics.movesInWindow += 1 }
    sendText(#"{"type":"choose","id":\#(seq),"card":\#(card)}"#, on: connection)
  }

  /// A bot's turn: find a set on its board and choose its three cards (first letting go of any
  /// selected card that is not part of it).
  func decide(_ connection: Connection, now: UInt64, timeline: Timeline) {
    guard connection.pending.isEmpty, now < timeline.windowEnd, let seat = connection.seat else {
      return
    }
    let tracker = connection.tracker
    let sets = tracker.sets
    guard !tracker.over, !tracker.awaitingSnapshot, let set = sets.randomElement(using: &random)
    else {
      // Nothing to claim (game over and waiting for the host's re-deal, or a resync): look again
      // after another reaction time.
      setTimer(connection, now + reactionDelay())
      return
    }
    let mine = tracker.selections[seat] ?? []
    for card in mine where !set.contains(card) {
      send(choose: card, from: connection, scheduled: now, timeline: timeline)
    }
    for card in set where !mine.contains(card) {
      send(choose: card, from: connection, scheduled: now, timeline: timeline)
    }
    if connection.pending.isEmpty { setTimer(connection, now + reactionDelay()) }
  }

  /// A move of `connection` was answered, by its diff or by an error with `code`.
  func answered(
    _ connection: Connection, seq: Int, error code: String?, version: Int? = nil, now: UInt64
  ) {
    guard let pending = connection.pending.removeValue(forKey: seq) else { return }
    if pending.measured, let version, configuration.spectators > 0 {
      // The spectators who read this version first are timed now.
      for delay in deliveryMade(table: connection.table, version: version, sent: pending.sent) {
        statistics.spectatorLatency.record(max(1, delay / 1000))
      }
    }
    pendingCount -= 1
    if code == nil {
      statistics.answeredByDiff += 1
    } else {
      statistics.answeredByError += 1
    }
    if pending.measured {
      let microseconds = max(1, (now &- pending.sent) / 1000)
      statistics.latency.record(microseconds)
      if let timeline {
        recordStallLatency(
          of: connection, sent: pending.sent, microseconds: microseconds, timeline: timeline)
        recordStormLatency(sent: pending.sent, microseconds: microseconds, timeline: timeline)
      }
    }
    guard let timeline, !closing else { return }
    switch configuration.mode {
    case .closed:
      if now < timeline.windowEnd { sendMove(connection, scheduled: now, timeline: timeline) }
    case .play:
      if code == "cardNotOnTable" { connection.lostRace = true }
      if connection.pending.isEmpty {
        // A lost race means the board moved under the bot: it picks again at once.
        setTimer(connection, connection.lostRace ? now : now + reactionDelay())
        connection.lostRace = false
      }
    case .idle:
      if code == nil { statistics.livenessAnswered += 1 }
    case .open:
      break
    }
  }
}
