import Testing

@testable import Store

/// The lease and epoch decisions as a pure value (``LeaseLedger``): kills, freezes, races, a
/// stale copy regained, a short outage, a clean close.
@Suite struct LeaseLedgerTests {
  static func ledger() -> LeaseLedger {
    var ledger = LeaseLedger(lease: 2)
    ledger.renew("a", now: 0)
    ledger.renew("b", now: 0)
    #expect(ledger.write(by: "a", touched: ["t1": nil, "t2": nil]) == [])
    return ledger
  }

  @Test func aKilledNodesTablesAreTakenOverOnlyOnceItsLeaseRanOut() {
    var ledger = Self.ledger()
    ledger.renew("b", now: 1.5)
    #expect(ledger.takeOver(by: "b", now: 1.5).isEmpty, "a's lease runs until 2")
    // a stops renewing at 0 (killed).
    ledger.renew("b", now: 2.5)
    #expect(ledger.takeOver(by: "b", now: 2.5) == ["t1": 2, "t2": 2])
    #expect(ledger.takeOver(by: "b", now: 2.6).isEmpty, "nothing left to take")
    #expect(ledger.tables["t1"] == LeaseLedger.Table(owner: "b", epoch: 2))
  }

  @Test func twoNodesTakingOverAtOnceTakeEachTableOnce() {
    var ledger = Self.ledger()
    ledger.renew("b", now: 3)
    ledger.renew("c", now: 3)
    let byB = ledger.takeOver(by: "b", now: 3, only: ["t1"])
    let byC = ledger.takeOver(by: "c", now: 3)
    #expect(byB == ["t1": 2])
    #expect(byC == ["t2": 2], "t1 is b's now, and b is live")
  }

  @Test func aFrozenNodeThatWakesAfterATakeoverWritesNothing() {
    var ledger = Self.ledger()
    ledger.renew("b", now: 3)
    _ = ledger.takeOver(by: "b", now: 3)
    // a wakes at 4 and renews: its lease is live again, but t1 and t2 are b's.
    ledger.renew("a", now: 4)
    #expect(ledger.write(by: "a", touched: ["t1": 1]) == ["t1"])
    // A write touching a table it still holds and one it lost is refused whole.
    #expect(ledger.write(by: "a", touched: ["t3": nil, "t2": 1]) == ["t2"])
    #expect(ledger.tables["t3"] == nil, "nothing of a refused write is applied")
    #expect(ledger.write(by: "b", touched: ["t1": 2]) == [])
  }

  @Test func aStaleCopyIsFencedEvenAfterItsNodeRegainsTheTable() {
    var ledger = Self.ledger()
    ledger.renew("b", now: 3)
    _ = ledger.takeOver(by: "b", now: 3)
    // b dies; a (frozen meanwhile, still holding t1 at epoch 1) takes it back at epoch 3.
    ledger.renew("a", now: 6)
    #expect(ledger.takeOver(by: "a", now: 6) == ["t1": 3, "t2": 3])
    #expect(ledger.write(by: "a", touched: ["t1": 1]) == ["t1"], "the stale copy")
    #expect(ledger.write(by: "a", touched: ["t1": 3]) == [], "the copy rebuilt at epoch 3")
  }

  @Test func aShortOutageNobodyTookOverFromLosesNothing() {
    var ledger = Self.ledger()
    // a's lease ran out at 2 while the database was away; nobody took its tables.
    #expect(ledger.write(by: "a", touched: ["t1": 1]) == [])
    ledger.renew("a", now: 5)
    ledger.renew("b", now: 5)
    #expect(ledger.takeOver(by: "b", now: 5).isEmpty)
  }

  @Test func aCleanCloseFreesTheTablesAtOnceAndAClosedTableIsGone() {
    var ledger = Self.ledger()
    ledger.free("a")
    ledger.renew("b", now: 0.5)
    #expect(ledger.takeOver(by: "b", now: 0.5) == ["t1": 2, "t2": 2], "no wait for the lease")
    ledger.close("t1")
    #expect(ledger.write(by: "b", touched: ["t1": 2]) == ["t1"], "a table that is gone")
  }

  /// The database stood still for 3 s (2 s leases): every lease has run out when it answers.
  /// With a grace, b's first renewal after the standstill starts its unbroken renewals again,
  /// and a, renewing within the grace, keeps its tables; without one, b takes them at once. A
  /// node that dies while b renews all along is taken at b's first renewal after its lease.
  @Test func afterTheDatabaseStoodStillALiveNodeKeepsItsTables() {
    var graced = Self.ledger()
    var old = Self.ledger()
    graced.renew("b", now: 3)
    old.renew("b", now: 3)
    #expect(
      old.takeOver(by: "b", now: 3) == ["t1": 2, "t2": 2], "the old rule takes a live node's")
    #expect(graced.takeOver(by: "b", now: 3, grace: 1).isEmpty)
    #expect(graced.aliveSince["b"] == 3, "b's renewals start again after the gap")
    graced.renew("a", now: 3.4)
    #expect(graced.aliveSince["a"] == 3.4)
    for now in stride(from: 3.5, through: 6, by: 0.5) {
      graced.renew("a", now: now)
      graced.renew("b", now: now)
      #expect(graced.takeOver(by: "b", now: now, grace: 1).isEmpty, "a is alive at \(now)")
    }
    // a dies after its renewal at 6 (its lease runs until 8); b renews all along.
    graced.renew("b", now: 7.5)
    #expect(graced.takeOver(by: "b", now: 7.5, grace: 1).isEmpty, "a's lease lasts")
    graced.renew("b", now: 8.5)
    #expect(graced.takeOver(by: "b", now: 8.5, grace: 1) == ["t1": 2, "t2": 2])
  }
}
