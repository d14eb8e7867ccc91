import Protocol
import Testing

@testable import Lobby

@Suite struct SessionDeskTests {
  let c1 = ConnectionID(1)
  let c2 = ConnectionID(2)

  /// Tokens "k1", "k2", … kept as "#k1", "#k2", ….
  static func entropy() -> LobbyEntropy {
    let counter = Counter()
    return LobbyEntropy(
      seed: { 1 }, token: { "k\(counter.next())" }, below: { _ in 0 }, hash: { "#\($0)" })
  }

  final class Counter: @unchecked Sendable {
    private var value = 0
    func next() -> Int {
      value += 1
      return value
    }
  }

  static func desk(burst: Int = 3, refill: Double = 10) -> SessionDesk {
    var configuration = LobbyConfiguration()
    configuration.reconnectGrace = 60
    configuration.inviteMissBurst = burst
    configuration.inviteMissRefillSeconds = refill
    return SessionDesk(configuration: configuration)
  }

  @Test func helloOpensASessionKeptUnderTheHashOfItsToken() throws {
    var desk = Self.desk()
    let entropy = Self.entropy()
    guard
      case .opened(let session, let token) = desk.hello(
        name: "Ada", resume: nil, player: "p", connection: c1, entropy: entropy)
    else {
      Issue.record("no new session")
      return
    }
    #expect(token == "k1")
    #expect(session.token == "#k1")
    #expect(session.player == "#p")
    #expect(desk.session(for: c1)?.name == "Ada")
    guard
      case .alreadyHello = desk.hello(
        name: "Ada", resume: nil, player: nil, connection: c1, entropy: entropy)
    else {
      Issue.record("a second hello on one connection was taken")
      return
    }
    guard
      case .opened(let unnamed, _) = desk.hello(
        name: nil, resume: "unknown", player: nil, connection: c2, entropy: entropy)
    else {
      Issue.record("an unknown resume did not open a session")
      return
    }
    #expect(unnamed.name == "Player")
  }

  @Test func aResumeTakesTheSessionOverFromItsOldConnection() throws {
    var desk = Self.desk()
    let entropy = Self.entropy()
    _ = desk.hello(name: "Ada", resume: nil, player: nil, connection: c1, entropy: entropy)
    guard
      case .resumed(let session, let token, let replaced) = desk.hello(
        name: nil, resume: "k1", player: "me", connection: c2, entropy: entropy)
    else {
      Issue.record("the session was not resumed")
      return
    }
    #expect(token == "k1")
    #expect(session.name == "Ada")
    #expect(replaced == c1)
    #expect(desk.session(for: c1) == nil)
    #expect(desk.session(for: c2)?.player == "#me")
  }

  @Test func aDetachedSessionExpiresOnlyAfterItsGrace() throws {
    var desk = Self.desk()
    _ = desk.hello(name: "Ada", resume: nil, player: nil, connection: c1, entropy: Self.entropy())
    let detached = desk.detach(c1, now: 100)
    let (session, expiresAt) = try #require(detached)
    #expect(session.token == "#k1")
    #expect(expiresAt == (160.0).nextUp)
    let again = desk.detach(c1, now: 100)
    #expect(again == nil, "detached twice")
    desk.expire(token: "#k1", now: 160)
    #expect(desk.session(token: "#k1") != nil, "expired at the end of the grace, not after it")
    desk.expire(token: "#k1", now: expiresAt)
    #expect(desk.session(token: "#k1") == nil)
  }

  /// Whether `token` may guess at each of `times`, asked in turn.
  static func guesses(_ desk: inout SessionDesk, _ token: String, at times: [Double]) -> [Bool] {
    times.map { desk.mayGuess(token: token, now: $0) }
  }

  @Test func unknownCodesAreLimitedAndDrainOverTime() {
    var desk = Self.desk(burst: 3, refill: 10)
    var allowed: [Bool] = []
    for _ in 0..<3 {
      allowed += Self.guesses(&desk, "#a", at: [0])
      desk.missed(token: "#a", now: 0)
    }
    #expect(allowed == [true, true, true])
    allowed = Self.guesses(&desk, "#a", at: [0, 5])
    #expect(allowed == [false, true], "refused at the limit; half a miss drained after 5 s")
    allowed = Self.guesses(&desk, "#b", at: [0])
    #expect(allowed == [true], "another session has guesses of its own")
    // A miss when almost out of guesses goes over the limit, and takes longer to drain.
    desk.missed(token: "#a", now: 5)
    allowed = Self.guesses(&desk, "#a", at: [5, 9, 10.1])
    #expect(allowed == [false, false, true])
  }

  @Test func expiringASessionForgetsItsGuesses() {
    var desk = Self.desk(burst: 1, refill: 1_000)
    _ = desk.hello(name: "Ada", resume: nil, player: nil, connection: c1, entropy: Self.entropy())
    desk.missed(token: "#k1", now: 0)
    desk.missed(token: "#k1", now: 0)
    var allowed = Self.guesses(&desk, "#k1", at: [0])
    #expect(allowed == [false])
    _ = desk.detach(c1, now: 0)
    desk.expire(token: "#k1", now: 61)
    allowed = Self.guesses(&desk, "#k1", at: [61])
    #expect(allowed == [true])
  }

  @Test func theJournalHearsOfEachChangedSessionOnceInTokenOrder() {
    var desk = Self.desk()
    let entropy = Self.entropy()
    _ = desk.hello(name: "Bob", resume: nil, player: nil, connection: c2, entropy: entropy)
    _ = desk.hello(name: "Ada", resume: nil, player: nil, connection: c1, entropy: entropy)
    desk.seat(token: "#k2", tableID: "t1", seat: 0)
    #expect(
      desk.takeJournal() == [
        .session(SessionRecord(token: "#k1", name: "Bob", tableID: nil, seat: nil, player: nil)),
        .session(SessionRecord(token: "#k2", name: "Ada", tableID: "t1", seat: 0, player: nil)),
      ])
    #expect(desk.takeJournal() == [])
    _ = desk.detach(c1, now: 0)
    desk.expire(token: "#k2", now: 100)
    #expect(desk.takeJournal() == [.sessionEnded("#k2")])
  }

  @Test func aRestoredSessionWaitsAtNoTableWhenItsTableIsGone() {
    var desk = Self.desk()
    let record = SessionRecord(token: "#x", name: "Ada", tableID: "t9", seat: 1, player: nil)
    let expiresAt = desk.restore(record, now: 5) { $0 == "t1" }
    desk.forgetChanges()
    #expect(expiresAt == (65.0).nextUp)
    #expect(desk.session(token: "#x")?.tableID == nil)
    #expect(desk.session(token: "#x")?.seat == nil)
    #expect(desk.session(token: "#x")?.detachedSince == 5)
    #expect(desk.takeJournal() == [])
  }

  /// Found by the lobby's fuzz target with the journal on: a spectator restored at a solo
  /// table stayed "at" it after its player left and the table closed. A restart drops every
  /// connection, and a spectator whose connection drops stops watching: so it comes back at
  /// no table; a player comes back to the seat held for them.
  @Test func aRestoredSpectatorWaitsAtNoTableAndAPlayerAtTheirSeat() {
    var desk = Self.desk()
    _ = desk.restore(
      SessionRecord(token: "#s", name: "Sam", tableID: "t1", seat: nil, player: nil), now: 5
    ) { $0 == "t1" }
    _ = desk.restore(
      SessionRecord(token: "#p", name: "Ada", tableID: "t1", seat: 0, player: nil), now: 5
    ) { $0 == "t1" }
    #expect(desk.session(token: "#s")?.tableID == nil)
    #expect(desk.session(token: "#p")?.tableID == "t1")
    #expect(desk.session(token: "#p")?.seat == 0)
  }
}
