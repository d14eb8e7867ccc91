import Protocol
import Testing

@testable import Server

@Suite struct OutboundQueueTests {
  private func frame(_ size: Int, fill: UInt8 = 0) -> Frame {
    Frame([UInt8](repeating: fill, count: size))
  }

  private func numbered(_ number: Int) -> Frame {
    Frame(withUnsafeBytes(of: number) { Array($0) })
  }

  @Test func isFirstInFirstOut() {
    var queue = OutboundQueue(frameLimit: 10, byteLimit: 1_000)
    for index in 0..<5 {
      let pushed = queue.push(frame(1, fill: UInt8(index)))
      #expect(pushed)
    }
    #expect(queue.count == 5)
    for index in 0..<5 {
      let result = queue.popFirst()
      #expect(result?.payload == [UInt8(index)])
    }
    let result21 = queue.popFirst()
    #expect(result21 == nil)
    #expect(queue.isEmpty)
  }

  @Test func refusesTheFrameBeyondTheFrameLimit() {
    var queue = OutboundQueue(frameLimit: 512, byteLimit: 4 << 20)
    for _ in 0..<512 {
      let result = queue.push(frame(10))
      #expect(result)
    }
    let result32 = queue.push(frame(10))
    #expect(!result32)
    #expect(queue.count == 512)
    _ = queue.popFirst()
    let result36 = queue.push(frame(10))
    #expect(result36)
  }

  @Test func refusesTheFrameBeyondTheByteLimit() {
    var queue = OutboundQueue(frameLimit: 100, byteLimit: 100)
    let result42 = queue.push(frame(60))
    #expect(result42)
    let result44 = queue.push(frame(40))
    #expect(result44)
    #expect(queue.byteCount == 100)
    let result47 = queue.push(frame(1))
    #expect(!result47)
    let result49 = queue.push(frame(0))
    #expect(result49)
    _ = queue.popFirst()
    #expect(queue.byteCount == 40)
    let result53 = queue.push(frame(60))
    #expect(result53)
  }

  @Test func refusesASingleFrameLargerThanTheByteLimit() {
    var queue = OutboundQueue(frameLimit: 100, byteLimit: 100)
    let result59 = queue.push(frame(101))
    #expect(!result59)
    #expect(queue.isEmpty)
    #expect(queue.byteCount == 0)
  }

  @Test func removeAllEmptiesTheQueue() {
    var queue = OutboundQueue(frameLimit: 100, byteLimit: 1_000)
    for _ in 0..<50 { _ = queue.push(frame(3)) }
    queue.removeAll()
    #expect(queue.isEmpty)
    #expect(queue.count == 0)
    #expect(queue.byteCount == 0)
    let result72 = queue.popFirst()
    #expect(result72 == nil)
    let result74 = queue.push(frame(3))
    #expect(result74)
  }

  @Test func keepsOrderAcrossInterleavedPushesAndPops() {
    var queue = OutboundQueue(frameLimit: 1_000, byteLimit: 1 << 20)
    var next = 0
    var expected = 0
    for round in 0..<300 {
      for _ in 0..<(round % 7 + 1) {
        let result84 = queue.push(numbered(next))
        #expect(result84)
        next += 1
      }
      for _ in 0..<(round % 5 + 1) {
        guard let popped = queue.popFirst() else { break }
        #expect(popped.payload == numbered(expected).payload)
        expected += 1
      }
      #expect(queue.count == next - expected)
      #expect(queue.byteCount == (next - expected) * MemoryLayout<Int>.size)
    }
    while let popped = queue.popFirst() {
      #expect(popped.payload == numbered(expected).payload)
      expected += 1
    }
    #expect(expected == next)
  }

  @Test func sharesFramesByReference() {
    let shared = frame(8)
    var first = OutboundQueue(frameLimit: 4, byteLimit: 64)
    var second = OutboundQueue(frameLimit: 4, byteLimit: 64)
    let result107 = first.push(shared)
    #expect(result107)
    let result109 = second.push(shared)
    #expect(result109)
    let result111 = first.popFirst()
    #expect(result111 === shared)
    let result113 = second.popFirst()
    #expect(result113 === shared)
  }
}
