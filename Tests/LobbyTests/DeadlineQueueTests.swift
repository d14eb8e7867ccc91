import Testing

@testable import Lobby

/// Timers as data: keys handed out earliest first, moved and cancelled deadlines, and stale
/// entries that never pile up in front of the live ones.
struct DeadlineQueueTests {
  @Test func dueKeysComeEarliestFirstAndOnlyAtTheirLatestDeadline() {
    var queue = DeadlineQueue<String>()
    queue.schedule("c", at: 3)
    queue.schedule("a", at: 1)
    queue.schedule("b", at: 5)
    queue.schedule("b", at: 2)
    queue.schedule("d", at: 4)
    queue.schedule("d", at: nil)
    #expect(queue.count == 3 && queue.deadline(of: "b") == 2 && queue.deadline(of: "d") == nil)
    #expect(queue.earliest() == 1)
    #expect(queue.popDue(now: 2.5) == ["a", "b"])
    #expect(queue.popDue(now: 10) == ["c"])
    #expect(queue.earliest() == nil && queue.count == 0)
  }

  /// Ten thousand sessions' graces cancelled at once (a crowd that reconnected) sit in front of
  /// the one live deadline: the next look rebuilds the heap from the live keys rather than
  /// dropping them one by one.
  @Test func aCrowdOfCancelledDeadlinesIsRebuiltAwayNotDroppedOneByOne() {
    var queue = DeadlineQueue<String>()
    queue.schedule("table", at: 100)
    for n in 0..<10_000 {
      queue.schedule("session-\(n)-with-a-long-token", at: 30 + Double(n) / 1e4)
    }
    for n in 0..<10_000 { queue.schedule("session-\(n)-with-a-long-token", at: nil) }
    #expect(queue.count == 1 && queue.storedCount == 10_001)
    #expect(queue.earliest() == 100)
    #expect(queue.storedCount == 1)
    #expect(queue.staleSifted <= DeadlineQueue<String>.staleDroppedAtOnce)
    // The same where they are due: popped past them, the live key alone comes out.
    for n in 0..<10_000 { queue.schedule("session-\(n)", at: 30 + Double(n) / 1e4) }
    for n in 0..<10_000 { queue.schedule("session-\(n)", at: nil) }
    #expect(queue.popDue(now: 200) == ["table"])
    #expect(queue.storedCount == 0)
    #expect(queue.staleSifted <= 2 * DeadlineQueue<String>.staleDroppedAtOnce)
  }

  @Test func aFewStaleEntriesAreDroppedWhereTheySurface() {
    var queue = DeadlineQueue<Int>()
    for n in 0..<10 { queue.schedule(n, at: Double(n)) }
    for n in 0..<5 { queue.schedule(n, at: nil) }
    #expect(queue.earliest() == 5)
    #expect(queue.storedCount == 5 && queue.staleSifted == 5)
    #expect(queue.popDue(now: 7) == [5, 6, 7])
  }

  /// The earliest deadline, once looked at, is remembered until something changes it: moved or
  /// cancelled, the top no longer answers; a new earlier one does.
  @Test func aTopLookedAtThenMovedOrCancelledIsNotTheEarliestAnyMore() {
    var queue = DeadlineQueue<String>()
    queue.schedule("a", at: 1)
    queue.schedule("b", at: 2)
    queue.schedule("c", at: 3)
    #expect(queue.earliest() == 1)
    #expect(queue.earliest() == 1)
    queue.schedule("a", at: 5)
    #expect(queue.earliest() == 2, "the top moved later")
    queue.schedule("b", at: nil)
    #expect(queue.earliest() == 3, "the top cancelled")
    queue.schedule("d", at: 0.5)
    #expect(queue.earliest() == 0.5, "a new top")
    queue.schedule("c", at: 0.1)
    #expect(queue.earliest() == 0.1, "another key moved to the top")
    queue.schedule("c", at: 0.1)
    #expect(queue.popDue(now: 1) == ["c", "d"])
    #expect(queue.earliest() == 5)
    queue.schedule("a", at: 0.2)
    #expect(queue.earliest() == 0.2, "the top moved earlier")
    #expect(queue.popDue(now: 10) == ["a"])
    #expect(queue.earliest() == nil)
  }
}
