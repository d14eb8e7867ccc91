import Model
import Testing

/// The compact times of a deal's moves: tenths of a second since the move before, seven bits a
/// byte.
@Suite("MoveTimes")
struct MoveTimesTests {
  @Test("Times come back in tenths, rounded as the history rounds them, in order")
  func roundTrip() {
    let seconds = [0, 0.04, 0.05, 0.149, 12.7, 12.8, 1638.3, 1638.4, 86_400 * 40 + 0.25]
    var times = MoveTimes()
    for time in seconds { times.append(time) }
    #expect(times.count == seconds.count)
    #expect(times.seconds == [0, 0, 0.1, 0.1, 12.7, 12.8, 1638.3, 1638.4, 3_456_000.3])
  }

  @Test("A time comes back as the tenth the history shows for it, whatever it was")
  func sameTenthsAsTheHistory() {
    var generator = SeededGenerator(seed: 17)
    var times = MoveTimes()
    var exact: [Double] = []
    var now = 0.0
    for _ in 0..<5_000 {
      now += Double.random(in: 0..<3, using: &generator)
      exact.append(now)
      times.append(now)
    }
    // What `StatusLine` puts on the wire for a history entry made at `exact`.
    #expect(times.seconds == exact.map { ($0 * 10).rounded() / 10 })
  }

  @Test("A gap under 12.8 s takes one byte, under 27 minutes two")
  func bytesPerGap() {
    for (gap, bytes) in [(0.0, 1), (12.7, 1), (12.8, 2), (1638.3, 2), (1638.4, 3)] {
      var times = MoveTimes()
      times.append(gap)
      #expect(times.byteCount == bytes, "a gap of \(gap) s")
    }
  }

  @Test("A table's cap of moves a second or less apart takes a byte each, not eight")
  func aFullDealIsSmall() {
    var times = MoveTimes()
    for move in 0..<MoveLog.defaultCap { times.append(Double(move) * 0.125) }
    #expect(times.byteCount == MoveLog.defaultCap)
    #expect(times.seconds.last == 255.9)
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
