import Testing

@testable import Server

/// When a connection whose output does not drain is cut, check by check.
@Suite struct DrainClockTests {
  private let clock = DrainClock(bound: 5)

  @Test func aConnectionThatUnblocksIsNeverCut() {
    var reading: DrainClock.Reading?
    for step in 0..<1000 {
      // Blocked at three checks out of four, with no progress at all, but free in between:
      // the clock starts again each time.
      let blocked = step % 4 != 0
      let verdict = clock.check(
        reading: &reading, blocked: blocked, acknowledged: 0, now: Double(step) * 0.25)
      #expect(verdict == (blocked ? .waiting : .drained))
      if !blocked { #expect(reading == nil) }
    }
  }

  @Test func aConnectionBlockedForTheBoundWithoutProgressIsCutThen() {
    var reading: DrainClock.Reading?
    #expect(clock.check(reading: &reading, blocked: true, acknowledged: 900, now: 10) == .waiting)
    #expect(reading == DrainClock.Reading(since: 10, acknowledged: 900))
    // A trickle below the progress threshold does not start the clock again.
    #expect(
      clock.check(reading: &reading, blocked: true, acknowledged: 900 + 4095, now: 14.75)
        == .waiting)
    #expect(reading?.since == 10)
    #expect(
      clock.check(reading: &reading, blocked: true, acknowledged: 900 + 4095, now: 15)
        == .cut(waitedSeconds: 5))
  }

  @Test func aSlowPeerThatKeepsReadingStartsTheClockAgain() {
    var reading: DrainClock.Reading?
    var acknowledged: UInt64 = 0
    for step in 0..<400 {
      // Always blocked (a slow link), but 4 KiB taken every second.
      if step % 4 == 0 { acknowledged += 4096 }
      let verdict = clock.check(
        reading: &reading, blocked: true, acknowledged: acknowledged, now: Double(step) * 0.25)
      #expect(verdict == .waiting)
    }
  }

  @Test func oneUnblockedCheckStopsTheClock() {
    var reading: DrainClock.Reading?
    _ = clock.check(reading: &reading, blocked: true, acknowledged: 0, now: 0)
    _ = clock.check(reading: &reading, blocked: true, acknowledged: 0, now: 4.75)
    #expect(clock.check(reading: &reading, blocked: false, acknowledged: 0, now: 5) == .drained)
    #expect(clock.check(reading: &reading, blocked: true, acknowledged: 0, now: 5.25) == .waiting)
    #expect(clock.check(reading: &reading, blocked: true, acknowledged: 0, now: 10) == .waiting)
    #expect(
      clock.check(reading: &reading, blocked: true, acknowledged: 0, now: 10.25)
        == .cut(waitedSeconds: 5))
  }

  @Test func aBoundOfZeroNeverCuts() {
    let never = DrainClock(bound: 0)
    var reading: DrainClock.Reading?
    _ = never.check(reading: &reading, blocked: true, acknowledged: 0, now: 0)
    #expect(never.check(reading: &reading, blocked: true, acknowledged: 0, now: 86_400) == .waiting)
    #expect(reading?.since == 0)
  }
}
