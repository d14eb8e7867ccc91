import Protocol

/// The events that need more than a line of ``TableHost/handle(_:now:)``.
extension TableHost {
  mutating func sit(
    _ token: String, _ name: String, _ player: String?, _ ratings: [String: PlayerRating],
    _ connection: ConnectionID, _ replyTo: MessageID?, _ now: Double, _ outcome: inout Outcome
  ) {
    // The newcomer's rating is known to the table before its snapshot is made (the members hear
    // only of changes at the seats taken: the newcomer does not sit yet).
    if !ratings.isEmpty, let frame = table.rate(ratings) {
      toEveryone(frame, into: &outcome.actions)
    }
    switch table.sit(token: token, name: name, player: player, replyTo: replyTo, now: now) {
    case .failure(let error):
      outcome.refusal = answer(.failure(error), connection, into: &outcome.actions)
    case .success(let (seat, b)):
      // Everyone already here hears of the newcomer; the newcomer gets a snapshot instead.
      deliver(b, into: &outcome.actions)
      add(connection, as: .player(seat: seat), token: token)
      outcome.seat = seat
      outcome.placed.append(.seated(token, seat: seat))
      send(table.snapshot(replyTo: replyTo, you: seat, now: now), to: connection, &outcome)
      // Then every member hears the seats' ratings, the newcomer's now among them.
      if !ratings.isEmpty, let frame = table.rate([:]) {
        toEveryone(frame, into: &outcome.actions)
      }
    }
  }

  mutating func rejoin(
    _ token: String, _ connection: ConnectionID, replacing old: ConnectionID?, seat: Int?,
    version: Int?, _ now: Double, _ outcome: inout Outcome
  ) {
    let role: LobbyState.Role = seat.map { .player(seat: $0) } ?? .spectator
    let wasHere = old.flatMap { remove($0) } != nil
    add(connection, as: role, token: token)
    var broadcasts: [TableBroadcast] = []
    // The catch-up shows the table as it was; the return is the next diff.
    let missed = version.flatMap { table.diffs(after: $0, seat: seat) }
    let snapshot: Frame? =
      switch (missed, seat) {
      case (nil, nil): crowdSnapshot(replyTo: nil, now: now)
      case (nil, let seat?): Frame(table.snapshot(replyTo: nil, you: seat, now: now))
      default: nil
      }
    if let seat, !wasHere, let b = table.reconnect(seat: seat) { broadcasts.append(b) }
    // The catch-up comes before the broadcasts that follow it, which the connection (already a
    // member) also receives.
    if let missed {
      for frame in missed { outcome.actions.append(.send(frame, to: [connection])) }
      // The crowd is not in the diffs: its count as it is now, where there has been one.
      if table.spectators > 0 || crowd.wasTold {
        send(
          ServerMessage.spectators(tableID: table.id, count: table.spectators), to: connection,
          &outcome)
      }
    } else if let snapshot {
      outcome.actions.append(.send(snapshot, to: [connection]))
    }
    for b in broadcasts { deliver(b, into: &outcome.actions) }
  }

  /// Runs what is due at `now`, then says when the table next needs the clock, or that it
  /// closes (nobody sits and the empty table's grace is over).
  mutating func clock(_ now: Double, _ outcome: inout Outcome) {
    let (broadcasts, released) = table.tick(now: now)
    // A held seat given back: its session (whose connection left already) is at no table.
    outcome.placed += released.map(Placement.gone)
    for b in broadcasts { deliver(b, into: &outcome.actions) }
    if crowd.tell(now: now) {
      toEveryone(
        Frame(ServerMessage.spectators(tableID: table.id, count: table.spectators)),
        into: &outcome.actions)
    }
    guard let since = table.emptySince else {
      outcome.deadline = [table.nextDeadline, crowd.due].compactMap { $0 }.min()
      return
    }
    let closesAt = since + emptyGrace
    if closesAt <= now {
      outcome.closes = true
    } else {
      outcome.deadline = [table.nextDeadline, crowd.due, closesAt].compactMap { $0 }.min()
    }
  }

  /// A change the table accepted goes to every member; a refusal, returned, to the connection
  /// that asked.
  func answer(
    _ result: Result<TableBroadcast, ProtocolError>, _ connection: ConnectionID,
    into actions: inout [LobbyAction]
  ) -> ProtocolError? {
    switch result {
    case .success(let b):
      deliver(b, into: &actions)
      return nil
    case .failure(let error):
      actions.append(.send(Frame(ServerMessage.error(error)), to: [connection]))
      return error
    }
  }

  func send(_ message: JSONValue, to connection: ConnectionID, _ outcome: inout Outcome) {
    outcome.actions.append(.send(Frame(message), to: [connection]))
  }

  /// A line of chat: kept by the table (its journal entry first: nobody sees a line that a
  /// crash could lose), then one frame for every other member and the sender's own copy, which
  /// answers its message.
  mutating func chat(
    _ text: String, name: String, seat: Int?, connection: ConnectionID, replyTo: MessageID?,
    _ now: Double, _ outcome: inout Outcome
  ) {
    let line = table.say(text, name: name, seat: seat, now: now)
    outcome.journal += table.takeJournal(creator: creator)
    let frame = Frame(ServerMessage.chat(line, in: .table, replyTo: nil))
    let seated = players.ids.filter { $0 != connection }
    if !seated.isEmpty { outcome.actions.append(.send(frame, to: seated)) }
    let crowd =
      watchers.contains(connection) ? watchers.ids.filter { $0 != connection } : watchers.ids
    if !crowd.isEmpty { outcome.actions.append(.sendToCrowd(frame, to: crowd)) }
    send(ServerMessage.chat(line, in: .table, replyTo: replyTo), to: connection, &outcome)
  }
}
