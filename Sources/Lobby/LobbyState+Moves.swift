import Protocol

/// The one path of a move (`choose`), whoever decides it: ``moveTicket(of:)`` checks that the
/// connection may move, ``choose(_:replyTo:from:ticket:now:)`` plays the move at its table. The
/// inline shell reaches both through ``handle(_:now:)``; the sharded shell calls them
/// itself on the shards it borrowed (``lendShards()``), holding only the ticket's shard, when
/// the table does not take turns.
extension LobbyState {
  /// Why a connection may not move now.
  enum MoveRefusal: Error {
    case notAtTable
    case spectator
    case journalDown
  }

  /// The ticket of a move by `connection`, or nil when it may not move now (it said no hello,
  /// sits at no table, only watches, or the journal cannot be written): ``handle(_:now:)``
  /// then answers why.
  ///
  /// For a concurrent shell: this reads only what changes under an exclusive hold of the whole
  /// state, so a thread may call it (the shards lent, ``lendShards()``), and then
  /// ``choose(_:replyTo:from:ticket:in:now:)`` while holding the ticket's shard, while other
  /// threads do the same for other shards.
  public func moveTicket(of connection: ConnectionID) -> MoveTicket? {
    guard let session = desk.session(for: connection) else { return nil }
    return try? moveTicket(for: session).get()
  }

  /// The shard of a move by `connection` that needs no more than its shard: a ticket at a table
  /// that does not take turns (``moveTicket(of:)``).
  public func playingShard(of connection: ConnectionID) -> Int? {
    guard let ticket = moveTicket(of: connection), !ticket.isTurnBased else { return nil }
    return ticket.shard
  }

  /// The checks every move passes, in the order their refusals are answered.
  func moveTicket(for session: SessionRegistry.Session) -> Result<MoveTicket, MoveRefusal> {
    guard let tableID = session.tableID else { return .failure(.notAtTable) }
    let shard = hosts.index(of: tableID)
    // Not the shard nor the table, which another thread may be changing under the shard's
    // lock: what changes only under the whole state (``openTables``).
    guard let isTurnBased = openTables[tableID] else { return .failure(.notAtTable) }
    guard let seat = session.seat else { return .failure(.spectator) }
    guard !journalDown else { return .failure(.journalDown) }
    return .success(
      MoveTicket(tableID: tableID, seat: seat, shard: shard, isTurnBased: isTurnBased))
  }

  /// A `choose` from `connection` within the whole state: refused, or played by its ticket.
  mutating func receiveMove(
    _ card: Int, replyTo: MessageID?, from connection: ConnectionID,
    session: SessionRegistry.Session, now: Double
  ) {
    switch moveTicket(for: session) {
    case .failure(let refusal):
      refuse(refusal, replyTo: replyTo, connection)
    case .success(let ticket):
      Self.play(
        card, ticket: ticket, replyTo: replyTo, from: connection,
        in: &hosts.shards[ticket.shard], now: now, into: &out)
      // A turn-based table's move restarts its turn clock.
      if ticket.isTurnBased { settle(ticket.tableID, now: now) }
    }
  }

  /// Decides a `choose` of `card` by the player `connection` with its `ticket`: the decision
  /// ``handle(_:now:)`` makes. Returns its actions (its journal entries first) and whether the
  /// move was accepted. A turn-based table's move also restarts its clock: decide those through
  /// ``handle(_:now:)``.
  public mutating func choose(
    _ card: Int, replyTo: MessageID?, from connection: ConnectionID, ticket: MoveTicket,
    now: Double
  ) -> (actions: [LobbyAction], accepted: Bool) {
    precondition(!hosts.lent, "the shards are lent: play on the lent shard")
    return Self.choose(
      card, replyTo: replyTo, from: connection, ticket: ticket, in: &hosts.shards[ticket.shard],
      now: now)
  }

  /// ``choose(_:replyTo:from:ticket:now:)`` on `shard`, the ticket's shard as lent to a shell
  /// that plays moves on several threads at once (``lendShards()``): it touches nothing else,
  /// so threads can play on different shards at once, each holding its own.
  public static func choose(
    _ card: Int, replyTo: MessageID?, from connection: ConnectionID, ticket: MoveTicket,
    in shard: inout TableShard, now: Double
  ) -> (actions: [LobbyAction], accepted: Bool) {
    var actions: [LobbyAction] = []
    let accepted = play(
      card, ticket: ticket, replyTo: replyTo, from: connection, in: &shard, now: now,
      into: &actions)
    return (actions, accepted)
  }

  /// The one place moves are decided: the move goes to its table's host, in its shard, which
  /// appends its journal entries to `actions`, then its frames.
  @discardableResult
  private static func play(
    _ card: Int, ticket: MoveTicket, replyTo: MessageID?, from connection: ConnectionID,
    in shard: inout TableShard, now: Double, into actions: inout [LobbyAction]
  ) -> Bool {
    // One look-up of the host, changed where it is stored. The ticket was taken under the same
    // hold: its table is there.
    let decided = shard.withHost(ticket.tableID) { host in
      host.choose(
        card, seat: ticket.seat, connection: connection, replyTo: replyTo, now: now,
        into: &actions)
    }
    // nil: no such table; .some(nil): accepted; .some(error): refused.
    guard let decided else { return false }
    if let refusal = decided {
      shard.movesRejected[refusal.code, default: 0] += 1
      return false
    }
    shard.movesAccepted += 1
    return true
  }

  /// Lends every shard to a shell that decides moves on several threads at once: each thread
  /// plays on the shard it holds (``choose(_:replyTo:from:ticket:in:now:)``), asking the lobby
  /// only for tickets (``moveTicket(of:)``). Until ``takeBack(_:)`` nothing else may be asked
  /// of it (``handle(_:now:)`` stops the program): the tables are not here.
  public mutating func lendShards() -> [TableShard] {
    precondition(!hosts.lent, "the shards are lent already")
    hosts.lent = true
    defer { hosts.shards = [] }
    return hosts.shards
  }

  /// Takes back the shards ``lendShards()`` lent, in the same order.
  public mutating func takeBack(_ shards: [TableShard]) {
    precondition(hosts.lent && shards.count == hosts.count, "not the shards lent")
    hosts.shards = shards
    hosts.lent = false
  }

  /// Answers a move (or, not `counted`, another request of a player) that may not be made,
  /// counting it as a refused move when `counted`.
  mutating func refuse(
    _ refusal: MoveRefusal, replyTo: MessageID?, _ connection: ConnectionID, counted: Bool = true
  ) {
    switch refusal {
    case .notAtTable:
      if counted { ownStatistics.movesRejected[.notAtTable, default: 0] += 1 }
      reply(
        ProtocolError(.notAtTable, "You are not at a table; start a game first.", replyTo: replyTo),
        to: connection)
    case .spectator:
      if counted { ownStatistics.movesRejected[.spectator, default: 0] += 1 }
      reply(
        ProtocolError(.spectator, "Spectators watch; they cannot play.", replyTo: replyTo),
        to: connection)
    case .journalDown:
      if counted { ownStatistics.movesRejected[.unavailable, default: 0] += 1 }
      // At once: the frames of the moves taken before the failure wait for the journal, and so
      // would this refusal behind them, until the journal writes again.
      let refusal = ProtocolError(
        .unavailable, "The server cannot save moves right now; try again in a moment.",
        replyTo: replyTo)
      out.append(.sendAtOnce(Frame(ServerMessage.error(refusal)), to: [connection]))
    }
  }
}
