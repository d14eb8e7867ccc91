import CDigest

/// What the server keeps of a secret token (a session's or a player's): the SHA-256 of its
/// UTF-8, as 64 lowercase hex digits. The lobby finds a session by this digest and the journal
/// stores only it, so a stolen database resumes nobody's session.
///
/// It lives beside the journal rather than in the lobby: the lobby takes it as
/// ``LobbyEntropy/hash`` and links no C library, so the fuzz targets can compile it alone.
public enum TokenDigest {
  /// The digest of `token`'s UTF-8 as 64 lowercase hex digits.
  public static func hex(_ token: String) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    var digest = [UInt8](repeating: 0, count: 32)
    let bytes = Array(token.utf8)
    // Fails only without memory.
    guard digest_sha256(bytes, bytes.count, &digest) == 1 else { fatalError("SHA-256 failed") }
    out.reserveCapacity(2 * digest.count)
    for byte in digest {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
