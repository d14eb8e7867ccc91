import Testing

@testable import LoadKit

/// Frame encoding and decoding, with RFC 6455 §5.7's examples.
struct FrameTests {
  private let hello = Array("Hello".utf8)

  @Test func unmaskedTextExample() throws {
    let bytes: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
    #expect(WebSocketFrame(opcode: .text, payload: hello).encoded(mask: nil) == bytes)
    var reader = FrameReader()
    reader.append(bytes)
    #expect(try reader.next() == WebSocketFrame(opcode: .text, payload: hello))
    #expect(try reader.next() == nil)
  }

  @Test func maskedTextExample() throws {
    let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
    let frame = WebSocketFrame(opcode: .text, payload: hello)
    #expect(frame.encoded(mask: (0x37, 0xfa, 0x21, 0x3d)) == bytes)
    var reader = FrameReader()
    reader.append(bytes)
    #expect(try reader.next() == frame)
  }

  @Test func sixteenBitLength() throws {
    let payload = [UInt8](repeating: 7, count: 256)
    let bytes = WebSocketFrame(opcode: .binary, payload: payload).encoded(mask: nil)
    #expect(Array(bytes.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
    #expect(bytes.count == 4 + 256)
    var reader = FrameReader()
    reader.append(bytes)
    #expect(try reader.next()?.payload == payload)
  }

  @Test func sixtyFourBitLengthMasked() throws {
    let payload = (0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let bytes = WebSocketFrame(opcode: .binary, payload: payload).encoded(mask: (1, 2, 3, 4))
    #expect(Array(bytes.prefix(10)) == [0x82, 0xFF, 0, 0, 0, 0, 0, 1, 0, 0])
    #expect(Array(bytes[10..<14]) == [1, 2, 3, 4])
    #expect(bytes[14] == payload[0] ^ 1)
    #expect(bytes[15] == payload[1] ^ 2)
    var reader = FrameReader()
    reader.append(bytes)
    #expect(try reader.next()?.payload == payload)
  }

  @Test func lengthBoundaries() throws {
    for length in [0, 125, 126, 65535, 65536] {
      let payload = [UInt8](repeating: 0x41, count: length)
      let frame = WebSocketFrame(opcode: .text, payload: payload)
      var reader = FrameReader()
      reader.append(frame.encoded(mask: (9, 8, 7, 6)))
      #expect(try reader.next() == frame, "length \(length)")
    }
  }

  @Test func framesSplitAcrossReadsAndSeveralInOneRead() throws {
    let first = WebSocketFrame(opcode: .text, payload: Array(#"{"type":"diff"}"#.utf8))
    let ping = WebSocketFrame(opcode: .ping, payload: [1, 2])
    let close = WebSocketFrame(opcode: .close, payload: [0x03, 0xE9])
    let stream = first.encoded(mask: nil) + ping.encoded(mask: nil) + close.encoded(mask: nil)
    var reader = FrameReader()
    var frames = [WebSocketFrame]()
    for byte in stream {
      reader.append([byte])
      while let frame = try reader.next() { frames.append(frame) }
    }
    #expect(frames == [first, ping, close])
    #expect(frames[2].closeCode == 1001)
    #expect(WebSocketFrame(opcode: .close, payload: []).closeCode == 1005)
  }

  @Test func rejectsReservedOpcodesAndBitsAndOversizedFrames() {
    var reader = FrameReader()
    reader.append([0x83, 0x00])
    #expect(throws: FrameError.unknownOpcode(3)) { try reader.next() }
    var rsv = FrameReader()
    rsv.append([0xC1, 0x00])
    #expect(throws: FrameError.reservedBits) { try rsv.next() }
    var small = FrameReader(maxPayload: 10)
    small.append([0x81, 0x0B])
    #expect(throws: FrameError.tooLong(11)) { try small.next() }
  }
}
