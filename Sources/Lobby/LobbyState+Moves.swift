import Protocol

/// The one path of a move (`choose`), whoever decides it: ``moveTicket(of:)`` checks that the
/// connection may move, and the move goes to its table's host as a `choose` event, whose
/// outcome carries its journal entries like any other event's. The inline shell reaches it
/// through ``handle(_:now:)``; the sharded shell asks ``shardMove(_:from:)`` whether a message
/// is a move its table's shard decides alone and plays it there (``play(_:in:now:)``) on the
/// shards it borrowed (``lendShards()``), holding only that shard.
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
  /// state, so a thread may call it (the shards lent, ``lendShards()``), and then play the move
  /// while holding the ticket's shard (``shardMove(_:from:)``, ``play(_:in:now:)``), while
  /// other threads do the same for other shards.
  public func moveTicket(of connection: ConnectionID) -> MoveTicket? {
    guard let session = desk.session(for: connection) else { return nil }
    return try? moveTicket(for: session).get()
  }

  /// The shard of a move by `connection` that needs no more than its shard (``shardTicket(of:)``).
  public func playingShard(of connection: ConnectionID) -> Int? {
    shardTicket(of: connection)?.shard
  }

  /// `decoded` from `connection` as a move its table's shard decides alone, or nil when it
  /// needs the whole state (anything but a `choose`, a move that is refused before it reaches a
  /// table, a move at a table that takes turns). The one test of it, for every shell, the fuzz
  /// target and the tests: a ``ShardMove`` is made nowhere else.
  ///
  /// For a concurrent shell, as ``moveTicket(of:)``: it reads only what changes under an
  /// exclusive hold of the whole state.
  public func shardMove(
    _ decoded: Result<ClientEnvelope, ProtocolError>, from connection: ConnectionID
  ) -> ShardMove? {
    guard case .success(let envelope) = decoded, case .choose(let card) = envelope.message,
      let ticket = shardTicket(of: connection)
    else { return nil }
    return ShardMove(card: card, replyTo: envelope.id, connection: connection, ticket: ticket)
  }

  /// The ticket of a move by `connection` at a table that does not take turns (a turn-based
  /// table's move restarts its clock, a deadline of the whole lobby).
  private func shardTicket(of connection: ConnectionID) -> MoveTicket? {
    guard let ticket = moveTicket(of: connection), !ticket.isTurnBased else { return nil }
    return ticket
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

  /// A `choose` from `connection` within the whole state: refused, or played by its ticket,
  /// its entries and frames going out as every other table event's do.
  mutating func receiveMove(
    _ card: Int, replyTo: MessageID?, from connection: ConnectionID,
    session: SessionRegistry.Session, now: Double
  ) {
    switch moveTicket(for: session) {
    case .failure(let refusal):
      refuse(refusal, replyTo: replyTo, connection)
    case .success(let ticket):
      let event = TableHost.Event.choose(
        card: card, seat: ticket.seat, connection: connection, replyTo: replyTo)
      if let outcome = Self.play(event, ticket: ticket, in: &hosts.shards[ticket.shard], now: now) {
        take(outcome)
      }
      // A turn-based table's move restarts its turn clock.
      if ticket.isTurnBased { settle(ticket.tableID, now: now) }
    }
  }

  /// Decides `move` on `shard`, its ticket's shard as lent to a shell that plays moves on
  /// several threads at once (``lendShards()``): it touches nothing else, so threads can play
  /// on different shards at once, each holding its own. Returns its actions (its journal
  /// entries first, as ``TableHost/Outcome/emit(into:)`` puts them) and whether it was
  /// accepted.
  public static func play(_ move: ShardMove, in shard: inout TableShard, now: Double) -> (
    actions: [LobbyAction], accepted: Bool
  ) {
    let event = TableHost.Event.choose(
      card: move.card, seat: move.ticket.seat, connection: move.connection,
      replyTo: move.replyTo)
    guard let outcome = play(event, ticket: move.ticket, in: &shard, now: now) else {
      return ([], false)
    }
    var actions: [LobbyAction] = []
    outcome.emit(into: &actions)
    return (actions, outcome.refusal == nil)
  }

  /// The one place moves are decided: the move goes to its table's host, in its shard, and is
  /// counted; nil when the table is not there.
  private static func play(
    _ event: TableHost.Event, ticket: MoveTicket, in shard: inout TableShard, now: Double
  ) -> TableHost.Outcome? {
    // One look-up of the host, changed where it is stored. The ticket was taken under the same
    // hold: its table is there.
    guard let outcome = shard.withHost(ticket.tableID, { $0.handle(event, now: now) }) else {
      return nil
    }
    if let refusal = outcome.refusal {
      shard.movesRejected[refusal.code, default: 0] += 1
    } else {
      shard.movesAccepted += 1
    }
    return outcome
  }

  /// Lends every shard to a shell that decides moves on several threads at once: each thread
  /// plays on the shard it holds (``play(_:in:now:)``), asking the lobby only which moves a
  /// shard decides (``shardMove(_:from:)``). Until ``takeBack(_:)`` nothing else may be asked
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
