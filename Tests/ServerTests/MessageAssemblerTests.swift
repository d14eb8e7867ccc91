import Testing

@testable import Server

@Suite struct MessageAssemblerTests {
  private func append(
    _ assembler: inout MessageAssembler, _ bytes: [UInt8], first: Bool, final: Bool
  ) -> MessageAssembler.Outcome {
    bytes.withUnsafeBytes { assembler.append($0, first: first, final: final) }
  }

  private func text(_ string: String) -> [UInt8] { Array(string.utf8) }

  @Test func aSingleChunkIsAWholeMessage() {
    var assembler = MessageAssembler(limit: 8)
    let result15 = append(&assembler, text("hello"), first: true, final: true)
    #expect(result15 == .message(text("hello")))
    #expect(!assembler.isAssembling)
  }

  @Test func anEmptyMessageIsAMessage() {
    var assembler = MessageAssembler(limit: 8)
    let result22 = append(&assembler, [], first: true, final: true)
    #expect(result22 == .message([]))
  }

  @Test func joinsFragments() {
    var assembler = MessageAssembler(limit: 100)
    let result28 = append(&assembler, text("ab"), first: true, final: false)
    #expect(result28 == .incomplete)
    #expect(assembler.isAssembling)
    let result31 = append(&assembler, text("cd"), first: false, final: false)
    #expect(result31 == .incomplete)
    let result33 = append(&assembler, text("ef"), first: false, final: true)
    #expect(result33 == .message(text("abcdef")))
    let result35 = append(&assembler, text("x"), first: true, final: true)
    #expect(result35 == .message(text("x")))
  }

  @Test func acceptsExactlyTheLimit() {
    var assembler = MessageAssembler(limit: 8192)
    let whole = [UInt8](repeating: 0x61, count: 8192)
    let result42 = append(&assembler, whole, first: true, final: true)
    #expect(result42 == .message(whole))
    let result44 = append(&assembler, Array(whole[..<4096]), first: true, final: false)
    #expect(result44 == .incomplete)
    let result46 = append(&assembler, Array(whole[4096...]), first: false, final: true)
    #expect(result46 == .message(whole))
  }

  @Test func refusesOneByteOverTheLimit() {
    var assembler = MessageAssembler(limit: 8192)
    let tooBig = [UInt8](repeating: 0x61, count: 8193)
    let result53 = append(&assembler, tooBig, first: true, final: true)
    #expect(result53 == .tooBig)
    #expect(!assembler.isAssembling)
  }

  @Test func refusesAMessageThatGrowsTooBigInFragments() {
    var assembler = MessageAssembler(limit: 10)
    let six = [UInt8](repeating: 1, count: 6)
    let five = [UInt8](repeating: 1, count: 5)
    let result62 = append(&assembler, six, first: true, final: false)
    #expect(result62 == .incomplete)
    let result64 = append(&assembler, five, first: false, final: false)
    #expect(result64 == .tooBig)
    // The rest of that message is a continuation without a start.
    let result67 = append(&assembler, [1], first: false, final: true)
    #expect(result67 == .unexpectedContinuation)
    // A new message starts clean.
    let result70 = append(&assembler, [2, 3], first: true, final: true)
    #expect(result70 == .message([2, 3]))
  }

  @Test func emptyContinuationsCountAsOneByteEach() {
    var assembler = MessageAssembler(limit: 4)
    let result76 = append(&assembler, [1], first: true, final: false)
    #expect(result76 == .incomplete)
    for _ in 0..<3 {
      let result = append(&assembler, [], first: false, final: false)
      #expect(result == .incomplete)
    }
    let result82 = append(&assembler, [], first: false, final: false)
    #expect(result82 == .tooBig)
  }

  @Test func aContinuationWithoutAStartIsReported() {
    var assembler = MessageAssembler(limit: 4)
    let result88 = append(&assembler, [1], first: false, final: true)
    #expect(result88 == .unexpectedContinuation)
  }

  @Test func resetDropsAPartialMessage() {
    var assembler = MessageAssembler(limit: 10)
    _ = append(&assembler, [1, 2, 3], first: true, final: false)
    assembler.reset()
    #expect(!assembler.isAssembling)
    let result97 = append(&assembler, [4], first: true, final: true)
    #expect(result97 == .message([4]))
  }
}
