import Testing

@testable import Server

/// A pass of the service loop takes fewer events while they cost more than its budget, and
/// the whole bound again once they do not (``PassPacing``).
@Suite struct PassPacingTests {
  @Test func cheapPassesKeepTheBound() {
    var pacing = PassPacing(eventsAtMost: 64, budget: 0.0005)
    #expect(pacing.cap == 64)
    #expect(pacing.passEnded(events: 64, seconds: 0.0004) == 64)
    #expect(pacing.passEnded(events: 3, seconds: 0.00001) == 64)
    #expect(!pacing.isSlowed)
    #expect(pacing.share(of: 16) == 16)
  }

  /// 64 closes of 80 µs each (a crowd dropping, each close a walk of lws over every
  /// connection): the next pass takes the 6 that fit in half a millisecond.
  @Test func costlyEventsShrinkTheNextPassToWhatFitsTheBudget() {
    var pacing = PassPacing(eventsAtMost: 64, budget: 0.0005)
    #expect(pacing.passEnded(events: 64, seconds: 64 * 0.00008) == 6)
    #expect(pacing.isSlowed)
    // Still too slow at 6: fewer still, never under the least.
    #expect(pacing.passEnded(events: 6, seconds: 0.0012) == PassPacing.eventsAtLeast)
    #expect(pacing.passEnded(events: 4, seconds: 0.01) == PassPacing.eventsAtLeast)
    // Work the loop gives itself each pass is held to half the events, at least 1.
    #expect(pacing.share(of: 16) == 2)
    #expect(pacing.share(of: 1) == 1)
  }

  /// A slow pass with few events (a timer's work) says little about the events: the next is
  /// held to what it took, and grows back by doubling once passes are within the budget.
  @Test func passesWithinTheBudgetDoubleTheCapBackToTheBound() {
    var pacing = PassPacing(eventsAtMost: 64, budget: 0.0005)
    #expect(pacing.passEnded(events: 2, seconds: 0.003) == PassPacing.eventsAtLeast)
    let caps = (0..<5).map { _ in pacing.passEnded(events: 1, seconds: 0.0001) }
    #expect(caps == [8, 16, 32, 64, 64])
    #expect(!pacing.isSlowed)
  }

  /// A pass of no socket events (a timer's work, however long) does not slow the next.
  @Test func aPassOfNoSocketEventsDoesNotSlowTheNext() {
    var pacing = PassPacing(eventsAtMost: 64, budget: 0.0005)
    #expect(pacing.passEnded(events: 0, seconds: 0.01) == 64)
    #expect(!pacing.isSlowed)
  }

  @Test func noBudgetBoundsPassesByCountOnly() {
    var pacing = PassPacing(eventsAtMost: 64, budget: 0)
    #expect(pacing.passEnded(events: 64, seconds: 1) == 64)
    #expect(!pacing.isSlowed)
  }

  /// With no bound on the count (`--events-per-pass 0`), the budget alone paces: the cap given
  /// to the event loop is 0 (none) until a pass is too slow, and again once it has grown back.
  @Test func noCountBoundIsPacedByTheBudgetAlone() {
    var pacing = PassPacing(eventsAtMost: 0, budget: 0.001)
    #expect(pacing.cap == 0)
    #expect(pacing.passEnded(events: 10_000, seconds: 0.8) == 12)
    #expect(pacing.isSlowed)
    var cap = 12
    for _ in 0..<40 where cap != 0 { cap = pacing.passEnded(events: 12, seconds: 0.0001) }
    #expect(cap == 0)
    #expect(!pacing.isSlowed)
  }

  /// A bound below the least is kept.
  @Test func aBoundUnderTheLeastIsKept() {
    var pacing = PassPacing(eventsAtMost: 2, budget: 0.0005)
    #expect(pacing.passEnded(events: 2, seconds: 0.01) == 2)
  }
}
