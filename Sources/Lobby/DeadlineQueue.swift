/// Timers as data: each key has at most one deadline, and ``popDue(now:)`` hands out the keys
/// whose deadline has come, earliest first. Nothing is visited until it is due, so idle tables
/// cost nothing.
///
/// A binary heap with lazy deletion: moving or cancelling a key's deadline only updates the
/// key's entry in `current`; heap entries that no longer match it are dropped when they surface,
/// a few at a time: past ``staleDroppedAtOnce`` in one look the heap is rebuilt from the live
/// keys instead. A crowd of 10,000 that reconnected at once left as many cancelled session
/// graces in the heap; dropped one by one (a sift each), they held the service thread 9 ms in
/// one pass (docs/BENCHMARKS.md, "The drain check and the listen queue in steps").
public struct DeadlineQueue<Key: PartitionKey & Sendable>: Sendable {
  private var heap: [(time: Double, key: Key)] = []
  private var current = PartitionedDictionary<Key, Double>()
  /// Whether the heap's top was found live and nothing has made it stale since: the lobby asks
  /// for the earliest deadline twice a move, and looking its key up each time (a table's id
  /// hashed) was 2 % of the instructions in the closed loop (callgrind).
  private var topIsLive = false

  /// An empty queue.
  public init() {}

  /// How many keys have a deadline.
  public var count: Int { current.count }

  /// Entries the heap holds, stale ones included.
  var storedCount: Int { heap.count }
  /// Stale entries dropped one by one (a sift each) so far, for the tests.
  private(set) var staleSifted = 0

  /// Stale entries dropped one by one before the heap is rebuilt from the live keys.
  static var staleDroppedAtOnce: Int { 32 }

  /// The earliest deadline, if any.
  public mutating func earliest() -> Double? {
    if !topIsLive {
      var sifted = 0
      dropStale(sifted: &sifted)
    }
    return heap.isEmpty ? nil : heap[0].time
  }

  /// The deadline of `key`, if it has one.
  public func deadline(of key: Key) -> Double? { current[key] }

  /// Sets (or with nil, cancels) the deadline of `key`.
  public mutating func schedule(_ key: Key, at time: Double?) {
    guard let time, !time.isNaN else {
      noteChange(of: key)
      current[key] = nil
      return
    }
    if current[key] == time { return }
    noteChange(of: key)
    current[key] = time
    // Pushed to the top, it is live: its deadline was just set.
    push((time, key))
    // Stale entries are dropped lazily; rebuild when they dominate so memory stays bounded.
    if heap.count > 64 && heap.count > 4 * current.count { rebuild() }
  }

  /// Removes and returns every key whose deadline is at or before `now`, earliest first.
  public mutating func popDue(now: Double) -> [Key] {
    var due: [Key] = []
    var sifted = 0
    while true {
      dropStale(sifted: &sifted)
      guard let top = heap.first, top.time <= now else { return due }
      popTop()
      current[top.key] = nil
      due.append(top.key)
    }
  }

  /// `key`'s deadline changes: the top goes stale if it is `key`'s.
  private mutating func noteChange(of key: Key) {
    if topIsLive && heap[0].key == key { topIsLive = false }
  }

  /// Drops the stale entries on top, counting those sifted away one by one in `sifted`; past
  /// ``staleDroppedAtOnce`` of them, rebuilds the heap from the live keys instead.
  private mutating func dropStale(sifted: inout Int) {
    while let top = heap.first, current[top.key] != top.time {
      guard sifted < Self.staleDroppedAtOnce else {
        rebuild()
        sifted = 0
        return
      }
      popTop()
      sifted += 1
      staleSifted += 1
    }
    topIsLive = !heap.isEmpty
  }

  private mutating func rebuild() {
    topIsLive = false
    heap = current.map { (time: $0.value, key: $0.key) }
    var index = heap.count / 2 - 1
    while index >= 0 {
      siftDown(index)
      index -= 1
    }
  }

  private mutating func push(_ entry: (time: Double, key: Key)) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].time < heap[parent].time else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func popTop() {
    topIsLive = false
    heap.swapAt(0, heap.count - 1)
    heap.removeLast()
    if !heap.isEmpty { siftDown(0) }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < heap.count && heap[left].time < heap[smallest].time { smallest = left }
      if right < heap.count && heap[right].time < heap[smallest].time { smallest = right }
      if smallest == parent { return }
      heap.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
