import Lobby
import Testing

@Suite struct SessionRegistryTests {
  let c1 = ConnectionID(1)
  let c2 = ConnectionID(2)
  let c3 = ConnectionID(3)

  @Test func openedSessionIsFoundByConnectionAndToken() throws {
    var registry = SessionRegistry()
    #expect(registry.count == 0)
    let session = registry.open(token: "A", name: "Ada", connection: c1)
    #expect(session.token == "A")
    #expect(session.name == "Ada")
    #expect(session.connection == c1)
    #expect(session.tableID == nil)
    #expect(session.seat == nil)
    #expect(session.detachedSince == nil)
    #expect(registry.count == 1)
    #expect(registry.session(for: c1) == session)
    #expect(registry.session(token: "A") == session)
    #expect(registry.session(for: c2) == nil)
    #expect(registry.session(token: "B") == nil)
  }

  @Test func unknownTokenDoesNotResume() {
    var registry = SessionRegistry()
    _ = registry.open(token: "A", name: "Ada", connection: c1)
    let resumption = registry.resume(token: "nope", connection: c2)
    #expect(resumption == nil)
    #expect(registry.session(for: c2) == nil)
    #expect(registry.session(for: c1)?.token == "A")
  }

  @Test func detachKeepsTheSessionWithoutItsConnection() throws {
    var registry = SessionRegistry()
    _ = registry.open(token: "A", name: "Ada", connection: c1)
    registry.seat(token: "A", tableID: "t1", seat: 0)
    let detachedSession = registry.detach(c1, now: 10)
    let detached = try #require(detachedSession)
    #expect(detached.connection == nil)
    #expect(detached.detachedSince == 10)
    #expect(detached.tableID == "t1")
    #expect(detached.seat == 0)
    #expect(registry.session(for: c1) == nil)
    #expect(registry.session(token: "A") == detached)
    #expect(registry.count == 1)
    // A connection that holds nothing detaches nothing.
    let again = registry.detach(c1, now: 11)
    let stranger = registry.detach(c2, now: 11)
    #expect(again == nil)
    #expect(stranger == nil)
  }

  @Test func resumeOfADetachedSessionReplacesNobody() throws {
    var registry = SessionRegistry()
    _ = registry.open(token: "A", name: "Ada", connection: c1)
    registry.seat(token: "A", tableID: "t1", seat: 0)
    registry.detach(c1, now: 10)
    let resumption = registry.resume(token: "A", connection: c2)
    let resumed = try #require(resumption)
    #expect(resumed.replaced == nil)
    #expect(resumed.session.connection == c2)
    #expect(resumed.session.detachedSince == nil)
    #expect(resumed.session.tableID == "t1")
    #expect(resumed.session.seat == 0)
    #expect(resumed.session.name == "Ada")
    #expect(registry.session(for: c2)?.token == "A")
    #expect(registry.session(for: c1) == nil)
    // Attached again, it never expires.
    let expired = registry.expire(now: 1_000_000, grace: 60)
    #expect(expired.isEmpty)
  }

  @Test func resumeOfAnAttachedSessionReportsTheOldConnection() throws {
    var registry = SessionRegistry()
    _ = registry.open(token: "A", name: "Ada", connection: c1)
    let resumption = registry.resume(token: "A", connection: c2)
    let resumed = try #require(resumption)
    #expect(resumed.replaced == c1)
    #expect(registry.session(for: c1) == nil)
    #expect(registry.session(for: c2)?.connection == c2)
    // The old connection going away afterwards does not detach the session.
    let old = registry.detach(c1, now: 5)
    #expect(old == nil)
    #expect(registry.session(token: "A")?.connection == c2)
    #expect(registry.count == 1)
  }

  @Test func resumeFromTheHoldingConnectionReplacesNobody() throws {
    var registry = SessionRegistry()
    _ = registry.open(token: "A", name: "Ada", connection: c1)
    let resumption = registry.resume(token: "A", connection: c1)
    let resumed = try #require(resumption)
    #expect(resumed.replaced == nil)
    #expect(registry.session(for: c1)?.token == "A")
  }

  @Test func sessionsExpireOnlyAfterTheGracePeriod() {
    var registry = SessionRegistry()
    _ = registry.open(token: "A", name: "Ada", connection: c1)
    _ = registry.open(token: "B", name: "Bob", connection: c2)
    _ = registry.open(token: "C", name: "Cy", connection: c3)
    registry.detach(c1, now: 100)
    registry.detach(c2, now: 130)

    let early = registry.expire(now: 159.5, grace: 60)
    #expect(early.isEmpty)
    // Exactly the grace period is still within it.
    let boundary = registry.expire(now: 160, grace: 60)
    #expect(boundary.isEmpty)
    #expect(registry.count == 3)
    let first = registry.expire(now: 160.001, grace: 60)
    #expect(first.map(\.token) == ["A"])
    #expect(registry.count == 2)
    #expect(registry.session(token: "A") == nil)
    let late = registry.resume(token: "A", connection: ConnectionID(9))
    #expect(late == nil)
    // Expired sessions are reported once.
    let none = registry.expire(now: 170, grace: 60)
    #expect(none.isEmpty)
    let second = registry.expire(now: 191, grace: 60)
    #expect(second.map(\.token) == ["B"])
    // C never detached.
    let last = registry.expire(now: 10_000, grace: 60)
    #expect(last.isEmpty)
    #expect(registry.session(token: "C")?.connection == c3)
  }

  @Test func expiredSessionsKeepTheirTable() {
    var registry = SessionRegistry()
    _ = registry.open(token: "A", name: "Ada", connection: c1)
    registry.seat(token: "A", tableID: "t4", seat: 0)
    registry.detach(c1, now: 0)
    let expired = registry.expire(now: 61, grace: 60)
    #expect(expired.first?.tableID == "t4")
    #expect(expired.first?.seat == 0)
  }

  @Test func othersSeated() {
    var registry = SessionRegistry()
    _ = registry.open(token: "A", name: "Ada", connection: c1)
    _ = registry.open(token: "B", name: "Bob", connection: c2)
    registry.seat(token: "A", tableID: "t1", seat: 0)
    #expect(!registry.othersSeated(at: "t1", besides: "A"))
    #expect(registry.othersSeated(at: "t1", besides: "B"))
    registry.seat(token: "B", tableID: "t1", seat: 1)
    #expect(registry.othersSeated(at: "t1", besides: "A"))
    #expect(!registry.othersSeated(at: "t2", besides: "A"))
    // A detached session still holds its seat.
    registry.detach(c2, now: 0)
    #expect(registry.othersSeated(at: "t1", besides: "A"))
    registry.seat(token: "B", tableID: nil, seat: nil)
    #expect(!registry.othersSeated(at: "t1", besides: "A"))
    #expect(registry.session(token: "B")?.tableID == nil)
    #expect(registry.session(token: "B")?.seat == nil)
  }

  @Test func seatingAnUnknownTokenDoesNothing() {
    var registry = SessionRegistry()
    registry.seat(token: "ghost", tableID: "t1", seat: 0)
    #expect(registry.count == 0)
    #expect(!registry.othersSeated(at: "t1", besides: "A"))
  }

  @Test func onAServerOnItsOwnASpectatorsTableIsNotAChange() {
    var registry = SessionRegistry(journalsWatching: false)
    _ = registry.open(token: "A", name: "Ada", connection: c1)
    #expect(registry.takeChanged() == ["A"])
    // Watching, another table, nowhere: nothing the journal keeps.
    registry.seat(token: "A", tableID: "t1", seat: nil)
    registry.seat(token: "A", tableID: "t2", seat: nil)
    registry.seat(token: "A", tableID: nil, seat: nil)
    registry.seat(token: "A", tableID: "t1", seat: nil)
    #expect(registry.takeChanged().isEmpty)
    #expect(registry.session(token: "A")?.tableID == "t1", "the lobby still knows where it is")
    // A seat taken, and given up for watching, are.
    registry.seat(token: "A", tableID: "t1", seat: 0)
    #expect(registry.takeChanged() == ["A"])
    registry.seat(token: "A", tableID: "t1", seat: nil)
    #expect(registry.takeChanged() == ["A"])
    let watching = registry.session(token: "A")
    #expect(watching.map(registry.journaledTable) == .some(nil))
    registry.seat(token: "A", tableID: "t1", seat: 1)
    #expect(registry.session(token: "A").map(registry.journaledTable) == "t1")
  }

  @Test func inAClusterASpectatorsTableIsAChange() {
    var registry = SessionRegistry(journalsWatching: true)
    _ = registry.open(token: "A", name: "Ada", connection: c1)
    _ = registry.takeChanged()
    registry.seat(token: "A", tableID: "t1", seat: nil)
    #expect(registry.takeChanged() == ["A"])
    #expect(registry.session(token: "A").map(registry.journaledTable) == "t1")
    registry.seat(token: "A", tableID: nil, seat: nil)
    #expect(registry.takeChanged() == ["A"])
  }

  /// Past the size at which its maps are kept in parts, every session is still found by its
  /// connection and by its token, resumed on another connection and forgotten (the keys carry
  /// their token's hash, ``SessionKey``).
  @Test func manySessionsAreFoundByConnectionAndTokenInParts() throws {
    var registry = SessionRegistry()
    let count = UInt64(4 * PartitionedDictionary<Int, Int>.partsFrom)
    for n in 0..<count {
      _ = registry.open(token: "token-\(n)", name: "P\(n)", connection: ConnectionID(n))
    }
    #expect(registry.count == Int(count))
    for n in 0..<count {
      #expect(registry.session(for: ConnectionID(n))?.token == "token-\(n)")
      #expect(registry.session(token: "token-\(n)")?.name == "P\(n)")
    }
    #expect(registry.session(token: "token-\(count)") == nil)
    // Every other session moves to a new connection; the old one holds nothing.
    for n in stride(from: 0, to: count, by: 2) {
      let resumption = registry.resume(token: "token-\(n)", connection: ConnectionID(count + n))
      let resumed = try #require(resumption)
      #expect(resumed.replaced == ConnectionID(n))
      #expect(registry.session(for: ConnectionID(n)) == nil)
      #expect(registry.session(for: ConnectionID(count + n))?.token == "token-\(n)")
    }
    // The others drop and are forgotten after the grace period.
    for n in stride(from: 1, to: count, by: 2) { registry.detach(ConnectionID(n), now: 0) }
    let expired = registry.expire(now: 100, grace: 10)
    #expect(expired.count == Int(count / 2))
    #expect(registry.count == Int(count / 2))
    #expect(registry.session(token: "token-1") == nil)
    #expect(registry.session(token: "token-0")?.connection == ConnectionID(count))
  }
}
