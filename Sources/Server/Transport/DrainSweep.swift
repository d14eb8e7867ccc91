/// Where the drain check's walk over the watched connections stands (issue 36): a few at a
/// time, one step a pass, rather than all of them at once.
///
/// Each watched connection costs the check an `ioctl` or two and a lookup, 2-3 µs. A crowd's
/// storm puts thousands on the watch at once (every spectator that comes back is sent its
/// snapshot into an empty queue), and one check of all of them held the service thread, and
/// the players' moves behind it, for 12-27 ms (docs/BENCHMARKS.md, "The drain check and the
/// listen queue in steps").
///
/// A sweep begins with the connections watched then (``begin(count:)``); each step looks at the
/// next ``perStep`` of them. The list is compacted as the sweep goes: the connections kept so
/// far sit at its front (``kept``); those appended meanwhile, past ``end``, wait for the next
/// sweep. Pure value: the loop owns the list and asks this which indices to look at.
struct DrainSweep: Equatable {
  /// Connections looked at in one step.
  static let perStep = 64

  /// The next index to look at.
  private(set) var next = 0
  /// How many this sweep kept so far: they sit at indices `0..<kept`.
  private(set) var kept = 0
  /// The list's length when the sweep began.
  private(set) var end = 0
  /// Whether a sweep was begun and not finished yet.
  private(set) var isBegun = false
  /// Connections found blocked by this sweep, and the most bytes one of them holds (kept after
  /// it ends, until the next begins).
  private(set) var blocked = 0
  private(set) var largestBlocked = 0

  /// Whether a sweep has connections left to look at.
  var isUnderWay: Bool { isBegun && next < end }

  /// Begins a sweep over the `count` connections watched now (the first `count` of the list);
  /// false (and nothing changes) while one is begun and not finished.
  mutating func begin(count: Int) -> Bool {
    guard !isBegun else { return false }
    next = 0
    kept = 0
    end = max(0, count)
    blocked = 0
    largestBlocked = 0
    isBegun = true
    return true
  }

  /// The indices the next step looks at (at most `limit`), taken from the sweep.
  mutating func step(upTo limit: Int = DrainSweep.perStep) -> Range<Int> {
    let range = next..<min(end, next + max(1, limit))
    next = range.upperBound
    return range
  }

  /// The connection just looked at stays watched: the index it moves to.
  mutating func keep() -> Int {
    kept += 1
    return kept - 1
  }

  /// The connection just looked at is blocked, holding `bytes`.
  mutating func noteBlocked(bytes: Int) {
    blocked += 1
    largestBlocked = max(largestBlocked, bytes)
  }

  /// Ends a sweep that has looked at all of its connections: the indices to remove from the
  /// list (those it looked at and did not keep). Nil while it is under way, or when none was
  /// begun since the last one ended.
  mutating func finish() -> Range<Int>? {
    guard isBegun, next >= end else { return nil }
    isBegun = false
    return kept..<end
  }
}
