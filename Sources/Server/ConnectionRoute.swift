import Synchronization

/// Where a connection's messages go: the executor its last decided message named (its table's
/// shard), and how many of its events are queued and not yet decided.
final class ConnectionRoute: @unchecked Sendable {
  private let inFlight = Atomic<Int>(0)
  private let shard = Atomic<Int>(-1)
  // Service thread only: the executor the events in flight went to.
  private var current = 0

  /// The executor for the connection's next event (service thread only): the one its events in
  /// flight went to, otherwise its shard's, otherwise `default`.
  func take(default: Int) -> Int {
    if inFlight.load(ordering: .acquiring) == 0 {
      let shard = shard.load(ordering: .relaxed)
      current = shard >= 0 ? shard : `default`
    }
    inFlight.add(1, ordering: .relaxed)
    return current
  }

  /// The connection plays at a table of `shard` now (executor threads).
  func hint(_ shard: Int) {
    self.shard.store(shard, ordering: .relaxed)
  }

  /// One of its events has been decided and its actions handed over (executor threads).
  func done() {
    inFlight.subtract(1, ordering: .releasing)
  }
}
