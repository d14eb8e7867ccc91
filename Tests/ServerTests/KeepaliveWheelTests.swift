import Testing

@testable import Server

@Suite struct KeepaliveWheelTests {
  private func due(_ wheel: inout KeepaliveWheel, at now: Double) -> [UInt64] {
    var taken: [ConnectionID] = []
    wheel.takeDue(upTo: now, into: &taken)
    return taken.map(\.rawValue)
  }

  @Test func anEntryComesUpInTheFirstSecondAtOrAfterItsDeadline() {
    var wheel = KeepaliveWheel(slotCount: 8, now: 100.2)
    wheel.schedule(ConnectionID(rawValue: 1), at: 102.5)
    wheel.schedule(ConnectionID(rawValue: 2), at: 103.0)
    #expect(due(&wheel, at: 102.9) == [])
    #expect(due(&wheel, at: 103.0) == [1, 2])
    #expect(due(&wheel, at: 104.0) == [])
    #expect(wheel.count == 0)
  }

  @Test func aPastDeadlineGoesToTheNextSecondNotATakenSlot() {
    var wheel = KeepaliveWheel(slotCount: 8, now: 10)
    #expect(due(&wheel, at: 12.5) == [])
    wheel.schedule(ConnectionID(rawValue: 7), at: 11)
    #expect(due(&wheel, at: 12.9) == [])
    #expect(due(&wheel, at: 13.0) == [7])
  }

  @Test func aLateCallTakesEverySlotOnceAndAFarDeadlineComesUpEarly() {
    var wheel = KeepaliveWheel(slotCount: 4, now: 0)
    for id in 1...4 { wheel.schedule(ConnectionID(rawValue: UInt64(id)), at: Double(id)) }
    // Ten seconds late: every slot once, no entry twice.
    #expect(due(&wheel, at: 10).sorted() == [1, 2, 3, 4])
    // Beyond the wheel's span: comes up early; the caller finds it not due and reschedules.
    wheel.schedule(ConnectionID(rawValue: 9), at: 16)
    #expect(due(&wheel, at: 11) == [])
    #expect(due(&wheel, at: 12) == [9])
  }
}
