import Model
import Protocol

/// The lobby and every table as one pure state machine: a router over the ``SessionDesk``
/// (who is who), the ``LobbyFeed`` (the lobby list) and the tables.
///
/// An event goes in (``handle(_:now:)``) — a client's message, a connection gone, the clock
/// reaching a deadline — and actions come out (frames to send, connections to close). Nothing
/// here waits, reads a clock or touches a socket: `now` is a parameter, the next moment anything
/// is due is ``nextDeadline()``, and one event is handled completely before the next, so no
/// interleaving can split a decision. Tests drive it directly; in the server a thin shell runs
/// it (`InlineLobby` on the transport's service thread, or `ShardedLobby` on executor threads).
/// The shells decode messages; the lobby takes them decoded.
public struct LobbyState: Sendable {
  /// What a connection is at a table.
  public enum Role: Hashable, Sendable {
    /// A seated player.
    case player(seat: Int)
    /// A spectator.
    case spectator
  }

  /// Something timed.
  enum Deadline: PartitionKey, Sendable {
    /// A table's countdown, held seats or empty-table grace.
    case table(String)
    /// A detached session's grace period.
    case session(String)
    /// Pending lobby changes go out.
    case lobbyFlush
    /// An arena's clock: its start, pairing passes, end and standings.
    case arena(String)
    /// The schedule's next arena opens.
    case arenaSchedule
    /// A table watched through a link that was lost: look where it is now.
    case remoteWatch(String)
    /// The links say how many spectators each watches for.
    case remoteCounts
  }

  /// The settings.
  public let configuration: LobbyConfiguration
  let entropy: LobbyEntropy
  /// Sessions, resumes and invite-code guesses.
  var desk: SessionDesk
  /// Each connection's client address, as the transport tells it (``noteAddress(_:of:)``).
  var addresses = PartitionedDictionary<ConnectionID, String>()
  /// Unknown invite codes per client address, across sessions and nodes.
  var addressGuesses: AddressGuesses
  /// The lobby list and its watchers.
  var feed: LobbyFeed
  /// The router's map: every open table's host, by table id.
  var hosts: TableShards
  var deadlines = DeadlineQueue<Deadline>()
  /// How many open tables each session (by token hash) opened.
  var openedBy: [String: Int] = [:]
  /// Every open table, and whether it takes turns. Kept here rather than read off the shards,
  /// because ``moveTicket(of:)`` runs holding only the state shared while another thread may
  /// be playing a move at that very table under its shard's lock; this changes only when a
  /// table opens or closes, which takes the whole state.
  var openTables: [String: Bool] = [:]
  var nextTableNumber = 1
  /// The arenas and who follows them.
  var arenaBook = ArenaBook()
  /// Spectators here of tables other nodes hold, watched through links.
  var remote: RemoteWatch
  /// Wall time minus lobby time (``wall(_:)``), once read.
  var wallOffset: Double?
  /// How fast each session may join, leave and create arenas (each journals the arena).
  var arenaAllowances = ChatAllowances()
  /// `hello`s waiting for their session to be looked up in the cluster's database, by
  /// connection (one each at most; dropped with the connection).
  var pendingHellos: [ConnectionID: PendingHello] = [:]
  /// How many lines of chat each session may still say now.
  var chatAllowances = ChatAllowances()
  /// Who started today's daily puzzle on this node (daily sources: day, game, player), and the
  /// day they are of.
  var dailyStarted: Set<String> = []
  var dailyStartedDay = ""
  /// The ratings read from the store of the people who said hello (by the hash of their
  /// player token, then by game; empty: never rated), at most ``LobbyConfiguration/ratingsKept``.
  var ratingsKnown: [String: [String: PlayerRating]] = [:]
  /// How many `redirect`s this lobby sent (a cluster).
  public internal(set) var redirectsSent = 0
  /// Tables this node took over from dead nodes, and tables other nodes took from it.
  public internal(set) var tablesTakenOver = 0
  public internal(set) var tablesGivenUp = 0
  /// Tables of dead nodes this node did not take over: their game is not dealt here (logged).
  public internal(set) var tablesNotAdopted = 0
  /// The actions of the event being handled.
  var out: [LobbyAction] = []
  /// The tables' journal entries of the event being handled (``take(_:)``): written ahead of
  /// every frame of the event, since a table's change may be taken by its clock after the frame
  /// that shows it (a seat taken, then the clock that settles the table).
  var journal: [JournalEntry] = []
  /// Moves refused before they reached a table.
  var ownStatistics = Statistics() {
    didSet { ownDecided += 1 }
  }
  private var ownDecided = 0
  /// Whether the journal cannot be written now (``journalAvailable(_:)``): moves are refused.
  public private(set) var journalDown = false

  /// An empty lobby whose tables are spread over `shards` shards (see ``playingShard(of:)``).
  public init(
    configuration: LobbyConfiguration = LobbyConfiguration(), entropy: LobbyEntropy,
    shards: Int = 1
  ) {
    self.configuration = configuration
    self.entropy = entropy
    self.desk = SessionDesk(configuration: configuration)
    self.addressGuesses = AddressGuesses(
      burst: configuration.inviteMissAddressBurst,
      refillSeconds: configuration.inviteMissAddressRefillSeconds,
      capacity: configuration.inviteMissAddresses)
    self.feed = LobbyFeed(
      flushInterval: configuration.lobbyFlushInterval, publishes: configuration.cluster)
    self.hosts = TableShards(count: shards)
    self.remote = RemoteWatch(name: "node \(configuration.nodeID)", key: configuration.linkKey)
  }

  // MARK: - Reading

  /// What the lobby has decided so far: its own refusals and every shard's moves.
  public var statistics: Statistics {
    precondition(!hosts.lent, "the shards are lent: take them back first")
    var total = ownStatistics
    for shard in hosts.shards {
      total.movesAccepted += shard.movesAccepted
      total.movesRejected.merge(shard.movesRejected, uniquingKeysWith: +)
    }
    return total
  }

  /// Moves accepted so far (``statistics``' first count, without adding up the refusals).
  public var movesAccepted: Int {
    precondition(!hosts.lent, "the shards are lent: take them back first")
    return hosts.shards.reduce(ownStatistics.movesAccepted) { $0 + $1.movesAccepted }
  }

  /// A number that grows whenever a move is refused (``statistics``' refusals change): with
  /// ``movesAccepted`` a reader knows what changed before it adds up the statistics, which
  /// costs a merge of every shard's refusals.
  public var refusalStamp: Int {
    precondition(!hosts.lent, "the shards are lent: take them back first")
    return hosts.shards.reduce(ownDecided) { $0 + $1.movesDecided }
  }

  /// How many tables are open.
  public var tableCount: Int { hosts.tableCount }

  /// How many sessions exist (attached or waiting for a resume).
  public var sessionCount: Int { desk.registry.count }

  /// The earliest moment a ``LobbyEvent/clock`` has something to do, if any.
  public mutating func nextDeadline() -> Double? { deadlines.earliest() }

  /// The table with `id`, if open.
  public func table(_ id: String) -> (any TableArbiter)? { hosts[id]?.table }

  /// Table `id`'s host (everything the table is), if open.
  public func host(of id: String) -> TableHost? { hosts[id] }

  /// The connections at table `id` and what they are there.
  public func members(of id: String) -> PartitionedDictionary<ConnectionID, Role> {
    hosts[id]?.members ?? [:]
  }

  /// Every open table's id.
  public var tableIDs: [String] { hosts.keys }

  /// How many open tables there are by game and phase, kept as tables open, change and close
  /// (``TableTally``). Not while the shards are lent.
  public var tableTally: TableTally {
    precondition(!hosts.lent, "the shards are lent: take them back first")
    return hosts.tally
  }

  /// How many shards the tables are spread over.
  public var shardCount: Int { hosts.count }

  /// Every session.
  public var sessions: [SessionRegistry.Session] { desk.registry.all }

  /// The session a connection holds.
  public func session(for connection: ConnectionID) -> SessionRegistry.Session? {
    desk.session(for: connection)
  }

  /// The lobby directory (the public list and invite codes).
  public var tableDirectory: TableDirectory { feed.directory }

  /// Connections subscribed to the lobby list.
  public var lobbyWatchers: Set<ConnectionID> { feed.watchers }

  // MARK: - Events

  /// The one entry point: `event` happens at `now`; returns what to do about it, in order.
  public mutating func handle(_ event: LobbyEvent, now: Double) -> [LobbyAction] {
    precondition(!hosts.lent, "the shards are lent: take them back first")
    switch event {
    case .message(let connection, .success(let envelope)):
      handle(envelope, from: connection, now: now)
    case .message(let connection, .failure(let error)):
      reply(error, to: connection)
    case .disconnected(let connection):
      disconnect(connection, now: now)
    case .clock:
      runDue(now: now)
    case .cluster(let news):
      hear(news, now: now)
    case .linkOpened(let link):
      out += remote.linkOpened(link)
    case .linkMessage(let link, let bytes):
      out += remote.linkMessage(link, bytes)
    }
    return takeActions()
  }

  /// ``handle(_:now:)`` of a message from `connection`, decoded by the caller.
  public mutating func receive(
    _ decoded: Result<ClientEnvelope, ProtocolError>, from connection: ConnectionID, now: Double
  ) -> [LobbyAction] {
    handle(.message(connection, decoded), now: now)
  }

  /// ``handle(_:now:)`` of `connection` gone.
  public mutating func disconnected(_ connection: ConnectionID, now: Double) -> [LobbyAction] {
    handle(.disconnected(connection), now: now)
  }

  /// `connection` comes from the client address `address` (the transport's word, a trusted
  /// proxy's forwarded address included): its unknown invite codes count against it too.
  /// Told before the connection's first message; forgotten when it goes.
  public mutating func noteAddress(_ address: String, of connection: ConnectionID) {
    addresses[connection] = address
  }

  /// ``handle(_:now:)`` of the clock at `now`.
  public mutating func advance(to now: Double) -> [LobbyAction] {
    handle(.clock, now: now)
  }

  /// The connection has gone: its session waits for a resume; its seat is held for the grace
  /// period (the others see it "away"); a spectator stops watching.
  private mutating func disconnect(_ connection: ConnectionID, now: Double) {
    if connection.isLink {
      linkLost(connection, now: now)
      return
    }
    out += remote.unwatch(connection)
    addresses[connection] = nil
    feed.unwatch(connection)
    forgetArenaFollower(connection)
    pendingHellos[connection] = nil
    if let (session, expiresAt) = desk.detach(connection, now: now) {
      deadlines.schedule(.session(session.token), at: expiresAt)
      if let tableID = session.tableID { leaveOnDisconnect(session, connection, tableID, now) }
    }
  }

  /// Moves time on to `now`: whatever is due happens (countdowns end, held seats and detached
  /// sessions expire, empty tables close, pending lobby changes go out).
  private mutating func runDue(now: Double) {
    // What is handled can make something else due at once (a table that closes queues a lobby
    // change); a few rounds settle it, and no deadline re-arms itself at `now`.
    for _ in 0..<4 {
      let due = deadlines.popDue(now: now)
      if due.isEmpty { break }
      for deadline in due {
        switch deadline {
        case .table(let id): settle(id, now: now)
        case .session(let token): desk.expire(token: token, now: now)
        case .lobbyFlush: flushLobby(now: now)
        case .arena(let id): runArena(id, now: now)
        case .arenaSchedule: openScheduledArenas(now: now)
        case .remoteWatch(let table): findWatchedTable(table, now: now)
        case .remoteCounts: reportRemoteCounts(now: now)
        }
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

  // MARK: - The lobby list

  /// Tells the feed of table `id`'s current row at `now` (if it is open), scheduling a flush if
  /// one is due.
  mutating func publishRow(of id: String, now: Double) {
    guard
      let (listing, code, isPrivate) = hosts.readTable(
        id, { ($0.listing, $0.code, $0.isPrivate) })
    else { return }
    var row = listing
    if configuration.cluster { row.node = configuration.nodeID }
    if let at = feed.update(row, code: code, isPrivate: isPrivate, now: now) {
      deadlines.schedule(.lobbyFlush, at: at)
    }
  }

  /// Takes table `id` off the list at `now`, scheduling a flush if one is due.
  mutating func unlist(_ id: String, now: Double) {
    if let at = feed.remove(id, now: now) { deadlines.schedule(.lobbyFlush, at: at) }
  }

  /// Publishes the pending lobby changes as one `lobbyDiff`.
  mutating func flushLobby(now: Double) {
    deadlines.schedule(.lobbyFlush, at: nil)
    if let (frame, watchers) = feed.flush(now: now) { out.append(.send(frame, to: watchers)) }
  }

  // MARK: - Output

  mutating func reply(_ error: ProtocolError, to connection: ConnectionID) {
    send(ServerMessage.error(error), to: connection)
  }

  mutating func send(_ message: JSONValue, to connection: ConnectionID) {
    out.append(.send(Frame(message), to: [connection]))
  }

  mutating func send(_ frame: Frame, to connection: ConnectionID) {
    out.append(.send(frame, to: [connection]))
  }

  /// Takes a table's `outcome` into the event's: its journal entries with the event's, its
  /// actions after the event's (the one way a host's outcome reaches the whole state's actions;
  /// on a lent shard, ``TableHost/Outcome/emit(into:)``, the same for an event of one outcome).
  mutating func take(_ outcome: TableHost.Outcome) {
    // Most events take one outcome: its arrays become the event's, with no copy.
    if journal.isEmpty { journal = outcome.journal } else { journal += outcome.journal }
    if out.isEmpty { out = outcome.actions } else { out += outcome.actions }
  }

  /// The event's actions: its journal entries first (``journalFirst(_:into:)``: the tables',
  /// then the sessions'), then what it decided.
  mutating func takeActions() -> [LobbyAction] {
    if configuration.journal {
      journal += desk.takeJournal()
    } else {
      // Nothing to write: what changed is forgotten, so it does not pile up.
      desk.forgetChanges()
    }
    if configuration.cluster, let changes = feed.takePublications() {
      out.append(.publish(changes))
    }
    var actions: [LobbyAction] = []
    if journal.isEmpty {
      swap(&actions, &out)
    } else {
      actions.reserveCapacity(journal.count + out.count)
      Self.journalFirst(journal, into: &actions)
      journal = []
      actions += out
      out = []
    }
    return actions
  }

  /// Appends a decision's journal entries to `actions` ahead of its frames: the shell writes
  /// them down before it lets any action after them out, so nobody sees a change the journal
  /// could lose. Every decision puts its entries in the actions through here.
  static func journalFirst(_ entries: [JournalEntry], into actions: inout [LobbyAction]) {
    for entry in entries { actions.append(.journal(entry)) }
  }
}
