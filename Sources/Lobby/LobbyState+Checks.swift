import Protocol

/// The checks a request passes before it changes anything; each answers why not itself.
extension LobbyState {
  /// The open table `reference` names, or nil after answering why not (an unknown invite code
  /// counts against the session's guesses), or after sending the session to the node that
  /// holds the table, to come as `role` (a cluster), or (a spectator) after watching it from
  /// here through a link (``RemoteWatch``).
  mutating func find(
    _ reference: TableReference, session: SessionRegistry.Session, role: Redirect.Role,
    replyTo: MessageID?, _ connection: ConnectionID, now: Double
  ) -> String? {
    switch reference {
    case .code(let code):
      guard mayGuess(session, replyTo: replyTo, connection, now: now) else { return nil }
      if let id = feed.table(withCode: code) {
        if hosts.contains(id) { return id }
        if let entry = feed.remoteEntry(id) {
          if role == .spectator,
            watchRemotely(entry, session, connection, replyTo: replyTo, now: now)
          {
            return nil
          }
          redirect(
            session, connection, to: entry, code: code, role: role, replyTo: replyTo, now: now)
          return nil
        }
      }
      missedGuess(session, connection, now: now)
    case .id(let id):
      if feed.isPublic(id) {
        if hosts.contains(id) { return id }
        if let entry = feed.remoteEntry(id) {
          if role == .spectator,
            watchRemotely(entry, session, connection, replyTo: replyTo, now: now)
          {
            return nil
          }
          redirect(session, connection, to: entry, role: role, replyTo: replyTo, now: now)
          return nil
        }
      }
    }
    reply(ProtocolError(.unknownTable, "There is no such table.", replyTo: replyTo), to: connection)
    return nil
  }

  /// Whether the session may try one more code (of a table or an arena) at `now`; says why not
  /// (too many unknown codes lately: the defence against guessing them).
  mutating func mayGuess(
    _ session: SessionRegistry.Session, replyTo: MessageID?, _ connection: ConnectionID,
    now: Double
  ) -> Bool {
    let address = addresses[connection]
    guard desk.mayGuess(token: session.token, now: now),
      address.map({ addressGuesses.mayGuess($0, now: now) }) ?? true
    else {
      reply(
        ProtocolError(
          .tooManyGuesses, "Too many unknown codes; wait a little.", replyTo: replyTo),
        to: connection)
      return false
    }
    return true
  }

  /// The session on `connection` tried a code nobody has: it counts against the session and
  /// its address, and in a cluster the other nodes hear of the address's miss.
  mutating func missedGuess(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, now: Double
  ) {
    desk.missed(token: session.token, now: now)
    guard let address = addresses[connection] else { return }
    addressGuesses.missed(address, now: now)
    if configuration.cluster { out.append(.missedGuess(address: address)) }
  }

  /// The setup of a new table, or nil after refusing settings that do not fit the game.
  mutating func checkSetup(
    _ game: String, seats: Int, _ options: TableOptions, replyTo: MessageID?,
    _ connection: ConnectionID
  ) -> TableSetup? {
    switch GameCatalog.setup(game: game, seats: seats, options: options, replyTo: replyTo) {
    case .success(let setup): return setup
    case .failure(let error):
      reply(error, to: connection)
      return nil
    }
  }

  mutating func checkGame(_ game: String, replyTo: MessageID?, _ connection: ConnectionID)
    -> Bool
  {
    guard GameCatalog.games.contains(game) else {
      let served = GameCatalog.games.sorted().map { "'\($0)'" }.joined(separator: ", ")
      reply(
        ProtocolError(.unknownGame, "This server deals \(served).", replyTo: replyTo),
        to: connection)
      return false
    }
    return true
  }

  /// Whether this server keeps finished games (it does with a journal); says so if not.
  mutating func checkRecordsKept(_ replyTo: MessageID?, _ connection: ConnectionID) -> Bool {
    guard !configuration.journal else { return true }
    reply(
      ProtocolError(
        .unavailable, "This server keeps no records of finished games.", replyTo: replyTo),
      to: connection)
    return false
  }

  /// Whether the session may open one more table (per-session and per-server caps).
  mutating func checkCanOpen(
    _ session: SessionRegistry.Session, replyTo: MessageID?, _ connection: ConnectionID
  ) -> Bool {
    // A solo table of its own closes the moment the session leaves it: count it as gone. Any
    // other table stays open (for the others, or for its empty-table grace).
    let current = session.tableID.flatMap { hosts[$0] }
    let leavingOwn =
      current.map { $0.creator == session.token && $0.table.listing.seats == 1 } == true ? 1 : 0
    if (openedBy[session.token] ?? 0) - leavingOwn >= configuration.tablesPerSession {
      reply(
        ProtocolError(
          .tooManyTables,
          "You have \(configuration.tablesPerSession) tables open; leave one first.",
          replyTo: replyTo), to: connection)
      return false
    }
    if hosts.tableCount >= configuration.maxTables {
      reply(
        ProtocolError(.serverFull, "The server has no room for another table.", replyTo: replyTo),
        to: connection)
      return false
    }
    return true
  }

  /// The table and seat of a seated session; otherwise answers why not and returns nil.
  mutating func seated(
    _ session: SessionRegistry.Session, replyTo: MessageID?, _ connection: ConnectionID
  ) -> (String, Int)? {
    guard let tableID = session.tableID, hosts.contains(tableID) else {
      refuse(.notAtTable, replyTo: replyTo, connection, counted: false)
      return nil
    }
    guard let seat = session.seat else {
      refuse(.spectator, replyTo: replyTo, connection, counted: false)
      return nil
    }
    return (tableID, seat)
  }
}
