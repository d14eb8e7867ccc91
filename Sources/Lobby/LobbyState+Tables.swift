import Model
import Protocol

/// Tables opening and closing, and connections coming to them and leaving them.
extension LobbyState {
  mutating func openTable(
    _ setup: TableSetup, isPrivate: Bool, creator: String, solo: Bool = false,
    name: String = "", player: String? = nil, seed: UInt64? = nil, daily: String? = nil,
    bots: [BotLevel] = [], now: Double
  ) -> String {
    let id = "t\(nextTableNumber)"
    nextTableNumber += 1
    let code = feed.newCode(length: configuration.inviteCodeLength, using: entropy.below)
    var table = GameCatalog.table(
      setup, id: id, code: code, isPrivate: isPrivate, solo: solo ? (name, creator, player) : nil,
      seed: seed ?? entropy.seed(), rules: configuration.tableRules,
      now: now, daily: daily)
    // Computer players sit before the table is hosted, so that it is hosted as one that plays
    // on the clock (``host(_:)``); nobody is there yet to hear them sit.
    for level in bots { _ = table.sitBot(level: level, replyTo: nil, now: now) }
    host(TableHost(table: table, creator: creator, emptyTableGrace: configuration.emptyTableGrace))
    // Listed once its creator sits (settle), so the lobby never shows it empty.
    return id
  }

  /// Puts `host` in the router's map: its table is open from now on.
  mutating func host(_ host: TableHost) {
    let id = host.table.id
    hosts.insert(host)
    reindex(id)
    openedBy[host.creator, default: 0] += 1
  }

  /// Keeps table `id`'s entry of the open tables: whether its moves are decided with the whole
  /// state (turns, computers whose plans a move changes, or an arena's sprint, whose end the
  /// arena scores). Written here and at retirement.
  mutating func reindex(_ id: String) {
    guard
      let decidedWhole = hosts.readTable(
        id, { $0.isTurnBased || $0.hasBots || $0.sprint != nil })
    else { return }
    openTables[id] = decidedWhole
  }

  /// Takes table `id` off every book the router keeps (its map, the open tables, its
  /// creator's count, its deadline, its sessions, the lobby list) as it leaves this node `how`
  /// (``TableHost/retire(_:)``): closing and giving up are this one path.
  mutating func retire(_ id: String, _ how: TableHost.Retirement, now: Double) {
    guard let host = hosts.removeValue(forKey: id) else { return }
    let outcome = host.retire(how)
    openTables[id] = nil
    openedBy[host.creator, default: 1] -= 1
    if openedBy[host.creator] == 0 { openedBy[host.creator] = nil }
    deadlines.schedule(.table(id), at: nil)
    switch how {
    case .closed:
      take(outcome, at: id)
      unlist(id, now: now)
    case .givenUp:
      for connection in host.recipients { feed.unwatch(connection) }
      take(outcome, at: id)
      if let at = feed.forget(id, now: now) { deadlines.schedule(.lobbyFlush, at: at) }
      tablesGivenUp += 1
    }
  }

  /// Hands `event` to table `id`'s host and takes its outcome (``take(_:at:)``); nil when the
  /// table is not open.
  @discardableResult
  mutating func handle(_ event: TableHost.Event, at id: String, now: Double)
    -> TableHost.Outcome?
  {
    guard
      let outcome = hosts.withHost(id, { host in host.handle(event, now: now) })
    else { return nil }
    take(outcome, at: id)
    return outcome
  }

  /// Takes an outcome of table `id`: its frames and journal entries (``take(_:)``), and where
  /// its sessions went (``place(_:at:)``).
  private mutating func take(_ outcome: TableHost.Outcome, at id: String) {
    take(outcome)
    place(outcome.placed, at: id)
  }

  /// The desk learns where table `id`'s host took its sessions: the one place where a
  /// session's table and seat are written, and only from what a host reported. A session said
  /// to be gone from the table is taken off it only if the desk has it there.
  mutating func place(_ placements: [TableHost.Placement], at id: String) {
    for placement in placements {
      switch placement {
      case .seated(let token, let seat):
        desk.seat(token: token, tableID: id, seat: seat)
      case .watching(let token):
        desk.seat(token: token, tableID: id, seat: nil)
      case .gone(let token):
        guard desk.session(token: token)?.tableID == id else { continue }
        desk.seat(token: token, tableID: nil, seat: nil)
      case .handedOn(let token):
        guard desk.session(token: token)?.tableID == id else { continue }
        desk.release(token: token)
        deadlines.schedule(.session(token), at: nil)
      }
    }
  }

  mutating func sit(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, at id: String,
    replyTo: MessageID?, now: Double
  ) {
    // Their rating goes in with them: the snapshot shows it, the members hear it, and settle
    // publishes the row with it.
    let ratings = session.player.map { ratingsAtSit(id, newcomer: $0) } ?? [:]
    let event = TableHost.Event.sit(
      token: session.token, name: session.name, player: session.player, ratings: ratings,
      connection: connection, replyTo: replyTo)
    // Callers check sitProblem first; should it refuse anyway, nothing changed.
    guard handle(event, at: id, now: now)?.seat != nil else { return }
    feed.unwatch(connection)
    settle(id, now: now)
  }

  /// Leaves the session's table for table `id`, then seats (or, not `asPlayer`, seats as a
  /// spectator) the session there. The caller checked that `id` takes it.
  mutating func move(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, to id: String,
    asPlayer: Bool, replyTo: MessageID?, now: Double
  ) {
    leaveTable(session, now: now)
    guard hosts.contains(id) else {
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
    handle(.watch(token: session.token, connection: connection, replyTo: replyTo), at: id, now: now)
    feed.unwatch(connection)
    settle(id, now: now)
  }

  /// The creator of the solo table `id` comes to it (seated at seat 0 when it was dealt).
  mutating func enterSolo(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, at id: String,
    replyTo: MessageID?, now: Double
  ) {
    let event = TableHost.Event.enterSolo(
      token: session.token, connection: connection, replyTo: replyTo)
    handle(event, at: id, now: now)
    feed.unwatch(connection)
    settle(id, now: now)
  }

  /// Takes the session away from its table: a seat is released at once.
  mutating func leaveTable(_ session: SessionRegistry.Session, now: Double) {
    // Or from a table of another node it watched from here.
    if let connection = session.connection { out += remote.unwatch(connection) }
    guard let tableID = session.tableID else { return }
    let event = TableHost.Event.leave(
      token: session.token, connection: session.connection, seat: session.seat)
    guard handle(event, at: tableID, now: now) != nil else { return }
    settle(tableID, now: now)
  }

  /// The session's connection dropped while at table `tableID`: a spectator stops watching, a
  /// player's seat is held (the others see it "away").
  mutating func leaveOnDisconnect(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, _ tableID: String,
    _ now: Double
  ) {
    guard handle(.drop(connection: connection), at: tableID, now: now) != nil else { return }
    settle(tableID, now: now)
  }

  /// A session is back at its table on a new connection: it gets the diffs it missed after
  /// `version` or a snapshot; a held seat is reclaimed and everyone is told.
  mutating func rejoin(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, replacing old: ConnectionID?,
    at tableID: String, version: Int?, now: Double
  ) {
    let event = TableHost.Event.rejoin(
      token: session.token, connection: connection, replacing: old, seat: session.seat,
      version: version)
    handle(event, at: tableID, now: now)
    settle(tableID, now: now)
  }

  /// After a table changed: its clock runs (a vote that reached its majority because someone
  /// left carries at once); it closes when nobody is left to wait for, otherwise its row is
  /// published and its next deadline scheduled.
  mutating func settle(_ id: String, now: Double) {
    guard let outcome = handle(.clock, at: id, now: now) else { return }
    runArenaTable(id, now: now)
    if outcome.closes {
      retire(id, .closed, now: now)
      return
    }
    deadlines.schedule(.table(id), at: outcome.deadline)
    publishRow(of: id, now: now)
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
      host(
        TableHost(
          table: table, creator: record.creator,
          emptyTableGrace: configuration.emptyTableGrace))
    }
    let tables = self.hosts
    for session in contents.sessions {
      let expiresAt = desk.restore(session, now: now) { tables.contains($0) }
      deadlines.schedule(.session(session.token), at: expiresAt)
    }
    desk.forgetChanges()
    nextTableNumber = max(nextTableNumber, contents.lastTableNumber + 1)
    restoreArenas(contents.arenas, now: now)
    for id in hosts.keys { settle(id, now: now) }
    // Nothing to send (nobody is connected) and nothing new to write.
    out = []
    journal = []
  }
}
