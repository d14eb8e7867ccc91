import Synchronization

/// Where a connection's messages go: the executor its last decided message named (its table's
/// shard), and how many of its events are queued and not yet decided. And the connection's
/// client address, for the lobby to hear with its first message that needs the whole state.
final class ConnectionRoute: @unchecked Sendable {
  private let inFlight = Atomic<Int>(0)
  private let shard = Atomic<Int>(-1)
  // Service thread only: the executor the events in flight went to.
  private var current = 0
  /// The client's address, if the transport named one.
  let address: String?
  // Read and written with the lobby held exclusively.
  private var told = false

  init(address: String? = nil) {
    self.address = address
  }

  /// The address, the first time it is asked for (the lobby held exclusively); then nil.
  func untoldAddress() -> String? {
    guard !told else { return nil }
    told = true
    return address
  }

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
