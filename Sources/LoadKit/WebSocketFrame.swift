/// RFC 6455 frames as a client writes and reads them: the client masks what it sends, the
/// server never masks.
public enum WebSocketOpcode: UInt8, Sendable {
  /// A later fragment of a message.
  case continuation = 0x0
  /// UTF-8 text (every protocol message).
  case text = 0x1
  /// Binary data.
  case binary = 0x2
  /// Close, with an optional code and reason.
  case close = 0x8
  /// Ping: answered with a pong carrying the same payload.
  case ping = 0x9
  /// Pong.
  case pong = 0xA
}

/// One decoded frame.
public struct WebSocketFrame: Equatable, Sendable {
  /// Whether this is the last frame of its message.
  public var fin: Bool
  /// What the payload is.
  public var opcode: WebSocketOpcode
  /// The payload, already unmasked.
  public var payload: [UInt8]

  /// A frame with these parts.
  public init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8]) {
    self.fin = fin
    self.opcode = opcode
    self.payload = payload
  }

  /// The close code of a close frame (1005 "no status" when the payload has none).
  public var closeCode: Int {
    payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
  }

  /// Appends this frame, encoded, to `out`: masked with `mask` when given (a client must mask),
  /// unmasked otherwise. Lengths take the 7-, 16- or 64-bit form the size needs.
  public func encode(into out: inout [UInt8], mask: (UInt8, UInt8, UInt8, UInt8)?) {
    out.append((fin ? 0x80 : 0) | opcode.rawValue)
    let maskBit: UInt8 = mask == nil ? 0 : 0x80
    let length = payload.count
    if length < 126 {
      out.append(maskBit | UInt8(length))
    } else if length <= 0xFFFF {
      out.append(maskBit | 126)
      out.append(UInt8(length >> 8))
      out.append(UInt8(length & 0xFF))
    } else {
      out.append(maskBit | 127)
      for shift in stride(from: 56, through: 0, by: -8) {
        out.append(UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(shift)))
      }
    }
    guard let mask else {
      out.append(contentsOf: payload)
      return
    }
    let key = [mask.0, mask.1, mask.2, mask.3]
    out.append(contentsOf: key)
    out.reserveCapacity(out.count + length)
    for (i, byte) in payload.enumerated() { out.append(byte ^ key[i & 3]) }
  }

  /// The frame encoded on its own (see ``encode(into:mask:)``).
  public func encoded(mask: (UInt8, UInt8, UInt8, UInt8)?) -> [UInt8] {
    var out = [UInt8]()
    encode(into: &out, mask: mask)
    return out
  }
}

/// Why a byte stream is not valid WebSocket framing.
public enum FrameError: Error, Equatable, Sendable {
  /// An opcode RFC 6455 reserves.
  case unknownOpcode(UInt8)
  /// A frame longer than the reader accepts.
  case tooLong(UInt64)
  /// RSV bits set, which no extension here negotiated.
  case reservedBits
}

/// Splits a byte stream into frames. Feed it what `read` returned, then take frames until it
/// answers nil (the rest waits for more bytes).
public struct FrameReader: Sendable {
  /// Bytes received but not yet consumed as whole frames.
  private var buffer: [UInt8] = []
  /// Where the next frame starts in `buffer`; consumed bytes are dropped lazily, so that a
  /// read with many small frames costs one compaction instead of one per frame.
  private var start = 0
  /// The largest payload accepted.
  public let maxPayload: Int

  /// A reader that refuses payloads over `maxPayload` bytes.
  public init(maxPayload: Int = 16 << 20) { self.maxPayload = maxPayload }

  /// Adds received bytes.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if start > 0 && start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    } else if start > 65536 {
      buffer.removeFirst(start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// Adds received bytes.
  public mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { append($0) }
  }

  /// The next whole frame, or nil when more bytes are needed.
  public mutating func next() throws(FrameError) -> WebSocketFrame? {
    let available = buffer.count - start
    guard available >= 2 else { return nil }
    let b0 = buffer[start]
    let b1 = buffer[start + 1]
    guard b0 & 0x70 == 0 else { throw .reservedBits }
    guard let opcode = WebSocketOpcode(rawValue: b0 & 0x0F) else {
      throw .unknownOpcode(b0 & 0x0F)
    }
    var header = 2
    var length = UInt64(b1 & 0x7F)
    if length == 126 {
      guard available >= 4 else { return nil }
      length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
      header = 4
    } else if length == 127 {
      guard available >= 10 else { return nil }
      length = 0
      for i in 0..<8 { length = length << 8 | UInt64(buffer[start + 2 + i]) }
      header = 10
    }
    guard length <= UInt64(maxPayload) else { throw .tooLong(length) }
    let masked = b1 & 0x80 != 0
    var key: [UInt8] = []
    if masked {
      guard available >= header + 4 else { return nil }
      key = Array(buffer[(start + header)..<(start + header + 4)])
      header += 4
    }
    guard available >= header + Int(length) else { return nil }
    let from = start + header
    var payload = Array(buffer[from..<(from + Int(length))])
    if masked {
      for i in payload.indices { payload[i] ^= key[i & 3] }
    }
    start = from + Int(length)
    return WebSocketFrame(fin: b0 & 0x80 != 0, opcode: opcode, payload: payload)
  }
}
