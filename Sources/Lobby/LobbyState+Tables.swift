import Protocol

/// Tables opening and closing, and connections coming to them and leaving them.
extension LobbyState {
  mutating func openTable(
    _ setup: TableSetup, isPrivate: Bool, creator: String, solo: Bool = false,
    name: String = "", player: String? = nil, now: Double
  ) -> String {
    let id = "t\(nextTableNumber)"
    nextTableNumber += 1
    let code = feed.newCode(length: configuration.inviteCodeLength, using: entropy.below)
    let table = GameCatalog.table(
      setup, id: id, code: code, isPrivate: isPrivate, solo: solo ? (name, creator, player) : nil,
      seed: entropy.seed(), rules: configuration.tableRules,
      now: now)
    slots[id] = Slot(table: table, creator: creator)
    openTables[id] = table.isTurnBased
    openedBy[creator, default: 0] += 1
    // Listed once its creator sits (settle), so the lobby never shows it empty.
    return id
  }

  private mutating func closeTable(_ id: String, now: Double) {
    guard let slot = slots.removeValue(forKey: id) else { return }
    openTables[id] = nil
    if configuration.journal { journal.append(.tableClosed(id)) }
    if !slot.recipients.isEmpty {
      out.append(.send(Frame(ServerMessage.left(replyTo: nil)), to: slot.recipients))
    }
    for connection in slot.recipients {
      if let session = desk.session(for: connection), session.tableID == id {
        desk.seat(token: session.token, tableID: nil, seat: nil)
      }
    }
    openedBy[slot.creator, default: 1] -= 1
    if openedBy[slot.creator] == 0 { openedBy[slot.creator] = nil }
    deadlines.schedule(.table(id), at: nil)
    unlist(id, now: now)
  }

  mutating func sit(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, at id: String,
    replyTo: MessageID?, now: Double
  ) {
    var slot = slots[id]!
    switch slot.table.sit(
      token: session.token, name: session.name, player: session.player, replyTo: replyTo, now: now)
    {
    case .failure(let error):
      // Callers check sitProblem first; should it refuse anyway, nothing changed.
      reply(error, to: connection)
    case .success(let (seat, b)):
      slots[id] = slot
      // Everyone already here hears of the newcomer; the newcomer gets a snapshot instead.
      broadcast(b, at: id)
      slots[id]!.add(connection, as: .player(seat: seat))
      desk.seat(token: session.token, tableID: id, seat: seat)
      feed.unwatch(connection)
      send(slot.table.snapshot(replyTo: replyTo, you: seat, now: now), to: connection)
      settle(id, now: now)
    }
  }

  /// Leaves the session's table for table `id`, then seats (or, not `asPlayer`, seats as a
  /// spectator) the session there. The caller checked that `id` takes it.
  mutating func move(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, to id: String,
    asPlayer: Bool, replyTo: MessageID?, now: Double
  ) {
    leaveTable(session, now: now)
    guard slots.contains(id) else {
      // Leaving closed it: an empty table past its grace, due to close in this very batch.
      reply(
        ProtocolError(.unknownTable, "That table has closed.", replyTo: replyTo), to: connection)
      return
    }
    if asPlayer {
      sit(session, connection, at: id, replyTo: replyTo, now: now)
    } else {
      watch(session, connection, at: id, replyTo: replyTo, now: now)
    }
  }

  private mutating func watch(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, at id: String,
    replyTo: MessageID?, now: Double
  ) {
    if let b = slots[id]!.table.setSpectators(slots[id]!.table.spectators + 1) {
      broadcast(b, at: id)
    }
    slots[id]!.add(connection, as: .spectator)
    desk.seat(token: session.token, tableID: id, seat: nil)
    feed.unwatch(connection)
    send(slots[id]!.table.snapshot(replyTo: replyTo, you: nil, now: now), to: connection)
    settle(id, now: now)
  }

  /// Takes the session away from its table: a seat is released at once.
  mutating func leaveTable(_ session: SessionRegistry.Session, now: Double) {
    guard let tableID = session.tableID else { return }
    desk.seat(token: session.token, tableID: nil, seat: nil)
    guard var slot = slots[tableID] else { return }
    var broadcasts: [TableBroadcast] = []
    if let connection = session.connection, slot.remove(connection) == .spectator,
      let b = slot.table.setSpectators(max(0, slot.table.spectators - 1))
    {
      broadcasts.append(b)
    }
    if let seat = session.seat, let b = slot.table.release(seat: seat, now: now) {
      broadcasts.append(b)
    }
    slots[tableID] = slot
    for b in broadcasts { broadcast(b, at: tableID) }
    settle(tableID, now: now)
  }

  /// The session's connection dropped while at table `tableID`: a spectator stops watching, a
  /// player's seat is held (the others see it "away").
  mutating func leaveOnDisconnect(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, _ tableID: String,
    _ now: Double
  ) {
    guard var slot = slots[tableID] else { return }
    let role = slot.remove(connection)
    var broadcasts: [TableBroadcast] = []
    switch role {
    case .spectator?:
      if let b = slot.table.setSpectators(max(0, slot.table.spectators - 1)) {
        broadcasts.append(b)
      }
      desk.seat(token: session.token, tableID: nil, seat: nil)
    case .player(let seat)?:
      if let b = slot.table.disconnect(seat: seat, now: now) { broadcasts.append(b) }
    case nil:
      break
    }
    slots[tableID] = slot
    for b in broadcasts { broadcast(b, at: tableID) }
    settle(tableID, now: now)
  }

  /// A session is back at its table on a new connection: it gets the diffs it missed after
  /// `version` or a snapshot; a held seat is reclaimed and everyone is told.
  mutating func rejoin(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, replacing old: ConnectionID?,
    at tableID: String, version: Int?, now: Double
  ) {
    var slot = slots[tableID]!
    let role: Role = session.seat.map { .player(seat: $0) } ?? .spectator
    let wasHere = old.flatMap { slot.remove($0) } != nil
    slot.add(connection, as: role)
    var broadcasts: [TableBroadcast] = []
    if role == .spectator && !wasHere,
      let b = slot.table.setSpectators(slot.table.spectators + 1)
    {
      broadcasts.append(b)
    }
    // The catch-up shows the table as it was; the return is the next diff.
    let missed = version.flatMap { slot.table.diffs(after: $0, seat: session.seat) }
    let snapshot =
      missed == nil ? slot.table.snapshot(replyTo: nil, you: session.seat, now: now) : nil
    if let seat = session.seat, !wasHere, let b = slot.table.reconnect(seat: seat) {
      broadcasts.append(b)
    }
    slots[tableID] = slot
    // The catch-up comes before the broadcasts that follow it, which the connection (already a
    // member) also receives.
    if let missed {
      for frame in missed { out.append(.send(frame, to: [connection])) }
    } else if let snapshot {
      send(snapshot, to: connection)
    }
    for b in broadcasts { broadcast(b, at: tableID) }
    settle(tableID, now: now)
  }

  /// After a table changed: carries out what is due at once (a vote that reached its majority
  /// because someone left), closes it when nobody is left to wait for, otherwise publishes its
  /// row and schedules its next deadline.
  mutating func settle(_ id: String, now: Double) {
    tick(id, now: now)
  }

  mutating func tick(_ id: String, now: Double) {
    guard var slot = slots[id] else { return }
    let (broadcasts, released) = slot.table.tick(now: now)
    // Only held seats are released here, and a held seat's connection already left `members`.
    for token in released where desk.session(token: token)?.tableID == id {
      desk.seat(token: token, tableID: nil, seat: nil)
    }
    if configuration.journal { journal += slot.table.takeJournal(creator: slot.creator) }
    slots[id] = slot
    for b in broadcasts { broadcast(b, at: id) }
    let table = slot.table
    if let since = table.emptySince {
      let solo = table.listing.seats == 1
      let closesAt = solo ? since : since + configuration.emptyTableGrace
      if closesAt <= now {
        closeTable(id, now: now)
        return
      }
      schedule(id, [table.nextDeadline, closesAt])
    } else {
      schedule(id, [table.nextDeadline])
    }
    publishRow(of: table, now: now)
  }

  private mutating func schedule(_ id: String, _ times: [Double?]) {
    deadlines.schedule(.table(id), at: times.compactMap { $0 }.min())
  }

  // MARK: - Restart

  /// Opens again, at `now`, the tables and sessions a journal kept (before any connection):
  /// every seat is held for the reconnect grace period, every session waits for its resume.
  /// Throws ``UnknownGameError``, opening nothing, when a table is of a game this server does
  /// not deal: it must neither become another game nor be dropped without a word.
  public mutating func restore(_ contents: JournalContents, now: Double) throws(UnknownGameError) {
    try GameCatalog.check(contents)
    for (record, moves) in contents.tables {
      let table = try GameCatalog.reopen(
        record, moves: moves, rules: configuration.tableRules, now: now)
      slots[record.id] = Slot(table: table, creator: record.creator)
      openTables[record.id] = table.isTurnBased
      openedBy[record.creator, default: 0] += 1
    }
    let tables = self.slots
    for session in contents.sessions {
      let expiresAt = desk.restore(session, now: now) { tables.contains($0) }
      deadlines.schedule(.session(session.token), at: expiresAt)
    }
    desk.forgetChanges()
    nextTableNumber = max(nextTableNumber, contents.lastTableNumber + 1)
    for id in slots.keys { tick(id, now: now) }
    // Nothing to send (nobody is connected) and nothing new to write.
    out = []
    journal = []
  }
}
