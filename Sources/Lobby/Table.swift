import Model
import Protocol

/// One table: an actor that owns a ``TableState`` and the connections at it. Changes are
/// applied one at a time, in the order they reach the actor; that order is the arbitration.
public actor Table<Card: WireCard> {
  /// What a connection is at the table.
  public enum Role: Hashable, Sendable {
    case player(seat: Int)
    case spectator
  }

  /// The table's public id.
  public nonisolated let id: String
  /// The invite code.
  public nonisolated let code: String
  /// Whether it is left out of the lobby list.
  public nonisolated let isPrivate: Bool
  private var state: TableState<Card>
  private var members: [ConnectionID: Role] = [:]
  private let outbound: any Outbound

  /// Wraps a table state.
  public init(state: TableState<Card>, outbound: any Outbound) {
    self.id = state.id
    self.code = state.code
    self.isPrivate = state.isPrivate
    self.state = state
    self.outbound = outbound
  }

  /// Opens a solo table already playing, with one seat for `name`.
  public init(
    id: String, settings: GameSettings, seed: UInt64, names: [String], outbound: any Outbound,
    code: String = "", rules: TableRules = TableRules()
  ) {
    self.init(
      state: TableState(
        id: id, settings: settings, seed: seed, names: names, code: code, rules: rules),
      outbound: outbound)
  }

  /// The lobby's row for this table.
  public var listing: TableListing { state.listing }

  /// How many connections are at the table.
  public var memberCount: Int { members.count }

  /// The current version.
  public var version: Int { state.version }

  /// The game's record (settings, seed, moves): for persistence and verification, never the wire.
  public var record: GameRecord { state.record }

  /// Since when nobody has been seated (nil while someone is).
  public var emptySince: Double? { state.emptySince }

  /// When the table next needs a ``tick(now:)``.
  public var nextDeadline: Double? { state.nextDeadline }

  /// Adds a connection that already holds `seat` (a solo table's owner), with a snapshot.
  public func join(_ connection: ConnectionID, seat: Int?, replyTo: MessageID?, now: Double = 0) {
    members[connection] = seat.map { .player(seat: $0) } ?? .spectator
    sendSnapshot(to: connection, replyTo: replyTo, now: now)
  }

  /// Seats the session `token` and sends the newcomer a snapshot.
  public func sit(
    _ connection: ConnectionID, token: String, name: String, replyTo: MessageID?, now: Double
  ) -> Result<Int, ProtocolError> {
    switch state.sit(token: token, name: name, replyTo: replyTo, now: now) {
    case .failure(let error):
      return .failure(error)
    case .success(let (seat, broadcast)):
      send(broadcast)
      members[connection] = .player(seat: seat)
      sendSnapshot(to: connection, replyTo: replyTo, now: now)
      return .success(seat)
    }
  }

  /// Adds a spectator (refused past `limit`) and sends a snapshot.
  public func watch(_ connection: ConnectionID, replyTo: MessageID?, limit: Int, now: Double)
    -> Result<Void, ProtocolError>
  {
    guard state.spectators < limit else {
      return .failure(
        ProtocolError(
          .spectatorLimit, "This table has as many spectators as it takes.", replyTo: replyTo))
    }
    if let b = state.setSpectators(state.spectators + 1) { send(b) }
    members[connection] = .spectator
    sendSnapshot(to: connection, replyTo: replyTo, now: now)
    return .success(())
  }

  /// Takes a connection away: a spectator stops watching; a player's seat is released when
  /// `releaseSeat`, or held for a reconnect otherwise.
  public func remove(_ connection: ConnectionID, releaseSeat: Bool, now: Double) {
    guard let role = members.removeValue(forKey: connection) else { return }
    switch role {
    case .spectator:
      if let b = state.setSpectators(max(0, state.spectators - 1)) { send(b) }
    case .player(let seat):
      let b =
        releaseSeat ? state.release(seat: seat, now: now) : state.disconnect(seat: seat, now: now)
      if let b { send(b) }
    }
  }

  /// A session's seat is released (its grace period passed elsewhere, or it left).
  public func release(seat: Int, now: Double) {
    for (connection, role) in members where role == .player(seat: seat) {
      members[connection] = nil
    }
    if let b = state.release(seat: seat, now: now) { send(b) }
  }

  /// A session comes back: it gets the diffs it missed after `version` (and the status), or a
  /// snapshot; a held seat is reclaimed and everyone is told.
  public func rejoin(
    _ connection: ConnectionID, seat: Int?, version: Int?, replyTo: MessageID?, now: Double
  ) {
    members[connection] = seat.map { .player(seat: $0) } ?? .spectator
    catchUp(connection, after: version, replyTo: replyTo, now: now)
    if let seat, let b = state.reconnect(seat: seat) { send(b) }
  }

  /// A session moved to a new connection while the old one was still here: the new one takes
  /// the old one's place without anyone seeing the player leave.
  public func handOver(
    from old: ConnectionID, to new: ConnectionID, version: Int?, replyTo: MessageID?, now: Double
  ) {
    guard let role = members.removeValue(forKey: old) else {
      rejoin(new, seat: nil, version: version, replyTo: replyTo, now: now)
      return
    }
    members[new] = role
    catchUp(new, after: version, replyTo: replyTo, now: now)
  }

  /// Sends the diffs missed after `version` and the current status, or a snapshot when they are
  /// gone (or no version was given).
  private func catchUp(
    _ connection: ConnectionID, after version: Int?, replyTo: MessageID?, now: Double
  ) {
    if let version, let missed = state.diffs(after: version) {
      for diff in missed { outbound.send(diff, to: [connection]) }
      outbound.send(state.statusMessage.encoded, to: [connection])
    } else {
      sendSnapshot(to: connection, replyTo: replyTo, now: now)
    }
  }

  /// Sends `connection` a fresh snapshot (and the current status line).
  public func sendSnapshot(to connection: ConnectionID, replyTo: MessageID?, now: Double = 0) {
    let you: Int? =
      if case .player(let seat)? = members[connection] { seat } else { nil }
    outbound.send(state.snapshot(replyTo: replyTo, you: you, now: now).encoded, to: [connection])
    outbound.send(state.statusMessage.encoded, to: [connection])
  }

  /// Applies a move from `connection`: broadcasts the diff and status, or answers with an error.
  public func play(_ move: Move, replyTo: MessageID?, from connection: ConnectionID) {
    switch state.play(move, replyTo: replyTo) {
    case .success(let (_, b)): send(b)
    case .failure(let error): reply(error, to: connection)
    }
  }

  /// A re-deal asked for by `seat`: at once for the host or a solo table, otherwise a vote.
  public func redeal(by seat: Int, replyTo: MessageID?, from connection: ConnectionID) {
    switch state.requestRedeal(by: seat, replyTo: replyTo) {
    case .success(let b): send(b)
    case .failure(let error): reply(error, to: connection)
    }
  }

  /// The host starts the table.
  public func start(by seat: Int, replyTo: MessageID?, from connection: ConnectionID, now: Double) {
    switch state.start(by: seat, replyTo: replyTo, now: now) {
    case .success(let b): send(b)
    case .failure(let error): reply(error, to: connection)
    }
  }

  /// Moves time on; returns the session tokens whose seats were released.
  public func tick(now: Double) -> [String] {
    let (broadcasts, released) = state.tick(now: now)
    for b in broadcasts { send(b) }
    return released
  }

  /// Tells every remaining member the table is gone, and forgets them.
  public func close() {
    let everyone = Array(members.keys)
    if !everyone.isEmpty { outbound.send(ServerMessage.left(replyTo: nil).encoded, to: everyone) }
    members = [:]
  }

  private func send(_ b: TableState<Card>.Broadcast) {
    let everyone = Array(members.keys)
    guard !everyone.isEmpty else { return }
    outbound.send(b.encodedDiff, to: everyone)
    outbound.send(b.encodedStatus, to: everyone)
  }

  private func reply(_ error: ProtocolError, to connection: ConnectionID) {
    outbound.send(ServerMessage.error(error).encoded, to: [connection])
  }
}
