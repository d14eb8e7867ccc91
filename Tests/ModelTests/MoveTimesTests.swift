import Model
import Testing

/// The compact times of a deal's moves: milliseconds since the move before, seven bits a byte.
@Suite("MoveTimes")
struct MoveTimesTests {
  @Test("Times come back to the millisecond, in order")
  func roundTrip() {
    let seconds = [0, 0.0004, 0.0006, 0.127, 0.128, 16.383, 16.384, 3600.5, 86_400 * 40 + 0.25]
    var times = MoveTimes()
    for time in seconds { times.append(time) }
    #expect(times.count == seconds.count)
    #expect(times.seconds == [0, 0, 0.001, 0.127, 0.128, 16.383, 16.384, 3600.5, 3_456_000.25])
  }

  @Test("A gap under 128 ms takes one byte, under 16.4 s two, under 35 minutes three")
  func bytesPerGap() {
    for (gap, bytes) in [(0.0, 1), (0.127, 1), (0.128, 2), (16.383, 2), (16.384, 3), (2097.151, 3)]
    {
      var times = MoveTimes()
      times.append(gap)
      #expect(times.byteCount == bytes, "a gap of \(gap) s")
    }
  }

  @Test("A table's cap of moves a few milliseconds apart takes a byte each, not eight")
  func aFullDealIsSmall() {
    var times = MoveTimes()
    for move in 0..<MoveLog.defaultCap { times.append(Double(move) * 0.125) }
    #expect(times.byteCount == MoveLog.defaultCap)
    #expect(times.seconds.last == Double(MoveLog.defaultCap - 1) * 0.125)
  }

  @Test(
    "A time before the last, negative or not finite counts as no gap",
    arguments: [-1, -.infinity, .nan, .infinity, 1.0])
  func timesThatDoNotGrow(odd: Double) {
    var times = MoveTimes()
    times.append(2)
    times.append(odd)
    #expect(times.seconds == [2, 2])
  }
}
