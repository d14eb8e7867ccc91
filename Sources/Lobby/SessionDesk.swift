/// Who is who at the lobby's door: sessions and the connections holding them, `hello` with or
/// without a resume, the grace period of a dropped connection, the journal's view of sessions,
/// and how many unknown invite codes each session may still try. A pure value; the
/// ``LobbyState`` owns one and asks it before it seats anybody.
///
/// Sessions are kept under the hash of their token (``LobbyEntropy/hash``): the token itself is
/// only the client's.
struct SessionDesk: Sendable {
  /// What a `hello` came to.
  enum Greeting: Sendable {
    /// The connection holds a session already.
    case alreadyHello
    /// A session came back on this connection with its `token`; `replaced` held it until now
    /// and must close.
    case resumed(SessionRegistry.Session, token: String, replaced: ConnectionID?)
    /// A new session, whose token (`token`, not its hash) goes to the client once.
    case opened(SessionRegistry.Session, token: String)
    /// This node does not know the session to resume, whose token hashes to `token`: the shared
    /// database may (``LobbyConfiguration/cluster``).
    case lookUp(token: String)
  }

  /// Every session and the connection holding it.
  private(set) var registry: SessionRegistry
  /// Unknown invite codes tried per session (by token hash), draining over time.
  private var guesses: [String: InviteGuesses] = [:]
  /// Sessions handed on to another node since the last ``takeJournal()``, by token hash.
  private var released: [String: SessionRecord] = [:]
  /// How long a dropped session is kept for a resume, in seconds.
  let reconnectGrace: Double
  /// Unknown codes a session may try in a burst.
  let guessBurst: Int
  /// Seconds for one more unknown code to be allowed again.
  let guessRefillSeconds: Double

  /// An empty desk with the lobby's settings.
  init(configuration: LobbyConfiguration) {
    registry = SessionRegistry(journalsWatching: configuration.cluster)
    reconnectGrace = configuration.reconnectGrace
    guessBurst = configuration.inviteMissBurst
    guessRefillSeconds = configuration.inviteMissRefillSeconds
  }

  /// The session `connection` holds, if it said hello.
  func session(for connection: ConnectionID) -> SessionRegistry.Session? {
    registry.session(for: connection)
  }

  /// The session with `token` (a hash).
  func session(token: String) -> SessionRegistry.Session? { registry.session(token: token) }

  /// A `hello` from `connection`: resumes the session of `resume` if there is one, otherwise
  /// asks for it to be looked up (`lookUp`, in a cluster) or opens a new session named `name`
  /// (or "Player").
  mutating func hello(
    name: String?, resume: String?, player: String?, connection: ConnectionID,
    entropy: LobbyEntropy, lookUp: Bool = false
  ) -> Greeting {
    // Like session tokens, player tokens are kept only as hashes.
    let player = player.map(entropy.hash)
    if registry.session(for: connection) != nil { return .alreadyHello }
    if let resume {
      let hash = entropy.hash(resume)
      if let (session, replaced) = registry.resume(token: hash, connection: connection) {
        if let player { registry.setPlayer(token: session.token, player) }
        return .resumed(session, token: resume, replaced: replaced)
      }
      if lookUp { return .lookUp(token: hash) }
    }
    let token = entropy.token()
    let session = registry.open(
      token: entropy.hash(token), name: name ?? "Player", player: player, connection: connection)
    return .opened(session, token: token)
  }

  /// Hands the session of `token` on to another node: this desk forgets it, and the journal
  /// writes it as it is, then lets it go (``JournalEntry/sessionReleased(_:)``).
  mutating func release(token: String) {
    guard let session = registry.release(token: token) else { return }
    guesses[token] = nil
    released[token] = SessionRecord(
      token: token, name: session.name, tableID: session.tableID, seat: session.seat,
      player: session.player)
  }

  /// Seats the session of `token` at a table (or nowhere).
  mutating func seat(token: String, tableID: String?, seat: Int?) {
    registry.seat(token: token, tableID: tableID, seat: seat)
  }

  /// The connection dropped: its session waits for a resume until `expiresAt`, the first
  /// instant after the grace period.
  mutating func detach(_ connection: ConnectionID, now: Double) -> (
    session: SessionRegistry.Session, expiresAt: Double
  )? {
    guard let session = registry.detach(connection, now: now) else { return nil }
    return (session, (now + reconnectGrace).nextUp)
  }

  /// Forgets the session of `token` if its grace period is over at `now`, with its guesses.
  mutating func expire(token: String, now: Double) {
    if let session = registry.expire(token: token, now: now, grace: reconnectGrace) {
      guesses[session.token] = nil
    }
  }

  // MARK: - Invite codes

  /// Whether the session of `token` may try one more invite code at `now` (its misses drain
  /// over time; a session that drained them all is forgotten here).
  mutating func mayGuess(token: String, now: Double) -> Bool {
    guard var bucket = guesses[token] else { return true }
    bucket.drain(now: now, refillSeconds: guessRefillSeconds)
    guesses[token] = bucket.isEmpty ? nil : bucket
    return bucket.level < Double(guessBurst)
  }

  /// The session of `token` tried a code that no table has, at `now`.
  mutating func missed(token: String, now: Double) {
    guesses[token, default: InviteGuesses(level: 0, updated: now)].level += 1
  }

  // MARK: - Journal and restart

  /// The journal entries for the sessions opened, moved or ended since the last call, in
  /// token order. A spectator's table is in them only in a cluster
  /// (``SessionRegistry/journalsWatching``).
  mutating func takeJournal() -> [JournalEntry] {
    let changed = registry.takeChanged()
    guard !changed.isEmpty else { return [] }
    defer { released = [:] }
    return changed.sorted().flatMap { token -> [JournalEntry] in
      guard let session = registry.session(token: token) else {
        guard let record = released[token] else { return [.sessionEnded(token)] }
        return [.session(record), .sessionReleased(token)]
      }
      return [
        .session(
          SessionRecord(
            token: token, name: session.name, tableID: registry.journaledTable(of: session),
            seat: session.seat, player: session.player))
      ]
    }
  }

  /// A session the journal kept, back after a restart: it waits for its resume until the
  /// returned moment. A session whose table is not `open` waits at no table, and so does a
  /// spectator's: a restart drops every connection, and a spectator whose connection drops
  /// stops watching (a table that closed meanwhile would otherwise keep it for ever).
  mutating func restore(_ record: SessionRecord, now: Double, open: (String) -> Bool) -> Double {
    var record = record
    if let id = record.tableID, !open(id) || record.seat == nil {
      record.tableID = nil
      record.seat = nil
    }
    registry.restore(record, now: now)
    return (now + reconnectGrace).nextUp
  }

  /// Forgets what changed so far, without journaling it (what a restore read back is written
  /// already).
  mutating func forgetChanges() {
    _ = registry.takeChanged()
    released = [:]
  }
}
