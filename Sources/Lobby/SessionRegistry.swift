/// Who is who: sessions by token, and which connection holds each. A pure value; the
/// lobby's ``SessionDesk`` owns one.
///
/// A session outlives its connection: when the connection drops, the session is detached and
/// kept for a grace period, so `hello` with its token can take it back.
public struct SessionRegistry: Sendable {
  /// One player's session.
  public struct Session: Hashable, Sendable {
    /// The secret that resumes the session.
    public let token: String
    /// The display name.
    public var name: String
    /// The connection holding the session, or nil while detached.
    public var connection: ConnectionID?
    /// The table the session sits at.
    public var tableID: String?
    /// The seat at that table.
    public var seat: Int?
    /// When the session lost its connection (seconds on the lobby's clock).
    public var detachedSince: Double?
    /// The hash of the person's player token (``ClientMessage/hello(name:resume:version:player:)``),
    /// or nil.
    public var player: String? = nil
  }

  private var sessions = PartitionedDictionary<SessionKey, Session>()
  /// The key of the session each connection holds (its token's hash taken once).
  private var tokens = PartitionedDictionary<ConnectionID, SessionKey>()
  /// Sessions opened, seated elsewhere or ended since ``takeChanged()`` (for the journal).
  private var changed: Set<String> = []
  /// Whether the table a spectator watches counts as a change for the journal. A restart never
  /// puts a spectator back at its table (``SessionDesk/restore(_:now:open:)``), so a server on
  /// its own keeps no spectator's table, and a crowd that comes, goes or reconnects writes
  /// nothing for it; a cluster's nodes read it (a session found on another node goes there to
  /// watch).
  public let journalsWatching: Bool

  /// Creates an empty registry; `journalsWatching` as ``journalsWatching``.
  public init(journalsWatching: Bool = true) {
    self.journalsWatching = journalsWatching
  }

  /// How many sessions exist, attached or not.
  public var count: Int { sessions.count }

  /// The session `connection` holds, if it said hello.
  public func session(for connection: ConnectionID) -> Session? {
    tokens[connection].flatMap { sessions[$0] }
  }

  /// The session with `token`.
  public func session(token: String) -> Session? { sessions[SessionKey(token)] }

  /// Opens a new session for `connection`.
  public mutating func open(
    token: String, name: String, player: String? = nil, connection: ConnectionID
  ) -> Session {
    let session = Session(token: token, name: name, connection: connection, player: player)
    let key = SessionKey(token)
    sessions[key] = session
    tokens[connection] = key
    changed.insert(token)
    return session
  }

  /// Gives the session with `token` to `connection`. Returns the session and the connection that
  /// held it before (which must be closed), or nil when there is no such session.
  public mutating func resume(token: String, connection: ConnectionID) -> (
    session: Session, replaced: ConnectionID?
  )? {
    let key = SessionKey(token)
    guard var session = sessions[key] else { return nil }
    let previous = session.connection
    if let previous { tokens[previous] = nil }
    session.connection = connection
    session.detachedSince = nil
    sessions[key] = session
    tokens[connection] = key
    return (session, previous == connection ? nil : previous)
  }

  /// The session `token` now belongs to the person `player` (a resume that says who it is).
  public mutating func setPlayer(token: String, _ player: String) {
    let key = SessionKey(token)
    guard let session = sessions[key], session.player != player else { return }
    sessions[key]?.player = player
    changed.insert(token)
  }

  /// Seats the session of `token` at a table (or nowhere); `seat` nil: it watches the table.
  public mutating func seat(token: String, tableID: String?, seat: Int?) {
    let key = SessionKey(token)
    let before = sessions[key]
    guard before?.tableID != tableID || before?.seat != seat else { return }
    sessions[key]?.tableID = tableID
    sessions[key]?.seat = seat
    // From watching or nowhere to watching or nowhere: nothing the journal keeps changed.
    guard journalsWatching || before == nil || before?.seat != nil || seat != nil else { return }
    changed.insert(token)
  }

  /// The table the journal keeps for `session`: none for a spectator unless
  /// ``journalsWatching``.
  public func journaledTable(of session: Session) -> String? {
    session.seat == nil && !journalsWatching ? nil : session.tableID
  }

  /// A session read back from the journal after a restart: detached since `now`.
  public mutating func restore(_ record: SessionRecord, now: Double) {
    sessions[SessionKey(record.token)] = Session(
      token: record.token, name: record.name, connection: nil, tableID: record.tableID,
      seat: record.seat, detachedSince: now, player: record.player)
  }

  /// The tokens (hashes) of the sessions opened, moved or ended since the last call.
  public mutating func takeChanged() -> Set<String> {
    guard !changed.isEmpty else { return [] }
    defer { changed = [] }
    return changed
  }

  /// The connection dropped: its session is kept, detached since `now`.
  @discardableResult
  public mutating func detach(_ connection: ConnectionID, now: Double) -> Session? {
    guard let key = tokens.removeValue(forKey: connection) else { return nil }
    sessions[key]?.connection = nil
    sessions[key]?.detachedSince = now
    return sessions[key]
  }

  /// Forgets the session with `token` if it has been detached for longer than `grace` seconds
  /// at `now`; returns it when it was forgotten.
  public mutating func expire(token: String, now: Double, grace: Double) -> Session? {
    let key = SessionKey(token)
    guard let session = sessions[key], let since = session.detachedSince, now - since > grace
    else { return nil }
    sessions[key] = nil
    changed.insert(token)
    return session
  }

  /// Forgets the session with `token`, handed on to another node of the cluster, and the
  /// connection holding it; returns it. Counted as changed, like an end.
  public mutating func release(token: String) -> Session? {
    guard let session = sessions.removeValue(forKey: SessionKey(token)) else { return nil }
    if let connection = session.connection { tokens[connection] = nil }
    changed.insert(token)
    return session
  }

  /// Every session (for invariant checks in tests).
  public var all: [Session] { Array(sessions.values) }

  /// Removes and returns the sessions detached for longer than `grace` seconds.
  public mutating func expire(now: Double, grace: Double) -> [Session] {
    let expired = Array(
      sessions.values.filter { ($0.detachedSince.map { now - $0 > grace }) ?? false })
    for session in expired {
      sessions[SessionKey(session.token)] = nil
      changed.insert(session.token)
    }
    return expired
  }

  /// Whether any session other than `token` sits at `tableID`.
  public func othersSeated(at tableID: String, besides token: String) -> Bool {
    sessions.values.contains { $0.tableID == tableID && $0.token != token }
  }
}
