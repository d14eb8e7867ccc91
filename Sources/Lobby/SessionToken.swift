#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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

  /// `bytes` in base64url (RFC 4648 §5) without padding: Foundation's base64 with `-` for `+`,
  /// `_` for `/` and the trailing `=` dropped.
  static func base64URL(_ bytes: [UInt8]) -> String {
    let standard = Data(bytes).base64EncodedString()
    var out = [UInt8]()
    out.reserveCapacity(standard.utf8.count)
    for byte in standard.utf8 {
      switch byte {
      case UInt8(ascii: "+"): out.append(UInt8(ascii: "-"))
      case UInt8(ascii: "/"): out.append(UInt8(ascii: "_"))
      case UInt8(ascii: "="): break
      default: out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
