import Model
import Protocol

/// What each client message does: the router's switch over ``ClientMessage``.
extension LobbyState {
  mutating func handle(_ envelope: ClientEnvelope, from connection: ConnectionID, now: Double) {
    let replyTo = envelope.id
    if case .hello(let name, let resume, let version, let player, let games) = envelope.message {
      hello(
        name: name, resume: resume, version: version, player: player, games: games,
        replyTo: replyTo, from: connection, now)
      return
    }
    guard let session = desk.session(for: connection) else {
      if case .choose = envelope.message {
        ownStatistics.movesRejected[.helloRequired, default: 0] += 1
      }
      reply(ProtocolError(.helloRequired, "Say hello first.", replyTo: replyTo), to: connection)
      return
    }
    switch envelope.message {
    case .hello:
      break
    case .choose(let card):
      receiveMove(card, replyTo: replyTo, from: connection, session: session, now: now)
    case .scores(var query):
      guard checkGame(query.game, replyTo: replyTo, connection),
        checkRecordsKept(replyTo, connection)
      else { return }
      query.player = session.player
      out.append(
        .query(RecordRequest(connection: connection, replyTo: replyTo, kind: .scores(query))))
    case .record(let id):
      guard checkRecordsKept(replyTo, connection) else { return }
      out.append(
        .query(RecordRequest(connection: connection, replyTo: replyTo, kind: .record(id: id))))
    case .lobby:
      // Changes not yet published go out first, so the snapshot and the diffs that follow it
      // agree on the version.
      flushLobby(now: now)
      feed.watch(connection)
      send(feed.snapshot(replyTo: replyTo), to: connection)
    case .playSolo(let game, let options):
      playSolo(game, options, session, replyTo: replyTo, connection, now: now)
    case .playBot(let game, let level, let bots, let options):
      playBot(game, level, bots, options, session, replyTo: replyTo, connection, now: now)
    case .quickMatch(let game, let seats, let options):
      quickMatch(game, seats: seats, options, session, replyTo: replyTo, connection, now: now)
    case .createTable(let game, let seats, let isPrivate, let options):
      guard checkGame(game, replyTo: replyTo, connection),
        let setup = checkSetup(game, seats: seats, options, replyTo: replyTo, connection),
        checkCanOpen(session, replyTo: replyTo, connection)
      else { return }
      leaveTable(session, now: now)
      let id = openTable(setup, isPrivate: isPrivate, creator: session.token, now: now)
      sit(session, connection, at: id, replyTo: replyTo, now: now)
    case .join(let reference):
      join(reference, session, replyTo: replyTo, connection, now: now)
    case .spectate(let reference):
      spectate(reference, session, replyTo: replyTo, connection, now: now)
    case .watching(let count, let key):
      weigh(count, key: key, session, replyTo: replyTo, connection, now: now)
    case .watcherChat(let name, let text, let key):
      relayChat(text, name: name, key: key, session, replyTo: replyTo, connection, now: now)
    case .leave:
      leaveTable(session, now: now)
      send(ServerMessage.left(replyTo: replyTo), to: connection)
    case .start:
      guard let (tableID, seat) = seated(session, replyTo: replyTo, connection) else { return }
      let event = TableHost.Event.start(seat: seat, connection: connection, replyTo: replyTo)
      if handle(event, at: tableID, now: now)?.refusal == nil { settle(tableID, now: now) }
    case .addComputer(let levelName):
      guard let (tableID, seat) = seated(session, replyTo: replyTo, connection) else { return }
      guard let level = BotLevel.named(levelName) else {
        return reply(BotLevel.levelProblem(replyTo: replyTo), to: connection)
      }
      let event = TableHost.Event.addComputer(
        seat: seat, level: level, connection: connection, replyTo: replyTo)
      if handle(event, at: tableID, now: now)?.refusal == nil {
        // Its moves now replan the computer: they are decided with the whole state.
        reindex(tableID)
        settle(tableID, now: now)
      }
    case .redeal:
      guard let (tableID, seat) = seated(session, replyTo: replyTo, connection) else { return }
      guard !journalDown else { return refuse(.journalDown, replyTo: replyTo, connection) }
      let event = TableHost.Event.redeal(seat: seat, connection: connection, replyTo: replyTo)
      if handle(event, at: tableID, now: now)?.refusal == nil { settle(tableID, now: now) }
    case .playDaily(let game):
      playDaily(game, session, replyTo: replyTo, connection, now: now)
    case .daily(let game, let yesterday):
      guard checkGame(game, replyTo: replyTo, connection),
        checkRecordsKept(replyTo, connection)
      else { return }
      let today = entropy.today()
      let day = yesterday ? DailyDeal.dayBefore(today) ?? today : today
      out.append(
        .query(
          RecordRequest(
            connection: connection, replyTo: replyTo,
            kind: .daily(
              game: game, day: day, who: session.player ?? session.token,
              started: !yesterday
                && dailyStarted.contains(
                  FinishedGame.dailySource(
                    day: day, game: game, who: session.player ?? session.token)
                )))))
    case .chat(let text):
      chat(text, session, replyTo: replyTo, connection, now: now)
    case .ratings(let game):
      ratings(game, session, replyTo: replyTo, connection)
    case .arenas, .watchArena, .watchFeatured:
      arenaRequest(envelope.message, session, replyTo: replyTo, connection, now: now)
    case .createArena, .joinArena, .leaveArena:
      guard arenaAllowances.take(session.token, now: now) else {
        return reply(
          ProtocolError(
            .tooFast, "Too many arena requests; wait a moment.", replyTo: replyTo),
          to: connection)
      }
      arenaRequest(envelope.message, session, replyTo: replyTo, connection, now: now)
    case .hint, .countMatches:
      guard let (tableID, seat) = seated(session, replyTo: replyTo, connection),
        let answer = hosts.readTable(
          tableID,
          {
            envelope.message == .hint
              ? $0.hint(for: seat, replyTo: replyTo) : $0.matchCount(for: seat, replyTo: replyTo)
          })
      else { return }
      switch answer {
      case .success(let answer): send(answer, to: connection)
      case .failure(let refusal): reply(refusal, to: connection)
      }
    case .resync:
      if let actions = remote.resync(connection, replyTo: replyTo) {
        // A table of another node, watched from here: the link asks for it afresh.
        out += actions
        return
      }
      guard let tableID = session.tableID,
        let snapshot = hosts.readTable(
          tableID, { $0.snapshot(replyTo: replyTo, you: session.seat, now: now) })
      else {
        reply(
          ProtocolError(.notAtTable, "You are not at a table.", replyTo: replyTo), to: connection)
        return
      }
      send(snapshot, to: connection)
    }
  }

  /// A `hello`: resumes or opens a session. In a cluster a session this node does not know is
  /// looked up first (`lookUp`), and the `hello` waits for the answer (``PendingHello``).
  mutating func hello(
    name: String?, resume: String?, version: Int?, player: String?, games: GamesWanted,
    replyTo: MessageID?, from connection: ConnectionID, _ now: Double, lookUp: Bool? = nil
  ) {
    let greeting =
      pendingHellos[connection] != nil
      ? .alreadyHello
      : desk.hello(
        name: name, resume: resume, player: player, connection: connection, entropy: entropy,
        lookUp: lookUp ?? configuration.cluster)
    switch greeting {
    case .lookUp(let token):
      pendingHellos[connection] = PendingHello(
        name: name, resume: resume ?? "", version: version, player: player, games: games,
        replyTo: replyTo)
      out.append(.findSession(token: token, for: connection))
    case .alreadyHello:
      reply(
        ProtocolError(.alreadyHello, "This connection said hello already.", replyTo: replyTo),
        to: connection)
    case .resumed(let session, let token, let replaced):
      deadlines.schedule(.session(session.token), at: nil)
      if let replaced {
        feed.unwatch(replaced)
        // Watching another node's table from here: the new connection watches it instead.
        out += remote.handOver(from: replaced, to: connection)
        out.append(
          .close(replaced, code: CloseCode.sessionTakenOver, reason: "session resumed elsewhere"))
      }
      send(
        welcome(
          replyTo: replyTo, session: token, name: session.name, resumed: true, games: games),
        to: connection)
      if let tableID = session.tableID, hosts.contains(tableID) {
        rejoin(session, connection, replacing: replaced, at: tableID, version: version, now: now)
      }
      askRatings(of: desk.session(for: connection) ?? session, for: connection)
    case .opened(let session, let token):
      send(
        welcome(
          replyTo: replyTo, session: token, name: session.name, resumed: false, games: games),
        to: connection)
      askRatings(of: session, for: connection)
    }
  }

  /// The `welcome` of a session, with the games' descriptions when its `hello` asked for them.
  func welcome(
    replyTo: MessageID?, session token: String, name: String, resumed: Bool, games: GamesWanted
  ) -> JSONValue {
    let registry = GameCatalog.registry
    return ServerMessage.welcome(
      replyTo: replyTo, session: token, name: name, resumed: resumed,
      maxMessageBytes: configuration.maxMessageBytes, node: configuration.nodeID,
      gamesVersion: registry.descriptionsVersion,
      games: games.wants(registry.descriptionsVersion) ? registry.descriptionsJSON : nil)
  }

  private mutating func playSolo(
    _ game: String, _ options: TableOptions, _ session: SessionRegistry.Session,
    replyTo: MessageID?, _ connection: ConnectionID, now: Double
  ) {
    guard checkGame(game, replyTo: replyTo, connection),
      let setup = checkSetup(game, seats: 1, options, replyTo: replyTo, connection),
      checkCanOpen(session, replyTo: replyTo, connection)
    else { return }
    leaveTable(session, now: now)
    // A solo table is dealt and playing from the start: nobody to wait for.
    let id = openTable(
      setup, isPrivate: true, creator: session.token, solo: true, name: session.name,
      player: session.player, now: now)
    enterSolo(session, connection, at: id, replyTo: replyTo, now: now)
  }

  private mutating func quickMatch(
    _ game: String, seats: Int, _ options: TableOptions, _ session: SessionRegistry.Session,
    replyTo: MessageID?,
    _ connection: ConnectionID, now: Double
  ) {
    guard checkGame(game, replyTo: replyTo, connection),
      let setup = checkSetup(game, seats: seats, options, replyTo: replyTo, connection)
    else { return }
    let candidate = feed.quickMatch(game: game, seats: seats, setup: setup)
    if let candidate, let entry = feed.remoteEntry(candidate) {
      return redirect(session, connection, to: entry, role: .player, replyTo: replyTo, now: now)
    }
    if candidate == nil || candidate == session.tableID {
      guard checkCanOpen(session, replyTo: replyTo, connection) else { return }
    }
    leaveTable(session, now: now)
    // Leaving may have changed the list (the table left could be the candidate).
    if let id = feed.quickMatch(game: game, seats: seats, setup: setup),
      let entry = feed.remoteEntry(id)
    {
      redirect(session, connection, to: entry, role: .player, replyTo: replyTo, now: now)
    } else if let id = feed.quickMatch(game: game, seats: seats, setup: setup),
      (hosts.readTable(id, { $0.sitProblem(replyTo: replyTo) }) ?? nil) == nil
    {
      sit(session, connection, at: id, replyTo: replyTo, now: now)
    } else {
      let id = openTable(setup, isPrivate: false, creator: session.token, now: now)
      sit(session, connection, at: id, replyTo: replyTo, now: now)
    }
  }

  private mutating func join(
    _ reference: TableReference, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID, now: Double
  ) {
    guard
      let id = find(
        reference, session: session, role: .player, replyTo: replyTo, connection, now: now)
    else { return }
    if session.tableID == id, let seat = session.seat {
      send(
        hosts.readTable(id, { $0.snapshot(replyTo: replyTo, you: seat, now: now) })!,
        to: connection)
      return
    }
    if let problem = hosts.readTable(id, { $0.sitProblem(replyTo: replyTo) })! {
      reply(problem, to: connection)
      return
    }
    move(session, connection, to: id, asPlayer: true, replyTo: replyTo, now: now)
  }

  private mutating func spectate(
    _ reference: TableReference, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID, now: Double
  ) {
    guard
      let id = find(
        reference, session: session, role: .spectator, replyTo: replyTo, connection, now: now)
    else { return }
    if session.tableID == id {
      // Already here (watching, or seated: a player does not become a spectator of their own
      // table, which could close it under them).
      send(
        hosts.readTable(id, { $0.snapshot(replyTo: replyTo, you: session.seat, now: now) })!,
        to: connection)
      return
    }
    guard hosts.readTable(id, { $0.spectators })! < configuration.spectatorLimit else {
      reply(
        ProtocolError(
          .spectatorLimit, "This table has as many spectators as it takes.", replyTo: replyTo),
        to: connection)
      return
    }
    move(session, connection, to: id, asPlayer: false, replyTo: replyTo, now: now)
  }
}
