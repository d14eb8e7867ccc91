import Testing

@testable import Server

/// ``FIFO``: oldest first through appends and takes that interleave, and storage let go.
@Suite struct FIFOTests {
  @Test func elementsComeOutInTheOrderTheyWentInWhateverTheInterleaving() {
    var queue = FIFO<Int>()
    #expect(queue.isEmpty && queue.popFirst() == nil)
    var expected: [Int] = []
    var taken: [Int] = []
    var next = 0
    // Rounds that add more than they take, then take more than they add: the prefix is let go
    // (at 64 taken and half the storage) in the middle of use, more than once.
    for round in 0..<40 {
      for _ in 0..<(round % 2 == 0 ? 90 : 10) {
        queue.append(next)
        expected.append(next)
        next += 1
      }
      for _ in 0..<(round % 2 == 0 ? 30 : 60) {
        if let first = queue.popFirst() { taken.append(first) }
      }
      #expect(queue.count == expected.count - taken.count)
    }
    taken += queue.removeFirst(upTo: 7)
    #expect(queue.count == expected.count - taken.count)
    taken += queue.removeAll()
    #expect(taken == expected)
    #expect(queue.isEmpty && queue.count == 0 && queue.popFirst() == nil)
    #expect(queue.removeFirst(upTo: 3).isEmpty)
  }

  @Test func removeFirstTakesAtMostWhatWaits() {
    var queue = FIFO<String>()
    for name in ["a", "b", "c"] { queue.append(name) }
    #expect(queue.removeFirst(upTo: 2) == ["a", "b"])
    #expect(queue.removeFirst(upTo: 5) == ["c"])
    #expect(queue.removeFirst(upTo: -1).isEmpty)
    queue.append("d")
    #expect(queue.popFirst() == "d")
  }
}
