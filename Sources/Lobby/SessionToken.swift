/// Session tokens: 128 random bits from the system's secure generator, base64url without padding.
public enum SessionToken {
  /// A new unguessable token (22 characters).
  public static func make() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes = [UInt8]()
    for _ in 0..<2 {
      let word = generator.next()
      for shift in stride(from: 0, to: 64, by: 8) {
        bytes.append(UInt8(truncatingIfNeeded: word >> shift))
      }
    }
    return base64URL(bytes)
  }

  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  static func base64URL(_ bytes: [UInt8]) -> String {
    var out = [UInt8]()
    var i = 0
    while i + 2 < bytes.count {
      let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
      for shift in [18, 12, 6, 0] { out.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
      i += 3
    }
    let rest = bytes.count - i
    if rest > 0 {
      var n = UInt32(bytes[i]) << 16
      if rest == 2 { n |= UInt32(bytes[i + 1]) << 8 }
      let digits = rest == 1 ? [18, 12] : [18, 12, 6]
      for shift in digits { out.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
