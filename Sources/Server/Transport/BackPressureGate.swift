/// Which connections have their reading paused because the consumer fell behind: a pure value
/// that the service thread keeps beside the shared counters of `InboundBackPressure`.
///
/// A connection whose message brings the unacknowledged bytes above the high-water mark stops
/// being read (`lws_rx_flow_control(wsi, 0)`); once they fall below the low-water mark, every
/// paused connection is read again. The gap between the marks keeps a busy consumer from
/// pausing and resuming on every message.
struct BackPressureGate {
  /// Above this many unacknowledged bytes, a connection that delivers a message is paused.
  let highWater: Int
  /// Below this many unacknowledged bytes, every paused connection is read again.
  let lowWater: Int
  /// Connections whose reading is paused.
  private(set) var paused: Set<ConnectionID> = []

  /// A gate with the marks of `counters`.
  init(_ counters: InboundBackPressure) {
    self.init(highWater: counters.highWater, lowWater: counters.lowWater)
  }

  /// A gate with the given marks (`lowWater` ≤ `highWater`).
  init(highWater: Int, lowWater: Int) {
    self.highWater = highWater
    self.lowWater = lowWater
  }

  /// Whether reading `id` pauses now, after its message brought the unacknowledged bytes to
  /// `queuedBytes`: above the high-water mark and not paused yet.
  mutating func pauses(_ id: ConnectionID, queuedBytes: Int) -> Bool {
    queuedBytes > highWater && paused.insert(id).inserted
  }

  /// The connections to read again with `queuedBytes` unacknowledged: every paused one once
  /// below the low-water mark (none is paused afterwards), none otherwise.
  mutating func resume(queuedBytes: Int) -> Set<ConnectionID> {
    guard !paused.isEmpty, queuedBytes < lowWater else { return [] }
    defer { paused = [] }
    return paused
  }

  /// Connection `id` closed. Returns whether it was paused (the paused count changed).
  mutating func closed(_ id: ConnectionID) -> Bool {
    paused.remove(id) != nil
  }
}
