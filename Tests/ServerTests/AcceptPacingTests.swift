import Testing

@testable import Server

/// A crowd that connects at once is let in ``AcceptPacing/perPass`` connections a pass.
@Suite struct AcceptPacingTests {
  @Test func aPassTakesItsBudgetAndTheRestWaitsInOrderForThePassesAfter() {
    var pacing = AcceptPacing(limit: 1000)
    let now = (0..<AcceptPacing.perPass).map { _ in pacing.accepted() }
    #expect(now.allSatisfy { $0 == .now })
    // Past the budget, each one waits.
    for fd in Int32(100)..<Int32(150) {
      #expect(pacing.accepted() == .wait)
      pacing.wait(fd)
    }
    #expect(pacing.waitingCount == 50)
    // Each pass after takes the next budget's worth, oldest first.
    #expect(pacing.passEnded() == Array(Int32(100)..<Int32(100 + AcceptPacing.perPass)))
    // Its budget is spent on them: a newcomer waits behind the rest.
    #expect(pacing.accepted() == .wait)
    var taken: [Int32] = []
    while pacing.hasWaiting { taken += pacing.passEnded() }
    #expect(taken == Array(Int32(100 + AcceptPacing.perPass)..<Int32(150)))
    // Once none waits, the next pass takes newcomers at once again.
    #expect(pacing.passEnded().isEmpty)
    #expect(pacing.accepted() == .now)
  }

  /// The budget is a pass's: connections that come one a pass, however many, never wait.
  @Test func connectionsThatComeOneAPassNeverWait() {
    var pacing = AcceptPacing(limit: 1000)
    for _ in 0..<(3 * AcceptPacing.perPass) {
      #expect(pacing.accepted() == .now)
      #expect(!pacing.hasWaiting)
      pacing.renewBudget()
    }
    // A pass that took a whole budget: the next one takes as many again.
    for _ in 0..<AcceptPacing.perPass { #expect(pacing.accepted() == .now) }
    #expect(pacing.accepted() == .wait)
  }

  @Test func pastItsLimitANewConnectionIsRefused() {
    var pacing = AcceptPacing(limit: 2)
    for _ in 0..<AcceptPacing.perPass { _ = pacing.accepted() }
    for fd in Int32(7)...Int32(8) {
      #expect(pacing.accepted() == .wait)
      pacing.wait(fd)
    }
    #expect(pacing.accepted() == .refuse)
    #expect(pacing.removeAll() == [7, 8])
    #expect(!pacing.hasWaiting)
  }

  /// While passes are slowed (``PassPacing/share(of:)``) a pass lets in fewer: what it is
  /// given, the budget of new connections taken at once included.
  @Test func aSlowedPassTakesTheFewerItIsGiven() {
    var pacing = AcceptPacing(limit: 1000)
    for _ in 0..<AcceptPacing.perPass { #expect(pacing.accepted() == .now) }
    for fd in Int32(100)..<Int32(110) {
      #expect(pacing.accepted() == .wait)
      pacing.wait(fd)
    }
    #expect(pacing.passEnded(perPass: 3) == [100, 101, 102])
    #expect(pacing.passEnded(perPass: 3) == [103, 104, 105])
    #expect(pacing.passEnded(perPass: 8) == [106, 107, 108, 109])
    // Four of the eight left for newcomers of the coming pass.
    #expect((0..<4).map { _ in pacing.accepted() } == Array(repeating: .now, count: 4))
    #expect(pacing.accepted() == .wait)
    pacing.wait(200)
    #expect(pacing.passEnded(perPass: 1) == [200])
    pacing.renewBudget(perPass: 2)
    #expect(pacing.accepted() == .now)
    #expect(pacing.accepted() == .now)
    #expect(pacing.accepted() == .wait)
  }

  /// While connections wait, the listen queue is taken in steps of ``AcceptPacing/perStep``:
  /// a queue of 600 in three, the last one short (the queue is empty), and none past the limit.
  @Test func theListenQueueIsTakenInStepsOfAFewHundred() {
    var pacing = AcceptPacing(limit: 700)
    for _ in 0..<AcceptPacing.perPass { _ = pacing.accepted() }
    #expect(pacing.accepted() == .wait)
    pacing.wait(1)
    var queue = Array(Int32(2)...Int32(601))[...]
    let next = { () -> Int32? in queue.popFirst() }
    #expect(pacing.takeStep(from: next) == AcceptPacing.perStep)
    #expect(pacing.takeStep(from: next) == AcceptPacing.perStep)
    #expect(pacing.takeStep(from: next) == 600 - 2 * AcceptPacing.perStep)
    #expect(pacing.takeStep(from: next) == 0)
    #expect(pacing.waitingCount == 601)
    // Oldest first: the one that began the wait, then the queue in its order.
    #expect(pacing.passEnded(perPass: 3) == [1, 2, 3])
    // Past the limit the rest stay in the kernel's queue, untouched.
    queue = Array(Int32(1000)...Int32(1199))[...]
    #expect(pacing.takeStep(from: next) == 700 - 598)
    #expect(pacing.waitingCount == 700)
    #expect(queue.first == 1000 + Int32(700 - 598))
  }
}
