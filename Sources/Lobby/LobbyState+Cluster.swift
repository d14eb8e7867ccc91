import Protocol

/// The lobby as one node of a cluster (``LobbyConfiguration/cluster``): the other nodes'
/// tables in its list, requests for them answered with a `redirect` that hands the session on,
/// and sessions it does not know looked up in the shared database.
extension LobbyState {
  /// What the cluster said.
  mutating func hear(_ news: ClusterNews, now: Double) {
    // The store's answer about ratings comes this way on a server on its own too.
    if case .ratings(let ratings, let players, let connection, let table) = news {
      heard(ratings, players: players, connection: connection, table: table, now: now)
      return
    }
    guard configuration.cluster else { return }
    switch news {
    case .snapshot(let tables):
      let known = Set(tables.map(\.id))
      for id in feed.remoteIDs() where !known.contains(id) {
        schedule(feed.hear(.remove(id: id), now: now))
      }
      for table in tables where table.listing.node != configuration.nodeID {
        schedule(feed.hear(.upsert(table), now: now))
      }
      yieldScheduledArenas(now: now)
    case .changes(let node, let changes):
      guard node != configuration.nodeID else { return }
      for change in changes { schedule(feed.hear(change, now: now)) }
      yieldScheduledArenas(now: now)
    case .nodeGone(let node):
      guard node != configuration.nodeID else { return }
      for id in feed.remoteIDs(of: node) { schedule(feed.hear(.remove(id: id), now: now)) }
    case .session(let connection, let lookup):
      found(lookup, for: connection, now: now)
    case .adopt(let contents):
      adopt(contents, now: now)
    case .lost(let ids):
      giveUp(ids, now: now)
    case .guessesMissed(let misses):
      for (address, count) in misses where count > 0 {
        addressGuesses.missed(address, count: min(count, addressGuesses.burst * 10), now: now)
      }
    case .ratings:
      break
    }
  }

  /// Rebuilds tables taken over from a dead node, as a restart rebuilds its own: every seat
  /// held for the reconnect grace period, every session at them waiting for its resume. A
  /// table of a game this server does not deal is left out, and said so in the log
  /// (``LobbyLog/tableNotAdopted(_:)``, naming the table and its game); a takeover from the
  /// database never brings one (it leaves them to a node that deals them). A stale copy of one
  /// (this node held it before it lost it) is replaced by the journal's.
  mutating func adopt(_ contents: JournalContents, now: Double) {
    var adopted: [String] = []
    for (record, moves) in contents.tables {
      if hosts.contains(record.id) { giveUp([record.id], now: now) }
      let table: any TableArbiter
      do {
        table = try GameCatalog.reopen(
          record, moves: moves, rules: configuration.tableRules, now: now)
      } catch {
        out.append(.log(.tableNotAdopted(error)))
        tablesNotAdopted += 1
        continue
      }
      host(
        TableHost(
          table: table, creator: record.creator, emptyTableGrace: configuration.emptyTableGrace))
      adopted.append(record.id)
    }
    let tables = hosts
    for session in contents.sessions where desk.session(token: session.token) == nil {
      let expiresAt = desk.restore(session, now: now) { tables.contains($0) }
      deadlines.schedule(.session(session.token), at: expiresAt)
    }
    restoreArenas(contents.arenas, now: now)
    for id in adopted { settle(id, now: now) }
    tablesTakenOver += adopted.count
  }

  /// Gives up tables another node took over: their members are closed at once (nothing held
  /// for them is shown), their sessions handed on, the tables forgotten without a word to the
  /// journal (they are not this node's to write) nor to the cluster (the new owner publishes
  /// them).
  mutating func giveUp(_ ids: [String], now: Double) {
    for id in ids { retire(id, .givenUp, now: now) }
  }

  /// Every table of this node's, to publish when the node joins the cluster (its rows from
  /// before a restart are gone by then); what was waiting to be published is in it.
  public mutating func takeAllPublications() -> [ClusterChange] {
    _ = feed.takePublications()
    return feed.allPublications()
  }

  /// Sends the session to the node that holds table `entry` (to come as `role`, by `code` when
  /// it came by code): it leaves its table here, this node hands the session on through the
  /// journal, and the client hears where to go once that is written.
  mutating func redirect(
    _ session: SessionRegistry.Session, _ connection: ConnectionID, to entry: TableDirectory.Entry,
    code: String? = nil, role: Redirect.Role, replyTo: MessageID?, now: Double
  ) {
    leaveTable(session, now: now)
    feed.unwatch(connection)
    desk.release(token: session.token)
    deadlines.schedule(.session(session.token), at: nil)
    redirectsSent += 1
    let redirect = Redirect(
      table: entry.listing.id, node: entry.listing.node ?? "", url: entry.url, code: code,
      role: role)
    send(ServerMessage.redirect(replyTo: replyTo, redirect), to: connection)
  }

  /// The database answered a `hello` waiting on `connection` (or on a connection gone since).
  private mutating func found(_ lookup: SessionLookup, for connection: ConnectionID, now: Double) {
    let pending = pendingHellos.removeValue(forKey: connection)
    switch lookup {
    case .claimed(let record), .orphaned(let record):
      // This node's now, whether or not its connection is still here: it waits for its resume.
      if desk.session(token: record.token) == nil {
        let expiresAt = desk.restore(record, now: now) { [hosts] in hosts.contains($0) }
        deadlines.schedule(.session(record.token), at: expiresAt)
      }
      guard let pending else { return }
      hello(pending, from: connection, now, lookUp: false)
    case .elsewhere(let record, let node, let url):
      guard let pending, let table = record.tableID else { return }
      send(
        welcome(
          replyTo: pending.replyTo, session: pending.resume, name: record.name, resumed: true,
          games: pending.games),
        to: connection)
      redirectsSent += 1
      let redirect = Redirect(
        table: table, node: node, url: url, role: record.seat == nil ? .spectator : .player)
      send(ServerMessage.redirect(replyTo: nil, redirect), to: connection)
    case .unknown:
      guard let pending else { return }
      hello(pending, from: connection, now, lookUp: false)
    case .unavailable:
      guard let pending else { return }
      // Not a new session in its place: the client keeps its token and says hello again.
      reply(
        ProtocolError(
          .unavailable, "Sessions cannot be looked up right now; try again.",
          replyTo: pending.replyTo), to: connection)
    }
  }

  private mutating func hello(
    _ pending: PendingHello, from connection: ConnectionID, _ now: Double, lookUp: Bool
  ) {
    hello(
      name: pending.name, resume: pending.resume, version: pending.version,
      player: pending.player, games: pending.games, replyTo: pending.replyTo, from: connection,
      now, lookUp: lookUp)
  }

  private mutating func schedule(_ flush: Double?) {
    if let flush { deadlines.schedule(.lobbyFlush, at: flush) }
  }
}
