import Lobby
import Testing

@testable import Store

/// Takeover and fencing on a real PostgreSQL: a node's tables are taken over only once its
/// lease runs out, each at the next epoch; the old owner's writes are then refused (and only
/// for those tables), also after it takes the table back at a newer epoch; a short outage of a
/// node that nobody took over from loses nothing. Every store and link of a test decides leases
/// on one ``LeaseClock`` that the test moves on: a lease runs out when the test says, not after
/// a wait.
@Suite struct TakeoverTests {
  /// Where each test's clock starts (seconds since 1970).
  static let start = 1_000_000.0

  static func store(
    _ node: String, at location: PostgresLocation, clock: LeaseClock, lease: Double = 1
  ) throws -> PostgresJournalStore {
    try PostgresJournalStore(
      location: location, owner: node, lease: lease, clock: clock, logger: PostgresCluster.quiet)
  }

  static func link(_ node: String, at location: PostgresLocation, clock: LeaseClock)
    -> PostgresClusterLink
  {
    PostgresClusterLink(
      location: location, node: node, url: nil, clock: clock, logger: PostgresCluster.quiet,
      hear: { _ in })
  }

  @Test func aDeadNodesTablesAreTakenOverOnceItsLeaseRunsOutAndItsWritesAreFenced() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let clock = LeaseClock.manual(at: Self.start)
    let a = try Self.store("a", at: location, clock: clock)
    let b = try Self.store("b", at: location, clock: clock)
    _ = try a.load()
    _ = try b.load()
    try a.write([
      .table(JournalStoreTests.record("t1")), .table(JournalStoreTests.record("t2")),
      .session(SessionRecord(token: "h1", name: "Ada", tableID: "t1", seat: 0)),
    ])
    try b.write([.table(JournalStoreTests.record("t3"))])
    let linkB = Self.link("b", at: location, clock: clock)
    // a's lease is live: nothing to take, up to the last moment of it.
    try a.renewLeases()
    #expect(try linkB.takeOver(lease: 1).taken.isEmpty)
    clock.advance(by: 0.9)
    try b.renewLeases()
    #expect(try linkB.takeOver(lease: 1).taken.isEmpty, "a's lease holds for 1 s")
    // a stops renewing (killed); once its lease runs out b takes its tables, not its own.
    clock.advance(by: 0.6)
    try b.renewLeases()
    let takeover = try linkB.takeOver(lease: 1)
    #expect(takeover.taken.map(\.table).sorted() == ["t1", "t2"])
    #expect(takeover.taken.allSatisfy { $0.from == "a" && $0.secondsSinceRenewal == 1.5 })
    #expect(takeover.epochs == ["t1": 2, "t2": 2])
    #expect(takeover.contents.sessions.map(\.token) == ["h1"])
    #expect(try linkB.takeOver(lease: 1).taken.isEmpty, "taken once")
    b.hold(takeover.epochs)
    // a wakes up: its write for t1 is refused, naming t1, and nothing of it is written.
    #expect {
      try a.write([.move(JournalStoreTests.move("t1", 0, card: 5))])
    } throws: { error in
      (error as? FencedTables)?.tables == ["t1"]
    }
    #expect(try a.rowCounts().moves == 0)
    // b writes t1 at the new epoch.
    try b.write([.move(JournalStoreTests.move("t1", 0, card: 7))])
    #expect(try b.rowCounts().moves == 1)
  }

  /// A database that stood still (frozen, failing over) finds every lease run out by its clock
  /// when it answers again. With a grace, a node takes a lease for run out only once it has
  /// renewed its own after that lease's end and a grace after its own unbroken renewals began:
  /// a live node, renewing as soon as the database answers, keeps its tables; a node that dies
  /// while the others renew loses them as soon as its lease has run out.
  @Test func afterTheDatabaseStoodStillALiveNodeKeepsItsTables() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let clock = LeaseClock.manual(at: Self.start)
    let a = try Self.store("a", at: location, clock: clock)
    let b = try Self.store("b", at: location, clock: clock)
    _ = try a.load()
    _ = try b.load()
    try a.write([.table(JournalStoreTests.record("t1"))])
    try a.renewLeases()
    try b.renewLeases()
    let linkB = Self.link("b", at: location, clock: clock)
    func takenByB() throws -> [String] {
      try linkB.takeOver(lease: 1, grace: 0.25).taken.map(\.table)
    }
    // The database stands still for 3 s. b's renewal comes first: its own lease had run out
    // too, so its unbroken renewals start again now, and a may renew yet.
    clock.advance(by: 3)
    try b.renewLeases()
    #expect(try takenByB().isEmpty, "a may renew yet")
    clock.advance(by: 0.2)
    try b.renewLeases()
    #expect(try takenByB().isEmpty, "still within the grace")
    // a renews within the grace: its tables stay its own, at every later look.
    try a.renewLeases()
    for _ in 0..<4 {
      clock.advance(by: 0.25)
      try a.renewLeases()
      try b.renewLeases()
      #expect(try takenByB().isEmpty, "a is alive")
    }
    // a dies: while its lease lasts b takes nothing; once it has run out (b renewing all
    // along), b's first renewal after that lets it take t1.
    clock.advance(by: 0.6)
    try b.renewLeases()
    #expect(try takenByB().isEmpty, "a's lease lasts")
    clock.advance(by: 0.5)
    try b.renewLeases()
    #expect(try takenByB() == ["t1"])
    // Without a grace (the old rule), the first look after the database stood still took it.
    let c = try Self.store("c", at: location, clock: clock)
    _ = try c.load()
    try c.write([.table(JournalStoreTests.record("t2"))])
    try c.renewLeases()
    clock.advance(by: 3)
    try b.renewLeases()
    #expect(try linkB.takeOver(lease: 1).taken.map(\.table) == ["t2"])
  }

  /// A node of another version may deal a game this one does not: its table is not taken (it
  /// could not be played here), it is named in ``Takeover/notDealt``, and its row stays open and
  /// the dead node's, for a node that deals the game, which then takes it over.
  @Test func aTableOfAGameThisNodeDoesNotDealIsLeftForANodeThatDoes() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let clock = LeaseClock.manual(at: Self.start)
    let a = try Self.store("a", at: location, clock: clock)
    _ = try a.load()
    var twins = JournalStoreTests.record("t2")
    twins.game = "twins"
    try a.write([.table(JournalStoreTests.record("t1")), .table(twins)])
    let bStore = try Self.store("b", at: location, clock: clock)
    _ = try bStore.load()
    clock.advance(by: 1.5)
    try bStore.renewLeases()
    let b = Self.link("b", at: location, clock: clock)
    let takeover = try b.takeOver(lease: 1)
    #expect(takeover.taken.map(\.table) == ["t1"])
    #expect(takeover.contents.tables.map(\.record.id) == ["t1"])
    #expect(takeover.notDealt == ["t2": "twins"])
    // Asked again, and asked for that table alone: still left, still named.
    #expect(try b.takeOver(lease: 1).notDealt == ["t2": "twins"])
    let alone = try b.takeOver(lease: 1, only: ["t2"])
    #expect(alone.taken.isEmpty && alone.notDealt == ["t2": "twins"])
    // A node that deals it takes it over, from a, at the next epoch.
    let c = Self.link("c", at: location, clock: clock)
    let dealt = try c.takeOver(lease: 1, games: GameCatalog.games.union(["twins"]))
    #expect(dealt.taken.map(\.table) == ["t2"] && dealt.taken.first?.from == "a")
    #expect(dealt.epochs == ["t2": 2] && dealt.notDealt.isEmpty)
    #expect(dealt.contents.tables.map(\.record) == [twins])
  }

  @Test func aTableRegainedAtANewerEpochStillFencesTheStaleCopy() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let clock = LeaseClock.manual(at: Self.start)
    let a = try Self.store("a", at: location, clock: clock)
    _ = try a.load()
    try a.write([.table(JournalStoreTests.record("t1"))])
    // b takes t1 over (a's lease ran out), then b dies and a takes it back: epoch 3.
    clock.advance(by: 1.5)
    let linkB = Self.link("b", at: location, clock: clock)
    let b = try Self.store("b", at: location, clock: clock)
    _ = try b.load()
    #expect(try linkB.takeOver(lease: 1).epochs == [:], "b's load took it already")
    let stale = a.epochs(of: ["t1"])
    #expect(stale == ["t1": 1])
    clock.advance(by: 1.5)
    try a.renewLeases()
    let regained = try Self.link("a", at: location, clock: clock).takeOver(lease: 1)
    #expect(regained.epochs == ["t1": 3])
    // a's store still holds t1 at epoch 1 (a stale copy): its write is refused.
    #expect(throws: FencedTables.self) {
      try a.write([.move(JournalStoreTests.move("t1", 0, card: 5))])
    }
    a.hold(regained.epochs)
    try a.write([.move(JournalStoreTests.move("t1", 0, card: 5))])
  }

  @Test func aNodeNobodyTookOverFromKeepsItsTablesAfterItsLeaseRanOut() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let clock = LeaseClock.manual(at: Self.start)
    let a = try Self.store("a", at: location, clock: clock)
    _ = try a.load()
    try a.write([.table(JournalStoreTests.record("t1"))])
    clock.advance(by: 1.5)
    // The database was away longer than the lease, but no other node took t1: a writes on.
    try a.write([.move(JournalStoreTests.move("t1", 0, card: 5))])
    try a.renewLeases()
    #expect(try Self.link("b", at: location, clock: clock).takeOver(lease: 1).taken.isEmpty)
  }

  /// A session at a table whose node's lease is live stays there; once the lease has run out
  /// (on the same clock) the session is orphaned: its table is to be taken over first.
  @Test func aSessionIsOrphanedOnceItsTablesLeaseRunsOut() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let clock = LeaseClock.manual(at: Self.start)
    let a = try Self.store("a", at: location, clock: clock)
    _ = try a.load()
    try a.write([
      .table(JournalStoreTests.record("t1")),
      .session(SessionRecord(token: "h(ada)", name: "Ada", tableID: "t1", seat: 0)),
    ])
    let linkB = Self.link("b", at: location, clock: clock)
    try linkB.join([])
    defer { linkB.leave() }
    clock.advance(by: 0.9)
    guard case .elsewhere(_, let node, _) = try linkB.claimSession(token: "h(ada)") else {
      Issue.record("not elsewhere while a's lease holds")
      return
    }
    #expect(node == "a")
    clock.advance(by: 0.6)
    guard case .orphaned(let record) = try linkB.claimSession(token: "h(ada)") else {
      Issue.record("not orphaned once a's lease ran out")
      return
    }
    #expect(record.tableID == "t1" && record.seat == 0)
  }
}
