import Testing

@testable import Server

/// The close of one connection: decided once, sent after or before the queue, answered.
@Suite struct CloseHandshakeTests {
  private static func answer(_ close: CloseHandshake, _ payload: [UInt8])
    -> CloseHandshake
    .PeerCloseAnswer
  {
    payload.withUnsafeBytes { close.answer(toPeerClose: $0) }
  }

  @Test func aCloseIsDecidedOnceAndKeepsItsFirstCodeAndReason() {
    var close = CloseHandshake()
    #expect(close.isOpen && !close.isUnderWay)
    #expect(close.decide(code: 1001, reason: "going away", flushFirst: true) == true)
    #expect(close.decide(code: 4000, reason: "too slow", flushFirst: false) == false)
    #expect(close.request == .init(code: 1001, reason: "going away", flushFirst: true))
    #expect(!close.isOpen && close.isUnderWay)
  }

  @Test func anOrderlyCloseWaitsForTheQueueAViolationDoesNot() {
    var orderly = CloseHandshake()
    _ = orderly.decide(code: 1000, reason: "bye", flushFirst: true)
    #expect(orderly.frameDue(outboundIsEmpty: false) == nil)
    #expect(orderly.frameDue(outboundIsEmpty: true)?.code == 1000)

    var broken = CloseHandshake()
    #expect(broken.decideForViolation(code: 1008, reason: "rate limit") == true)
    #expect(
      broken.frameDue(outboundIsEmpty: false)
        == .init(
          code: 1008, reason: "rate limit", flushFirst: false))
  }

  @Test func aViolationHurriesACloseDecidedBeforeWithoutReplacingIt() {
    var close = CloseHandshake()
    _ = close.decide(code: 1001, reason: "going away", flushFirst: true)
    #expect(close.decideForViolation(code: 1009, reason: "message too big") == false)
    #expect(
      close.frameDue(outboundIsEmpty: false)
        == .init(
          code: 1001, reason: "going away", flushFirst: false))
  }

  @Test func onceTheFrameIsOutNothingElseIsDueAndThePeersCloseEndsIt() {
    var close = CloseHandshake()
    _ = close.decide(code: 1000, reason: "", flushFirst: false)
    #expect(Self.answer(close, [0x03, 0xE8]) == .echo)
    close.frameWritten()
    #expect(close.frameSent && close.isUnderWay)
    #expect(close.frameDue(outboundIsEmpty: true) == nil)
    // Whatever the reply carries, it ends the handshake.
    #expect(Self.answer(close, [0x03, 0xE8]) == .drop)
    #expect(Self.answer(close, [0x03]) == .drop)
  }

  @Test func aDroppedConnectionIsDueNoFrameNowOrLater() {
    // Cut for not reading while a violation's close was waiting to go out.
    var cut = CloseHandshake()
    _ = cut.decideForViolation(code: 1008, reason: "rate limit")
    cut.drop()
    #expect(cut.isDropped && cut.writesNothingMore && cut.isUnderWay && !cut.isOpen)
    #expect(cut.frameDue(outboundIsEmpty: true) == nil)
    // Nothing decided afterwards brings a frame (and its deadline) back.
    #expect(cut.decide(code: 1001, reason: "going away", flushFirst: true) == false)
    #expect(cut.decideForViolation(code: 4000, reason: "too slow") == false)
    #expect(cut.frameDue(outboundIsEmpty: true) == nil)
    #expect(Self.answer(cut, [0x03, 0xE8]) == .drop)

    var silent = CloseHandshake()
    silent.drop()
    #expect(silent.frameDue(outboundIsEmpty: true) == nil && !silent.isOpen)
    #expect(!silent.frameSent)
  }

  @Test func thePeersCloseIsEchoedOnlyWithAPayloadRFC6455Allows() {
    let close = CloseHandshake()
    #expect(Self.answer(close, []) == .echo)
    #expect(Self.answer(close, [0x03, 0xE8]) == .echo)
    #expect(Self.answer(close, [0x0F, 0x9F] + Array("bye".utf8)) == .echo)  // 3999
    #expect(Self.answer(close, [0x13, 0x87]) == .echo)  // 4999
    #expect(Self.answer(close, [0x03]) == .protocolError)  // a code cut in half
    #expect(Self.answer(close, [0x03, 0xED]) == .protocolError)  // 1005: never sent
    #expect(Self.answer(close, [0x03, 0xE7]) == .protocolError)  // 999
    #expect(Self.answer(close, [0x13, 0x88]) == .protocolError)  // 5000
  }

  @Test func closeCodesThatMayNotBeSentBecome1000() {
    for code: UInt16 in [1000, 1001, 1003, 1008, 1009, 1011, 3000, 4000, 4999] {
      #expect(CloseHandshake.sendableCode(code) == code)
    }
    for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 2000, 2999, 5000] {
      #expect(CloseHandshake.sendableCode(code) == 1000)
    }
  }

  @Test func theReasonIsCutToWholeCharactersWithin123Bytes() {
    #expect(CloseHandshake.reasonByteCount("too slow") == 8)
    #expect(CloseHandshake.reasonByteCount(String(repeating: "a", count: 200)) == 123)
    // A two-byte character that would end at byte 124 is left out whole.
    #expect(CloseHandshake.reasonByteCount(String(repeating: "a", count: 122) + "é") == 122)
    #expect(CloseHandshake.reasonByteCount(String(repeating: "♠", count: 50)) == 123)
    #expect(CloseHandshake.reasonByteCount(String(repeating: "é", count: 70)) == 122)
  }

  @Test func thePayloadIsTheCodeBigEndianThenTheReason() {
    var buffer = [UInt8](repeating: 0xAA, count: 2 + CloseHandshake.maxReasonBytes + 4)
    let reason = String(repeating: "x", count: 122) + "é"
    let length = buffer.withUnsafeMutableBufferPointer {
      CloseHandshake.writePayload(code: 4000, reason: reason, to: $0.baseAddress!)
    }
    #expect(length == 124)
    #expect(buffer[0] == 0x0F && buffer[1] == 0xA0)
    #expect(buffer[2..<124].allSatisfy { $0 == UInt8(ascii: "x") })
    #expect(buffer[124] == 0xAA)
  }

  @Test func theSendDeadlineOutlastsTheReplyDeadline() {
    // A close frame may wait behind a full queue; the peer's reply comes at once or never.
    #expect(CloseHandshake.sendTimeoutSeconds == 10)
    #expect(CloseHandshake.ackTimeoutSeconds == 5)
  }
}
