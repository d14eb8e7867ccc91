import Synchronization

/// The inbound bytes handed to the consumer and not yet acknowledged, shared between the
/// service thread (which adds) and the consumer (which subtracts through
/// `WebSocketTransport.acknowledge(bytes:)`), plus how many connections have reading paused.
///
/// Both counters use sequentially consistent operations: the service thread publishes a pause
/// before it re-reads the byte count, and an acknowledger lowers the byte count before it reads
/// the pause count; so at least one of them sees the other and no paused connection is left
/// waiting for a wake that never comes.
final class InboundBackPressure: Sendable {
  /// Above this many queued bytes, a connection that delivers a message stops being read.
  let highWater: Int
  /// Below this many queued bytes, every paused connection is read again.
  let lowWater: Int
  /// Bytes handed over and not yet acknowledged.
  let queuedBytes = Atomic<Int>(0)
  /// Connections whose reading is paused (the service thread's set, counted for others).
  let pausedConnections = Atomic<Int>(0)

  /// Counters for the given marks (`lowWater` ≤ `highWater`).
  init(highWater: Int, lowWater: Int) {
    self.highWater = highWater
    self.lowWater = lowWater
  }

  /// Service thread: counts a message handed to the consumer; returns the new total.
  func add(_ bytes: Int) -> Int {
    queuedBytes.wrappingAdd(bytes, ordering: .sequentiallyConsistent).newValue
  }

  /// Any thread: `bytes` were handled. Returns whether reading should be resumed now (the
  /// total fell below the low-water mark while some connection is paused).
  func acknowledge(_ bytes: Int) -> Bool {
    let queued = queuedBytes.wrappingSubtract(bytes, ordering: .sequentiallyConsistent).newValue
    return queued < lowWater && pausedConnections.load(ordering: .sequentiallyConsistent) > 0
  }

  /// Whether the total is below the low-water mark.
  var isBelowLowWater: Bool { queuedBytes.load(ordering: .sequentiallyConsistent) < lowWater }
}
