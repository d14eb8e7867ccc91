/// SHA-1 (FIPS 180-4), only for checking a server's `Sec-WebSocket-Accept`.
///
/// RFC 6455 fixes SHA-1 for the handshake; it is no security measure there, so a small
/// self-contained implementation is enough and keeps LoadKit free of a crypto library.
public enum SHA1 {
  /// The 20-byte digest of `message`.
  public static func digest(_ message: [UInt8]) -> [UInt8] {
    var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
      0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
    )
    var padded = message
    padded.append(0x80)
    while padded.count % 64 != 56 { padded.append(0) }
    let bitLength = UInt64(message.count) &* 8
    for shift in stride(from: 56, through: 0, by: -8) {
      padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    var w = [UInt32](repeating: 0, count: 80)
    for block in stride(from: 0, to: padded.count, by: 64) {
      for i in 0..<16 {
        let b = block + 4 * i
        w[i] =
          UInt32(padded[b]) << 24 | UInt32(padded[b + 1]) << 16 | UInt32(padded[b + 2]) << 8
          | UInt32(padded[b + 3])
      }
      for i in 16..<80 {
        w[i] = rotateLeft(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1)
      }
      var (a, b, c, d, e) = h
      for i in 0..<80 {
        let f: UInt32
        let k: UInt32
        switch i {
        case 0..<20:
          f = (b & c) | (~b & d)
          k = 0x5A82_7999
        case 20..<40:
          f = b ^ c ^ d
          k = 0x6ED9_EBA1
        case 40..<60:
          f = (b & c) | (b & d) | (c & d)
          k = 0x8F1B_BCDC
        default:
          f = b ^ c ^ d
          k = 0xCA62_C1D6
        }
        let temp = rotateLeft(a, 5) &+ f &+ e &+ k &+ w[i]
        e = d
        d = c
        c = rotateLeft(b, 30)
        b = a
        a = temp
      }
      h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
    }
    var out = [UInt8]()
    out.reserveCapacity(20)
    for word in [h.0, h.1, h.2, h.3, h.4] {
      for shift in stride(from: 24, through: 0, by: -8) {
        out.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
      }
    }
    return out
  }

  /// `value` rotated left by `count` bits.
  private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value << count) | (value >> (32 - count))
  }
}

/// Standard base64 (RFC 4648 §4, with `=` padding), for the handshake key and accept value.
public enum Base64 {
  /// The alphabet, index = 6-bit value.
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// `bytes` as padded base64 text.
  public static func encode(_ bytes: [UInt8]) -> String {
    var out = [UInt8]()
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var i = 0
    while i < bytes.count {
      let remaining = bytes.count - i
      let b0 = UInt32(bytes[i])
      let b1 = remaining > 1 ? UInt32(bytes[i + 1]) : 0
      let b2 = remaining > 2 ? UInt32(bytes[i + 2]) : 0
      let triple = b0 << 16 | b1 << 8 | b2
      out.append(alphabet[Int(triple >> 18 & 63)])
      out.append(alphabet[Int(triple >> 12 & 63)])
      out.append(remaining > 1 ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
      out.append(remaining > 2 ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
      i += 3
    }
    return String(decoding: out, as: UTF8.self)
  }
}
