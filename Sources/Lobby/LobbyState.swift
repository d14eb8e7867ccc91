import Model
import Protocol

/// What the lobby asks its shell to do. The shell carries the actions out in order.
public enum LobbyAction: Sendable {
  /// Send one frame, shared by every recipient, to each of `to`.
  case send(Frame, to: [ConnectionID])
  /// Send one frame at once, ahead of any frame still waiting for the journal: it shows nothing
  /// the journal keeps (a refusal while the journal cannot be written, which the player should
  /// hear of now, not once the journal writes again).
  case sendAtOnce(Frame, to: [ConnectionID])
  /// Close a connection with a WebSocket close code, after what was queued for it.
  case close(ConnectionID, code: UInt16, reason: String)
  /// Write this down (``LobbyConfiguration/journal``): the actions after it may be carried out
  /// only once it is written. A batch of actions lists its journal entries first.
  case journal(JournalEntry)
  /// Read finished games from the store and answer `connection` (``RecordRequest``): the only
  /// question the lobby cannot answer from memory.
  case query(RecordRequest)
}

/// A question about finished games, for the shell to put to the store and answer.
public struct RecordRequest: Hashable, Sendable {
  /// What is asked.
  public enum Kind: Hashable, Sendable {
    /// A page of high scores.
    case scores(ScoresQuery)
    /// One finished game, with its replay.
    case record(id: String)
  }

  /// Who asked.
  public var connection: ConnectionID
  /// The id of the asking message.
  public var replyTo: MessageID?
  /// What is asked.
  public var kind: Kind

  /// Creates a request.
  public init(connection: ConnectionID, replyTo: MessageID?, kind: Kind) {
    self.connection = connection
    self.replyTo = replyTo
    self.kind = kind
  }
}

/// Where the lobby's secrets come from: deal seeds, session tokens, invite codes. Tests pass
/// fixed ones, so that a run is repeatable; the server passes the system's random source
/// (`LobbyEntropy.system`, in the server, which keeps tokens as their SHA-256).
public struct LobbyEntropy: Sendable {
  /// A new deal seed.
  public var seed: @Sendable () -> UInt64
  /// A new session token.
  public var token: @Sendable () -> String
  /// A number below the argument (for invite codes).
  public var below: @Sendable (Int) -> Int
  /// What the lobby keeps of a session token: the server stores (and journals) only this, and
  /// finds a session by the hash of the token a client presents.
  public var hash: @Sendable (String) -> String

  /// Creates entropy from the three sources; `hash` keeps tokens as they are unless given.
  public init(
    seed: @escaping @Sendable () -> UInt64, token: @escaping @Sendable () -> String,
    below: @escaping @Sendable (Int) -> Int,
    hash: @escaping @Sendable (String) -> String = { $0 }
  ) {
    self.seed = seed
    self.token = token
    self.below = below
    self.hash = hash
  }
}

/// The lobby and every table as one pure state machine.
///
/// An event goes in — a client's message, a connection gone, the clock reaching a deadline —
/// and actions come out (frames to send, connections to close). Nothing here waits, reads a
/// clock or touches a socket: `now` is a parameter, the next moment anything is due is
/// ``nextDeadline``, and one event is handled completely before the next, so no interleaving
/// can split a decision. Tests drive it directly; in the server a thin shell runs it (`InlineLobby`
/// on the transport's service thread, or `ShardedLobby` on executor threads).
public struct LobbyState: Sendable {
  /// What a connection is at a table.
  public enum Role: Hashable, Sendable {
    /// A seated player.
    case player(seat: Int)
    /// A spectator.
    case spectator
  }

  /// A table and the connections at it.
  struct Slot: Sendable {
    var table: any TableArbiter
    /// Every connection at the table, and what it is there.
    var members: [ConnectionID: Role] = [:]
    /// `members`' keys, kept in step, so a broadcast does not build an array.
    var recipients: [ConnectionID] = []
    /// The session that opened the table (for the per-session cap).
    var creator: String

    mutating func add(_ connection: ConnectionID, as role: Role) {
      if members.updateValue(role, forKey: connection) == nil { recipients.append(connection) }
    }

    @discardableResult
    mutating func remove(_ connection: ConnectionID) -> Role? {
      guard let role = members.removeValue(forKey: connection) else { return nil }
      recipients.removeAll { $0 == connection }
      return role
    }
  }

  /// Something timed.
  enum Deadline: Hashable, Sendable {
    /// A table's countdown, held seats or empty-table grace.
    case table(String)
    /// A detached session's grace period.
    case session(String)
    /// Pending lobby changes go out.
    case lobbyFlush
  }

  /// A bucket of invite-code misses a session may make.
  struct Misses: Sendable {
    var level: Double
    var updated: Double
  }

  /// Counts of what the lobby decided, for metrics. They only grow: a reader exports the
  /// difference from what it read last.
  public struct Statistics: Sendable, Equatable {
    /// Moves (`choose`) a table accepted.
    public internal(set) var movesAccepted = 0
    /// Moves refused, by the code of the error sent back.
    public internal(set) var movesRejected: [ErrorCode: Int] = [:]

    /// No moves yet.
    public init() {}
  }

  /// The settings.
  public let configuration: LobbyConfiguration
  /// What the lobby has decided so far: its own refusals and every shard's moves.
  public var statistics: Statistics {
    var total = ownStatistics
    for shard in slots.shards {
      total.movesAccepted += shard.movesAccepted
      total.movesRejected.merge(shard.movesRejected, uniquingKeysWith: +)
    }
    return total
  }
  /// Moves refused before they reached a table.
  private var ownStatistics = Statistics() {
    didSet { ownDecided += 1 }
  }
  private var ownDecided = 0

  /// Moves accepted so far (``statistics``' first count, without adding up the refusals).
  public var movesAccepted: Int {
    slots.shards.reduce(ownStatistics.movesAccepted) { $0 + $1.movesAccepted }
  }

  /// A number that grows whenever ``statistics`` changes: a reader compares it with the one it
  /// saw last before it looks at the statistics themselves.
  public var statisticsStamp: Int {
    slots.shards.reduce(ownDecided) { $0 + $1.movesAccepted + $1.movesDecided }
  }
  private let entropy: LobbyEntropy
  private(set) var registry = SessionRegistry()
  private(set) var directory = TableDirectory()
  let slots: TableShards
  private(set) var watchers: Set<ConnectionID> = []
  private var deadlines = DeadlineQueue<Deadline>()
  private var pendingOrder: [String] = []
  private var pendingChanges: [String: LobbyChange] = [:]
  private var lastFlush = -Double.infinity
  /// The lobby snapshot after its `replyTo`, encoded once per directory version.
  private var snapshotTail: (version: Int, bytes: [UInt8])?
  private var openedBy: [String: Int] = [:]
  private var misses: [String: Misses] = [:]
  private var nextTableNumber = 1
  private var out: [LobbyAction] = []
  /// Journal entries of the event being handled (``LobbyConfiguration/journal``).
  private var journal: [JournalEntry] = []
  /// Whether the journal cannot be written now (``journalAvailable(_:)``): moves are refused.
  public private(set) var journalDown = false

  /// An empty lobby whose tables are spread over `shards` shards (see ``playingShard(of:)``).
  public init(
    configuration: LobbyConfiguration = LobbyConfiguration(), entropy: LobbyEntropy,
    shards: Int = 1
  ) {
    self.configuration = configuration
    self.entropy = entropy
    self.slots = TableShards(count: shards)
  }

  // MARK: - Reading

  /// How many tables are open.
  public var tableCount: Int { slots.count }

  /// How many sessions exist (attached or waiting for a resume).
  public var sessionCount: Int { registry.count }

  /// The earliest moment ``advance(to:)`` has something to do, if any.
  public mutating func nextDeadline() -> Double? { deadlines.earliest() }

  /// The table with `id`, if open.
  public func table(_ id: String) -> (any TableArbiter)? { slots[id]?.table }

  /// The connections at table `id` and what they are there.
  public func members(of id: String) -> [ConnectionID: Role] { slots[id]?.members ?? [:] }

  /// Every open table's id.
  public var tableIDs: [String] { slots.keys }

  /// How many shards the tables are spread over.
  public var shardCount: Int { slots.shards.count }

  /// Every session.
  public var sessions: [SessionRegistry.Session] { registry.all }

  /// The session a connection holds.
  public func session(for connection: ConnectionID) -> SessionRegistry.Session? {
    registry.session(for: connection)
  }

  /// The lobby directory (the public list and invite codes).
  public var tableDirectory: TableDirectory { directory }

  /// Connections subscribed to the lobby list.
  public var lobbyWatchers: Set<ConnectionID> { watchers }

  // MARK: - Events

  /// One complete text message from `connection`.
  public mutating func receive(_ bytes: [UInt8], from connection: ConnectionID, now: Double)
    -> [LobbyAction]
  {
    receive(ClientMessageDecoder.decode(bytes), from: connection, now: now)
  }

  /// One message from `connection`, decoded already (or refused by the decoder).
  public mutating func receive(
    _ decoded: Result<ClientEnvelope, ProtocolError>, from connection: ConnectionID, now: Double
  ) -> [LobbyAction] {
    switch decoded {
    case .failure(let error): reply(error, to: connection)
    case .success(let envelope): handle(envelope, from: connection, now: now)
    }
    return takeActions()
  }

  /// One decoded message from `connection`.
  public mutating func receive(
    _ envelope: ClientEnvelope, from connection: ConnectionID, now: Double
  ) -> [LobbyAction] {
    handle(envelope, from: connection, now: now)
    return takeActions()
  }

  /// The connection has gone: its session waits for a resume; its seat is held for the grace
  /// period (the others see it "away"); a spectator stops watching.
  public mutating func disconnected(_ connection: ConnectionID, now: Double) -> [LobbyAction] {
    watchers.remove(connection)
    if let session = registry.detach(connection, now: now) {
      // Expires once the grace period is over: the first instant after it.
      deadlines.schedule(.session(session.token), at: (now + configuration.reconnectGrace).nextUp)
      if let tableID = session.tableID, var slot = slots[tableID] {
        let role = slot.remove(connection)
        var broadcasts: [TableBroadcast] = []
        switch role {
        case .spectator?:
          if let b = slot.table.setSpectators(max(0, slot.table.spectators - 1)) {
            broadcasts.append(b)
          }
          registry.seat(token: session.token, tableID: nil, seat: nil)
        case .player(let seat)?:
          if let b = slot.table.disconnect(seat: seat, now: now) { broadcasts.append(b) }
        case nil:
          break
        }
        slots[tableID] = slot
        for b in broadcasts { broadcast(b, at: tableID) }
        settle(tableID, now: now)
      }
    }
    return takeActions()
  }

  /// Moves time on to `now`: whatever is due happens (countdowns end, held seats and detached
  /// sessions expire, empty tables close, pending lobby changes go out).
  public mutating func advance(to now: Double) -> [LobbyAction] {
    // What is handled can make something else due at once (a table that closes queues a lobby
    // change); a few rounds settle it, and no deadline re-arms itself at `now`.
    for _ in 0..<4 {
      let due = deadlines.popDue(now: now)
      if due.isEmpty { break }
      handle(due, now: now)
    }
    return takeActions()
  }

  private mutating func handle(_ due: [Deadline], now: Double) {
    for deadline in due {
      switch deadline {
      case .table(let id):
        tick(id, now: now)
      case .session(let token):
        if let session = registry.expire(
          token: token, now: now, grace: configuration.reconnectGrace)
        {
          misses[session.token] = nil
        }
      case .lobbyFlush:
        flushLobby(now: now)
      }
    }
  }

  /// The journal can (true) or cannot (false) be written now. While it cannot, moves and
  /// re-deals are refused with `unavailable` rather than played on where nothing is kept: a move
  /// nobody can see (its frames wait for the journal) is better refused at once, and the refusal
  /// is a ``LobbyAction/sendAtOnce(_:to:)``, which does not wait behind those frames. The shell
  /// says so when its writer starts or stops failing.
  public mutating func journalAvailable(_ available: Bool) {
    journalDown = !available
  }

  /// Whether this server keeps finished games (it does with a journal); says so if not.
  private mutating func checkRecordsKept(_ replyTo: MessageID?, _ connection: ConnectionID)
    -> Bool
  {
    guard !configuration.journal else { return true }
    reply(
      ProtocolError(
        .unavailable, "This server keeps no records of finished games.", replyTo: replyTo),
      to: connection)
    return false
  }

  private mutating func refuseWhileJournalDown(_ replyTo: MessageID?, _ connection: ConnectionID)
    -> Bool
  {
    guard journalDown else { return false }
    ownStatistics.movesRejected[.unavailable, default: 0] += 1
    // At once: the frames of the moves taken before the failure wait for the journal, and so
    // would this refusal behind them, until the journal writes again.
    let refusal = ProtocolError(
      .unavailable, "The server cannot save moves right now; try again in a moment.",
      replyTo: replyTo)
    out.append(.sendAtOnce(Frame(ServerMessage.error(refusal)), to: [connection]))
    return true
  }

  // MARK: - Moves on one shard

  /// The shard of the table where `connection` holds a seat, if it does: a `choose` from it
  /// then needs only that shard (``choose(_:replyTo:from:shard:)``).
  ///
  /// For a concurrent shell: this reads only what changes under an exclusive hold of the
  /// whole state, so a thread may call it, and then ``choose(_:replyTo:from:shard:)`` while
  /// holding the shard, while other threads do the same for other shards. Anything else
  /// (every other message, a disconnect, ``advance(to:)``) needs the state to itself.
  public func playingShard(of connection: ConnectionID) -> Int? {
    guard !journalDown, let session = registry.session(for: connection),
      let tableID = session.tableID, session.seat != nil
    else { return nil }
    let shard = slots.index(of: tableID)
    // A turn-based table's moves schedule its turn clock: they need the whole state.
    guard slots.shards[shard].withSlot(tableID, { !$0.table.isTurnBased }) ?? true else {
      return nil
    }
    return shard
  }

  /// Decides a `choose` of `card` by the player `connection`, whose table is in `shard`
  /// (``playingShard(of:)``), touching nothing but that shard: the same decision and frames as
  /// ``receive(_:from:now:)`` would make. Returns its actions and whether the move was accepted.
  public func choose(
    _ card: Int, replyTo: MessageID?, from connection: ConnectionID, shard: Int, now: Double
  ) -> (actions: [LobbyAction], accepted: Bool) {
    var actions: [LobbyAction] = []
    guard let session = registry.session(for: connection), let tableID = session.tableID,
      let seat = session.seat, slots.index(of: tableID) == shard
    else { preconditionFailure("choose(_:from:shard:) for a connection not playing there") }
    let accepted = play(
      card, at: tableID, seat: seat, shard: slots.shards[shard], replyTo: replyTo,
      from: connection, now: now, into: &actions)
    return (actions, accepted)
  }

  /// A seated player's move at `tableID`, in `shard`; the one place moves are decided.
  @discardableResult
  private func play(
    _ card: Int, at tableID: String, seat: Int, shard: TableShard, replyTo: MessageID?,
    from connection: ConnectionID, now: Double, into actions: inout [LobbyAction]
  ) -> Bool {
    // One look-up of the slot, changed where it is stored.
    let journals = configuration.journal
    let outcome = shard.withSlot(tableID) { slot in
      let result = slot.table.choose(card: card, by: seat, replyTo: replyTo, now: now)
      // The move is written down before its diff may leave.
      if journals {
        for entry in slot.table.takeJournal(creator: slot.creator) {
          actions.append(.journal(entry))
        }
      }
      return (result, slot.recipients)
    }
    guard let (result, recipients) = outcome else {
      shard.movesRejected[.notAtTable, default: 0] += 1
      actions.append(
        .send(
          Frame(
            ServerMessage.error(
              ProtocolError(
                .notAtTable, "You are not at a table; start a game first.", replyTo: replyTo))),
          to: [connection]))
      return false
    }
    switch result {
    case .success(let b):
      shard.movesAccepted += 1
      if b.seatFrames != nil, let slot = shard.withSlot(tableID, { $0 }) {
        Self.deliver(b, in: slot, into: &actions)
      } else if !recipients.isEmpty {
        actions.append(.send(b.frame, to: recipients))
      }
      return true
    case .failure(let error):
      shard.movesRejected[error.code, default: 0] += 1
      actions.append(.send(Frame(ServerMessage.error(error)), to: [connection]))
      return false
    }
  }

  // MARK: - Messages

  private mutating func handle(
    _ envelope: ClientEnvelope, from connection: ConnectionID, now: Double
  ) {
    let replyTo = envelope.id
    if case .hello(let name, let resume, let version, let player) = envelope.message {
      hello(
        name: name, resume: resume, version: version, player: player, replyTo: replyTo,
        from: connection, now)
      return
    }
    guard let session = registry.session(for: connection) else {
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
      guard let (tableID, seat) = seated(session, replyTo: replyTo, connection, isMove: true),
        !refuseWhileJournalDown(replyTo, connection)
      else { return }
      // `play` reads `self` while it appends: the actions are moved out of `self` first (no
      // copy of the whole state for the call) and back after.
      var actions = takeActions()
      play(
        card, at: tableID, seat: seat, shard: slots.shards[slots.index(of: tableID)],
        replyTo: replyTo, from: connection, now: now, into: &actions)
      out = actions
      // A turn-based table's move restarts its turn clock.
      if slots.shards[slots.index(of: tableID)].withSlot(tableID, { $0.table.isTurnBased }) == true
      {
        settle(tableID, now: now)
      }
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
      watchers.insert(connection)
      send(lobbySnapshot(replyTo: replyTo), to: connection)
    case .playSolo(let game, let options):
      guard checkGame(game, replyTo: replyTo, connection),
        let setup = checkSetup(game, seats: 1, options, replyTo: replyTo, connection),
        checkCanOpen(session, replyTo: replyTo, connection)
      else { return }
      leaveTable(session, now: now)
      // A solo table is dealt and playing from the start: nobody to wait for.
      let id = openTable(
        setup, isPrivate: true, creator: session.token, solo: true, name: session.name,
        player: session.player, now: now)
      slots[id]!.add(connection, as: .player(seat: 0))
      registry.seat(token: session.token, tableID: id, seat: 0)
      watchers.remove(connection)
      send(slots[id]!.table.snapshot(replyTo: replyTo, you: 0, now: now), to: connection)
      settle(id, now: now)
    case .quickMatch(let game, let seats):
      guard checkGame(game, replyTo: replyTo, connection),
        let setup = checkSetup(game, seats: seats, TableOptions(), replyTo: replyTo, connection)
      else { return }
      let candidate = directory.quickMatch(game: game, seats: seats)
      if candidate == nil || candidate == session.tableID {
        guard checkCanOpen(session, replyTo: replyTo, connection) else { return }
      }
      leaveTable(session, now: now)
      // Leaving may have changed the list (the table left could be the candidate).
      if let id = directory.quickMatch(game: game, seats: seats),
        slots[id]?.table.sitProblem(replyTo: replyTo) == nil
      {
        sit(session, connection, at: id, replyTo: replyTo, now: now)
      } else {
        let id = openTable(setup, isPrivate: false, creator: session.token, now: now)
        sit(session, connection, at: id, replyTo: replyTo, now: now)
      }
    case .createTable(let game, let seats, let isPrivate, let options):
      guard checkGame(game, replyTo: replyTo, connection),
        let setup = checkSetup(game, seats: seats, options, replyTo: replyTo, connection),
        checkCanOpen(session, replyTo: replyTo, connection)
      else { return }
      leaveTable(session, now: now)
      let id = openTable(setup, isPrivate: isPrivate, creator: session.token, now: now)
      sit(session, connection, at: id, replyTo: replyTo, now: now)
    case .join(let reference):
      guard let id = find(reference, session: session, replyTo: replyTo, connection, now: now)
      else { return }
      if session.tableID == id, let seat = session.seat {
        send(slots[id]!.table.snapshot(replyTo: replyTo, you: seat, now: now), to: connection)
        return
      }
      if let problem = slots[id]!.table.sitProblem(replyTo: replyTo) {
        reply(problem, to: connection)
        return
      }
      move(session, connection, to: id, asPlayer: true, replyTo: replyTo, now: now)
    case .spectate(let reference):
      guard let id = find(reference, session: session, replyTo: replyTo, connection, now: now)
      else { return }
      if session.tableID == id {
        // Already here (watching, or seated: a player does not become a spectator of their own
        // table, which could close it under them).
        send(
          slots[id]!.table.snapshot(replyTo: replyTo, you: session.seat, now: now), to: connection)
        return
      }
      guard slots[id]!.table.spectators < configuration.spectatorLimit else {
        reply(
          ProtocolError(
            .spectatorLimit, "This table has as many spectators as it takes.", replyTo: replyTo),
          to: connection)
        return
      }
      move(session, connection, to: id, asPlayer: false, replyTo: replyTo, now: now)
    case .leave:
      leaveTable(session, now: now)
      send(ServerMessage.left(replyTo: replyTo), to: connection)
    case .start:
      guard let (tableID, seat) = seated(session, replyTo: replyTo, connection) else { return }
      switch slots[tableID]!.table.start(by: seat, replyTo: replyTo, now: now) {
      case .success(let b):
        broadcast(b, at: tableID)
        settle(tableID, now: now)
      case .failure(let error): reply(error, to: connection)
      }
    case .redeal:
      guard let (tableID, seat) = seated(session, replyTo: replyTo, connection),
        !refuseWhileJournalDown(replyTo, connection)
      else { return }
      switch slots[tableID]!.table.requestRedeal(by: seat, replyTo: replyTo, now: now) {
      case .success(let b):
        broadcast(b, at: tableID)
        settle(tableID, now: now)
      case .failure(let error): reply(error, to: connection)
      }
    case .resync:
      guard let tableID = session.tableID, let slot = slots[tableID] else {
        reply(
          ProtocolError(.notAtTable, "You are not at a table.", replyTo: replyTo), to: connection)
        return
      }
      send(slot.table.snapshot(replyTo: replyTo, you: session.seat, now: now), to: connection)
    }
  }

  private mutating func hello(
    name: String?, resume: String?, version: Int?, player: String?, replyTo: MessageID?,
    from connection: ConnectionID, _ now: Double
  ) {
    // Like session tokens, player tokens are kept only as hashes.
    let player = player.map(entropy.hash)
    if registry.session(for: connection) != nil {
      reply(
        ProtocolError(.alreadyHello, "This connection said hello already.", replyTo: replyTo),
        to: connection)
      return
    }
    // Sessions are kept under the hash of their token; the token itself is only the client's.
    if let resume,
      let (session, replaced) = registry.resume(token: entropy.hash(resume), connection: connection)
    {
      deadlines.schedule(.session(session.token), at: nil)
      if let player { registry.setPlayer(token: session.token, player) }
      if let replaced {
        watchers.remove(replaced)
        out.append(
          .close(replaced, code: CloseCode.sessionTakenOver, reason: "session resumed elsewhere"))
      }
      send(
        ServerMessage.welcome(
          replyTo: replyTo, session: resume, name: session.name, resumed: true,
          maxMessageBytes: configuration.maxMessageBytes), to: connection)
      if let tableID = session.tableID, slots.contains(tableID) {
        rejoin(session, connection, replacing: replaced, at: tableID, version: version, now: now)
      }
      return
    }
    let token = entropy.token()
    let session = registry.open(
      token: entropy.hash(token), name: name ?? "Player", player: player, connection: connection)
    send(
      ServerMessage.welcome(
        replyTo: replyTo, session: token, name: session.name, resumed: false,
        maxMessageBytes: configuration.maxMessageBytes), to: connection)
  }

  /// A session is back at its table on a new connection: it gets the diffs it missed after
  /// `version` or a snapshot; a held seat is reclaimed and everyone is told.
  private mutating func rejoin(
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

  // MARK: - Tables

  private mutating func openTable(
    _ setup: TableSetup, isPrivate: Bool, creator: String, solo: Bool = false,
    name: String = "", player: String? = nil, now: Double
  ) -> String {
    let id = "t\(nextTableNumber)"
    nextTableNumber += 1
    let code = directory.newCode(length: configuration.inviteCodeLength, using: entropy.below)
    let table = GameCatalog.table(
      setup, id: id, code: code, isPrivate: isPrivate, solo: solo ? (name, creator, player) : nil,
      seed: entropy.seed(), rules: configuration.tableRules,
      now: now)
    slots[id] = Slot(table: table, creator: creator)
    openedBy[creator, default: 0] += 1
    // Listed once its creator sits (settle), so the lobby never shows it empty.
    return id
  }

  private mutating func closeTable(_ id: String, now: Double) {
    guard let slot = slots.removeValue(forKey: id) else { return }
    if configuration.journal { journal.append(.tableClosed(id)) }
    if !slot.recipients.isEmpty {
      out.append(.send(Frame(ServerMessage.left(replyTo: nil)), to: slot.recipients))
    }
    for connection in slot.recipients {
      if let session = registry.session(for: connection), session.tableID == id {
        registry.seat(token: session.token, tableID: nil, seat: nil)
      }
    }
    openedBy[slot.creator, default: 1] -= 1
    if openedBy[slot.creator] == 0 { openedBy[slot.creator] = nil }
    deadlines.schedule(.table(id), at: nil)
    if let change = directory.remove(id) { queueLobbyChange(id, change, now: now) }
  }

  private mutating func sit(
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
      registry.seat(token: session.token, tableID: id, seat: seat)
      watchers.remove(connection)
      send(slot.table.snapshot(replyTo: replyTo, you: seat, now: now), to: connection)
      settle(id, now: now)
    }
  }

  /// Leaves the session's table for table `id`, then seats (or, not `asPlayer`, seats as a
  /// spectator) the session there. The caller checked that `id` takes it.
  private mutating func move(
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
    registry.seat(token: session.token, tableID: id, seat: nil)
    watchers.remove(connection)
    send(slots[id]!.table.snapshot(replyTo: replyTo, you: nil, now: now), to: connection)
    settle(id, now: now)
  }

  /// Takes the session away from its table: a seat is released at once.
  private mutating func leaveTable(_ session: SessionRegistry.Session, now: Double) {
    guard let tableID = session.tableID else { return }
    registry.seat(token: session.token, tableID: nil, seat: nil)
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

  /// After a table changed: carries out what is due at once (a vote that reached its majority
  /// because someone left), closes it when nobody is left to wait for, otherwise publishes its
  /// row and schedules its next deadline.
  private mutating func settle(_ id: String, now: Double) {
    tick(id, now: now)
  }

  private mutating func tick(_ id: String, now: Double) {
    guard var slot = slots[id] else { return }
    let (broadcasts, released) = slot.table.tick(now: now)
    // Only held seats are released here, and a held seat's connection already left `members`.
    for token in released where registry.session(token: token)?.tableID == id {
      registry.seat(token: token, tableID: nil, seat: nil)
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
    if let change = directory.update(table.listing, code: table.code, isPrivate: table.isPrivate) {
      queueLobbyChange(id, change, now: now)
    }
  }

  private mutating func schedule(_ id: String, _ times: [Double?]) {
    deadlines.schedule(.table(id), at: times.compactMap { $0 }.min())
  }

  // MARK: - The lobby list

  private mutating func queueLobbyChange(_ id: String, _ change: LobbyChange, now: Double) {
    if pendingChanges.updateValue(change, forKey: id) == nil { pendingOrder.append(id) }
    if deadlines.deadline(of: .lobbyFlush) == nil {
      deadlines.schedule(.lobbyFlush, at: max(now, lastFlush + configuration.lobbyFlushInterval))
    }
  }

  /// Publishes the pending lobby changes as one `lobbyDiff`.
  private mutating func flushLobby(now: Double) {
    deadlines.schedule(.lobbyFlush, at: nil)
    guard !pendingOrder.isEmpty else { return }
    let changes = pendingOrder.compactMap { pendingChanges[$0] }
    pendingOrder = []
    pendingChanges = [:]
    lastFlush = now
    let version = directory.publish()
    if !watchers.isEmpty {
      out.append(
        .send(
          Frame(ServerMessage.lobbyDiff(version: version, changes: changes)),
          to: Array(watchers)))
    }
  }

  private mutating func lobbySnapshot(replyTo: MessageID?) -> Frame {
    if snapshotTail?.version != directory.version {
      // Everything after the reply id, encoded once per version.
      let whole = ServerMessage.lobbySnapshot(
        replyTo: nil, version: directory.version, tables: directory.publicListings
      ).encoded
      let head = #"{"type":"lobbySnapshot""#.utf8.count
      snapshotTail = (directory.version, Array(whole[head...]))
    }
    let tail = snapshotTail!.bytes
    return Frame { out in
      out += #"{"type":"lobbySnapshot""#.utf8
      if let replyTo {
        out += #","replyTo":"#.utf8
        replyTo.json.write(to: &out)
      }
      out += tail
    }
  }

  // MARK: - Checks

  private mutating func find(
    _ reference: TableReference, session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID, now: Double
  ) -> String? {
    switch reference {
    case .code(let code):
      guard takeGuess(session.token, now: now) else {
        reply(
          ProtocolError(
            .tooManyGuesses, "Too many unknown invite codes; wait a little.", replyTo: replyTo),
          to: connection)
        return nil
      }
      if let id = directory.table(withCode: code), slots.contains(id) { return id }
      var bucket = misses[session.token] ?? Misses(level: 0, updated: now)
      bucket.level += 1
      misses[session.token] = bucket
    case .id(let id):
      if let entry = directory.entry(id), !entry.isPrivate, slots.contains(id) { return id }
    }
    reply(ProtocolError(.unknownTable, "There is no such table.", replyTo: replyTo), to: connection)
    return nil
  }

  /// Whether the session may look up another invite code (misses refill over time).
  private mutating func takeGuess(_ token: String, now: Double) -> Bool {
    guard var bucket = misses[token] else { return true }
    let refill = (now - bucket.updated) / configuration.inviteMissRefillSeconds
    bucket.level = max(0, bucket.level - refill)
    bucket.updated = now
    misses[token] = bucket.level == 0 ? nil : bucket
    return bucket.level < Double(configuration.inviteMissBurst)
  }

  /// The setup of a new table, or nil after refusing settings that do not fit the game.
  private mutating func checkSetup(
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

  private mutating func checkGame(_ game: String, replyTo: MessageID?, _ connection: ConnectionID)
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

  /// Whether the session may open one more table (per-session and per-server caps).
  private mutating func checkCanOpen(
    _ session: SessionRegistry.Session, replyTo: MessageID?, _ connection: ConnectionID
  ) -> Bool {
    // A solo table of its own closes the moment the session leaves it: count it as gone. Any
    // other table stays open (for the others, or for its empty-table grace).
    let current = session.tableID.flatMap { slots[$0] }
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
    if slots.count >= configuration.maxTables {
      reply(
        ProtocolError(.serverFull, "The server has no room for another table.", replyTo: replyTo),
        to: connection)
      return false
    }
    return true
  }

  /// The table and seat of a seated session; otherwise replies why not (counted as a refused
  /// move when `isMove`) and returns nil.
  private mutating func seated(
    _ session: SessionRegistry.Session, replyTo: MessageID?, _ connection: ConnectionID,
    isMove: Bool = false
  ) -> (String, Int)? {
    guard let tableID = session.tableID, slots.contains(tableID) else {
      if isMove { ownStatistics.movesRejected[.notAtTable, default: 0] += 1 }
      reply(
        ProtocolError(.notAtTable, "You are not at a table; start a game first.", replyTo: replyTo),
        to: connection)
      return nil
    }
    guard let seat = session.seat else {
      if isMove { ownStatistics.movesRejected[.spectator, default: 0] += 1 }
      reply(
        ProtocolError(.spectator, "Spectators watch; they cannot play.", replyTo: replyTo),
        to: connection)
      return nil
    }
    return (tableID, seat)
  }

  // MARK: - Output

  private mutating func broadcast(_ b: TableBroadcast, at id: String) {
    if b.seatFrames != nil {
      guard let slot = slots[id] else { return }
      Self.deliver(b, in: slot, into: &out)
      return
    }
    guard let recipients = slots[id]?.recipients, !recipients.isEmpty else { return }
    out.append(.send(b.frame, to: recipients))
  }

  /// Sends a broadcast whose seats read it differently: each member gets the frame of its seat
  /// (spectators the whole diff), one send per distinct frame.
  private static func deliver(_ b: TableBroadcast, in slot: Slot, into actions: inout [LobbyAction])
  {
    var groups: [(frame: Frame, to: [ConnectionID])] = []
    for connection in slot.recipients {
      let seat: Int? =
        if case .player(let seat)? = slot.members[connection] { seat } else { nil }
      let frame = b.frame(for: seat)
      if let index = groups.firstIndex(where: { $0.frame === frame }) {
        groups[index].to.append(connection)
      } else {
        groups.append((frame, [connection]))
      }
    }
    for group in groups { actions.append(.send(group.frame, to: group.to)) }
  }

  private mutating func reply(_ error: ProtocolError, to connection: ConnectionID) {
    send(ServerMessage.error(error), to: connection)
  }

  private mutating func send(_ message: JSONValue, to connection: ConnectionID) {
    out.append(.send(Frame(message), to: [connection]))
  }

  private mutating func send(_ frame: Frame, to connection: ConnectionID) {
    out.append(.send(frame, to: [connection]))
  }

  private mutating func takeActions() -> [LobbyAction] {
    if configuration.journal { journalSessions() }
    guard journal.isEmpty else {
      // Journal entries first: the whole batch waits until they are written.
      let actions = journal.map { LobbyAction.journal($0) } + out
      journal = []
      out = []
      return actions
    }
    let actions = out
    out = []
    return actions
  }

  /// Journal entries for the sessions opened, moved or ended by the event.
  private mutating func journalSessions() {
    for token in registry.takeChanged().sorted() {
      if let session = registry.session(token: token) {
        journal.append(
          .session(
            SessionRecord(
              token: token, name: session.name, tableID: session.tableID, seat: session.seat,
              player: session.player)))
      } else {
        journal.append(.sessionEnded(token))
      }
    }
  }

  // MARK: - Restart

  /// Opens again, at `now`, the tables and sessions a journal kept (before any connection):
  /// every seat is held for the reconnect grace period, every session waits for its resume.
  public mutating func restore(_ contents: JournalContents, now: Double) {
    for (record, moves) in contents.tables {
      guard
        let table = GameCatalog.restore(
          record, moves: moves, rules: configuration.tableRules, now: now)
      else { continue }
      slots[record.id] = Slot(table: table, creator: record.creator)
      openedBy[record.creator, default: 0] += 1
    }
    for session in contents.sessions {
      // A session whose table did not come back waits at no table.
      var record = session
      if let id = record.tableID, !slots.contains(id) {
        record.tableID = nil
        record.seat = nil
      }
      registry.restore(record, now: now)
      deadlines.schedule(.session(record.token), at: (now + configuration.reconnectGrace).nextUp)
    }
    _ = registry.takeChanged()
    nextTableNumber = max(nextTableNumber, contents.lastTableNumber + 1)
    for id in slots.keys { tick(id, now: now) }
    // Nothing to send (nobody is connected) and nothing new to write.
    out = []
    journal = []
  }
}
