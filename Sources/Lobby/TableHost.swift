import Model
import Protocol

/// Everything one table is, as one value: its game (seats, phases, votes, the diffs kept for
/// catching up and the journal entries not yet taken, all in its ``TableArbiter``), the
/// connections at it and what each of them is there, the session that opened it, and how long
/// it stays open once nobody sits.
///
/// A ``TableHost/Event`` goes in (``handle(_:now:)``) and an ``Outcome`` comes out: the frames
/// for its members (or for the connection that asked), its journal entries, and what the router
/// has to know (a seat taken, seats the clock gave back, its next deadline, that it closes).
/// Nothing here reads a clock, waits or touches a socket, and nothing about a table lives
/// outside it but the router's map from table id to host (``LobbyState``) and the lobby list's
/// copy of its row. Rebuilt from the journal (`GameCatalog.reopen`, then
/// ``init(table:creator:emptyTableGrace:)``, as ``LobbyState/restore(_:now:)`` does), it can be
/// taken out of one process and opened in another: the seam for many nodes.
public struct TableHost: Sendable {
  /// The game at the table.
  public internal(set) var table: any TableArbiter
  /// The spectators' snapshot, encoded once for a crowd arriving at once.
  public private(set) var crowdSnapshots = CrowdSnapshotEncoder()
  /// Every connection at the table, and what it is there.
  public private(set) var members = PartitionedDictionary<ConnectionID, LobbyState.Role>()
  /// The players' connections (`members` with a seat), kept in step: a broadcast builds no array.
  public private(set) var players = MemberList()
  /// The spectators' connections, kept in step: they hear each change after the players, as a
  /// crowd (``LobbyAction/sendToCrowd(_:to:)``).
  public private(set) var watchers = MemberList()
  /// When the members next hear how many watch (``CrowdCount``).
  public internal(set) var crowd = CrowdCount()
  /// Spectators that are other nodes' links, and how many spectators each watches for: each
  /// counts as that many in the table's count, not one.
  public private(set) var crowdWeights = PartitionedDictionary<ConnectionID, Int>()
  /// The session (by token) of every member, kept in step with `members`. With the seats'
  /// tokens (held seats included) these are the table's sessions: the host says where each
  /// went (``Outcome/placed``), and the router's desk follows (``LobbyState/place(_:at:)``).
  public private(set) var sessions = PartitionedDictionary<ConnectionID, String>()
  /// The session (by token) that opened the table: the lobby's per-session cap counts it.
  public let creator: String
  /// How long the table stays open once nobody sits, in seconds: none for a solo table.
  public let emptyGrace: Double

  /// A host for `table`, opened by `creator`, that closes `emptyTableGrace` seconds after its
  /// last player leaves (a solo table at once).
  public init(table: any TableArbiter, creator: String, emptyTableGrace: Double) {
    self.table = table
    self.creator = creator
    self.emptyGrace = table.listing.seats == 1 ? 0 : emptyTableGrace
  }

  /// Something that happens at the table.
  public enum Event: Sendable {
    /// A session sits in the lowest free seat; `connection` gets the snapshot, the members
    /// already there the diff. `ratings`: what is known of the ratings at the table's game of
    /// the people seated and of the newcomer, shown in the snapshot and told to the members.
    case sit(
      token: String, name: String, player: String?, ratings: [String: PlayerRating] = [:],
      connection: ConnectionID, replyTo: MessageID?)
    /// The creator of a solo table (session `token`), seated when it was dealt, comes to it.
    case enterSolo(token: String, connection: ConnectionID, replyTo: MessageID?)
    /// The session `token` starts watching.
    case watch(token: String, connection: ConnectionID, replyTo: MessageID?)
    /// The session `token` leaves for good: its connection (if it has one) stops being a member,
    /// its seat (if it has one) is free again.
    case leave(token: String, connection: ConnectionID?, seat: Int?)
    /// A member's connection dropped: a spectator stops watching, a player's seat is held.
    case drop(connection: ConnectionID)
    /// The session `token`, at the table already, is back on `connection` (in place of
    /// `replacing`): it gets the diffs it missed after `version`, or a snapshot; a held seat is
    /// taken back.
    case rejoin(
      token: String, connection: ConnectionID, replacing: ConnectionID?, seat: Int?, version: Int?)
    /// The player at `seat` chooses a card.
    case choose(card: Int, seat: Int, connection: ConnectionID, replyTo: MessageID?)
    /// The host at `seat` starts a waiting table.
    case start(seat: Int, connection: ConnectionID, replyTo: MessageID?)
    /// The host at `seat` takes the offer of a computer player of `level`.
    case addComputer(seat: Int, level: BotLevel, connection: ConnectionID, replyTo: MessageID?)
    /// The player at `seat` asks for a re-deal.
    case redeal(seat: Int, connection: ConnectionID, replyTo: MessageID?)
    /// A member (`seat` nil: a spectator) says `text` under `name`.
    case chat(text: String, name: String, seat: Int?, connection: ConnectionID, replyTo: MessageID?)
    /// Time moves on to `now`: what is due happens (a countdown ends, a held seat is given
    /// back, a vote that reached its majority carries).
    case clock
    /// What is known of people's ratings at the table's game (by the hash of their player
    /// token): shown beside their names, told to the members when it changed.
    case ratings([String: PlayerRating])
    /// The spectator on `connection` is another node's link, watching for `count` spectators
    /// of its own: the table's count takes it as that many (``crowdWeights``).
    case weigh(connection: ConnectionID, count: Int)
  }

  /// Where a session of the table went: what the router's desk must know of it.
  public enum Placement: Equatable, Sendable {
    /// The session `token` sits at the table in `seat`.
    case seated(String, seat: Int)
    /// The session `token` watches the table.
    case watching(String)
    /// The session `token` is no longer at the table (it left, its spectator's connection
    /// dropped, its held seat was given back, the table closed).
    case gone(String)
    /// Another node took the table over: the session `token` is that node's now.
    case handedOn(String)
  }

  /// What an event did.
  public struct Outcome: Sendable {
    /// Frames to send, in order.
    public var actions: [LobbyAction] = []
    /// The table's journal entries: written before any frame of the event may leave. The one
    /// channel for every event's entries, a move's included; ``emit(into:)`` puts them ahead of
    /// the frames (``LobbyState/journalFirst(_:into:)``).
    public var journal: [JournalEntry] = []
    /// The refusal sent back (in `actions`) when the table changed nothing.
    public var refusal: ProtocolError?
    /// The seat a ``Event/sit(token:name:player:ratings:connection:replyTo:)`` took.
    public var seat: Int?
    /// Where the event took the table's sessions, in order: the one account of who is at the
    /// table that the router keeps (``LobbyState/place(_:at:)``).
    public var placed: [Placement] = []
    /// What a dropped or leaving connection was at the table.
    public var role: LobbyState.Role?
    /// After ``Event/clock``: when the table next needs the clock.
    public var deadline: Double?
    /// After ``Event/clock``: nobody sits and the empty table's grace is over; it closes now.
    public var closes = false
  }

  /// `event` happens at `now`.
  public mutating func handle(_ event: Event, now: Double) -> Outcome {
    var outcome = Outcome()
    // The crowd's shared snapshot is kept while spectators arrive, and let go at anything else
    // that reaches the table (it would likely differ after it): a table in play does not keep
    // one it would not reuse.
    if crowdSnapshots.isHolding {
      switch event {
      case .watch, .rejoin, .clock, .weigh: break
      default: crowdSnapshots.forget()
      }
    }
    switch event {
    case .sit(let token, let name, let player, let ratings, let connection, let replyTo):
      sit(token, name, player, ratings, connection, replyTo, now, &outcome)
    case .enterSolo(let token, let connection, let replyTo):
      add(connection, as: .player(seat: 0), token: token)
      outcome.seat = 0
      outcome.placed.append(.seated(token, seat: 0))
      send(table.snapshot(replyTo: replyTo, you: 0, now: now), to: connection, &outcome)
    case .watch(let token, let connection, let replyTo):
      add(connection, as: .spectator, token: token)
      outcome.placed.append(.watching(token))
      outcome.actions.append(
        .send(crowdSnapshot(replyTo: replyTo, now: now), to: [connection]))
    case .leave(let token, let connection, let seat):
      outcome.role = connection.flatMap { remove($0) }
      outcome.placed.append(.gone(token))
      if let seat, let b = table.release(seat: seat, now: now) {
        deliver(b, into: &outcome.actions)
      }
    case .drop(let connection):
      let token = sessions[connection]
      outcome.role = remove(connection)
      // A spectator is gone with its connection; a player's seat is held for them.
      if outcome.role == .spectator, let token { outcome.placed.append(.gone(token)) }
      if case .player(let seat)? = outcome.role, let b = table.disconnect(seat: seat, now: now) {
        deliver(b, into: &outcome.actions)
      }
    case .rejoin(let token, let connection, let replacing, let seat, let version):
      rejoin(
        token, connection, replacing: replacing, seat: seat, version: version, now, &outcome)
    case .choose(let card, let seat, let connection, let replyTo):
      let result = table.choose(card: card, by: seat, replyTo: replyTo, now: now)
      outcome.journal = table.takeJournal(creator: creator)
      outcome.refusal = answer(result, connection, into: &outcome.actions)
      // A game it ended may be rated: the question counts among the mover's.
      askRatings(for: connection, into: &outcome.actions)
      return outcome
    case .start(let seat, let connection, let replyTo):
      outcome.refusal = answer(
        table.start(by: seat, replyTo: replyTo, now: now), connection, into: &outcome.actions)
    case .addComputer(let seat, let level, let connection, let replyTo):
      outcome.refusal = answer(
        table.addComputer(by: seat, level: level, replyTo: replyTo, now: now), connection,
        into: &outcome.actions)
    case .redeal(let seat, let connection, let replyTo):
      outcome.refusal = answer(
        table.requestRedeal(by: seat, replyTo: replyTo, now: now), connection,
        into: &outcome.actions)
    case .chat(let text, let name, let seat, let connection, let replyTo):
      chat(text, name: name, seat: seat, connection: connection, replyTo: replyTo, now, &outcome)
    case .clock:
      clock(now, &outcome)
      outcome.journal = table.takeJournal(creator: creator)
    case .ratings(let known):
      if let frame = table.rate(known) { toEveryone(frame, into: &outcome.actions) }
    case .weigh(let connection, let count):
      guard members[connection] == .spectator else { break }
      crowdWeights[connection] = count
      countCrowd()
    }
    askRatings(
      for: players.ids.first ?? watchers.ids.first ?? ConnectionID(0), into: &outcome.actions)
    return outcome
  }

  /// When a rated game just ended: the question for its players' new ratings, asked once the
  /// game is written (on behalf of `connection`, whose questions it counts among).
  mutating func askRatings(for connection: ConnectionID, into actions: inout [LobbyAction]) {
    guard let players = table.takeRatedPlayers() else { return }
    actions.append(
      .query(
        RecordRequest(
          connection: connection, replyTo: nil, kind: .ratings(players: players, table: table.id)
        )))
  }

  /// The frame a broadcast `b` sends each member: each seat the frame of its seat, one send per
  /// distinct frame; then the whole diff to the spectators, as a crowd. Players first: nobody
  /// seated waits behind the crowd's sockets.
  public func deliver(_ b: TableBroadcast, into actions: inout [LobbyAction]) {
    if b.seatFrames == nil {
      if !players.isEmpty { actions.append(.send(b.frame, to: players.ids)) }
    } else {
      var groups: [(frame: Frame, to: [ConnectionID])] = []
      for connection in players.ids {
        let seat: Int? =
          if case .player(let seat)? = members[connection] { seat } else { nil }
        let frame = b.frame(for: seat)
        if let index = groups.firstIndex(where: { $0.frame === frame }) {
          groups[index].to.append(connection)
        } else {
          groups.append((frame, [connection]))
        }
      }
      for group in groups { actions.append(.send(group.frame, to: group.to)) }
    }
    if !watchers.isEmpty { actions.append(.sendToCrowd(b.frame(for: nil), to: watchers.ids)) }
  }

  /// `frame` for every member: the players, then the crowd.
  func toEveryone(_ frame: Frame, into actions: inout [LobbyAction]) {
    if !players.isEmpty { actions.append(.send(frame, to: players.ids)) }
    if !watchers.isEmpty { actions.append(.sendToCrowd(frame, to: watchers.ids)) }
  }

  // MARK: - Members

  /// Every member's connection: the players', then the spectators'.
  public var recipients: [ConnectionID] { players.ids + watchers.ids }

  mutating func add(_ connection: ConnectionID, as role: LobbyState.Role, token: String) {
    if let old = members.updateValue(role, forKey: connection) { unlist(connection, old) }
    switch role {
    case .player: players.insert(connection)
    case .spectator: watchers.insert(connection)
    }
    sessions[connection] = token
    if role == .spectator { countCrowd() }
  }

  @discardableResult
  mutating func remove(_ connection: ConnectionID) -> LobbyState.Role? {
    guard let role = members.removeValue(forKey: connection) else { return nil }
    unlist(connection, role)
    sessions[connection] = nil
    return role
  }

  private mutating func unlist(_ connection: ConnectionID, _ role: LobbyState.Role) {
    switch role {
    case .player: players.remove(connection)
    case .spectator:
      watchers.remove(connection)
      crowdWeights[connection] = nil
      countCrowd()
    }
  }

  /// The crowd changed: the table's count follows, and the members hear it (``CrowdCount``).
  private mutating func countCrowd() {
    let count = watchers.count + crowdWeights.values.reduce(0, +) - crowdWeights.count
    guard table.spectators != count else { return }
    table.setSpectators(count)
    crowd.change()
  }

  /// A spectator's snapshot of the table at `now`, answering `replyTo`: the crowd's shared
  /// encoding while the table shows the same (``CrowdSnapshotEncoder``).
  mutating func crowdSnapshot(replyTo: MessageID?, now: Double) -> Frame {
    crowdSnapshots.frame(
      replyTo: replyTo, spectators: table.spectators,
      snapshot: table.snapshot(replyTo: nil, you: nil, now: now))
  }
}

extension TableHost {
  /// How a table leaves this node.
  public enum Retirement: Sendable {
    /// Nobody is left to wait for: the journal forgets it, its members hear they `left`.
    case closed
    /// Another node took it over: its members are closed at once (nothing held for them is
    /// shown), and the journal is not told (the table is not this node's to write).
    case givenUp
  }

  /// The table leaves this node `how`: what its members and the journal are told. The one
  /// retirement of a table (``LobbyState/retire(_:_:now:)`` takes it off the router's books).
  public func retire(_ how: Retirement) -> Outcome {
    var outcome = Outcome()
    switch how {
    case .closed:
      outcome.journal = table.closingJournal()
      toEveryone(Frame(ServerMessage.left(replyTo: nil)), into: &outcome.actions)
      // Its sessions, members' and held seats', are at no table now.
      outcome.placed = tableSessions.map(Placement.gone)
    case .givenUp:
      // Every session at the table goes with it.
      outcome.placed = tableSessions.map(Placement.handedOn)
      for connection in recipients {
        outcome.actions.append(
          .closeAtOnce(
            connection, code: CloseCode.tableMoved, reason: "table moved; connect again"))
      }
    }
    return outcome
  }
}

extension TableHost {
  /// Every session at the table: its members' (in the order they came), then those of seats
  /// held for someone whose connection dropped.
  public var tableSessions: [String] {
    var tokens = recipients.compactMap { sessions[$0] }
    for token in table.seatTokens where !tokens.contains(token) { tokens.append(token) }
    return tokens
  }
}

extension TableHost.Outcome {
  /// The outcome as a shell carries it out, appended to `actions`: its journal entries first
  /// (``LobbyState/journalFirst(_:into:)``), then its frames: for a move played on a lent shard
  /// (in the whole state, ``LobbyState/take(_:)`` gathers an event's outcomes the same way).
  public func emit(into actions: inout [LobbyAction]) {
    // A move that journals nothing into an event that has done nothing else: its frames are
    // the actions, with no copy.
    if journal.isEmpty && actions.isEmpty {
      actions = self.actions
      return
    }
    actions.reserveCapacity(actions.count + journal.count + self.actions.count)
    LobbyState.journalFirst(journal, into: &actions)
    actions += self.actions
  }
}
