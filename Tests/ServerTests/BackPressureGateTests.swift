import Testing

@testable import Server

/// Which connections stop being read while the consumer is behind, and when they read again.
@Suite struct BackPressureGateTests {
  private static let alice = ConnectionID(rawValue: 1)
  private static let bob = ConnectionID(rawValue: 2)

  @Test func aConnectionPausesOnceAboveTheHighWaterMark() {
    var gate = BackPressureGate(highWater: 100, lowWater: 50)
    #expect(gate.pauses(Self.alice, queuedBytes: 100) == false)
    #expect(gate.pauses(Self.alice, queuedBytes: 101) == true)
    #expect(gate.pauses(Self.alice, queuedBytes: 500) == false)
    #expect(gate.pauses(Self.bob, queuedBytes: 150) == true)
    #expect(gate.paused == [Self.alice, Self.bob])
  }

  @Test func everyPausedConnectionReadsAgainOnlyBelowTheLowWaterMark() {
    var gate = BackPressureGate(highWater: 100, lowWater: 50)
    _ = gate.pauses(Self.alice, queuedBytes: 120)
    _ = gate.pauses(Self.bob, queuedBytes: 130)
    // Between the marks: still paused.
    #expect(gate.resume(queuedBytes: 50) == [])
    #expect(gate.paused.count == 2)
    #expect(gate.resume(queuedBytes: 49) == [Self.alice, Self.bob])
    #expect(gate.paused.isEmpty)
    #expect(gate.resume(queuedBytes: 0) == [])
    // Paused again by the next message above the mark.
    #expect(gate.pauses(Self.alice, queuedBytes: 101) == true)
  }

  @Test func aClosedConnectionIsNoLongerPaused() {
    var gate = BackPressureGate(highWater: 10, lowWater: 5)
    _ = gate.pauses(Self.alice, queuedBytes: 20)
    #expect(gate.closed(Self.bob) == false)
    #expect(gate.closed(Self.alice) == true)
    #expect(gate.closed(Self.alice) == false)
    #expect(gate.resume(queuedBytes: 0) == [])
  }

  @Test func theMarksAreTheSharedCounters() {
    let gate = BackPressureGate(InboundBackPressure(highWater: 64, lowWater: 16))
    #expect(gate.highWater == 64 && gate.lowWater == 16)
  }
}
