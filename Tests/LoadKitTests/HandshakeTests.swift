import Testing

@testable import LoadKit

/// SHA-1 and base64 against published vectors, and the RFC 6455 handshake built on them.
struct HandshakeTests {
  /// Hex text of `bytes`.
  private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  @Test(
    "SHA-1 matches the FIPS 180 examples",
    arguments: [
      ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
      ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
      ),
      (
        "The quick brown fox jumps over the lazy dog",
        "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"
      ),
    ])
  func sha1Vectors(input: String, digest: String) {
    #expect(hex(SHA1.digest(Array(input.utf8))) == digest)
  }

  @Test func sha1OfAMillionAs() {
    // Many blocks, and a length that needs the full 64-bit length field's middle bytes.
    #expect(
      hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
        == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }

  @Test(
    "base64 matches RFC 4648's test vectors",
    arguments: [
      ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
      ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
  func base64Vectors(input: String, encoded: String) {
    #expect(Base64.encode(Array(input.utf8)) == encoded)
  }

  @Test func base64UsesPlusAndSlash() {
    #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
  }

  @Test func acceptOfTheRFC6455Example() {
    // RFC 6455 §1.3's worked example.
    #expect(
      ClientHandshake.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  @Test func randomKeysAreSixteenBytes() {
    var random = SystemRandomNumberGenerator()
    let a = ClientHandshake(using: &random)
    let b = ClientHandshake(using: &random)
    #expect(a.key.count == 24)
    #expect(a.key.hasSuffix("=="))
    #expect(a.key != b.key)
  }

  @Test func requestCarriesKeyVersionAndSubprotocol() {
    let handshake = ClientHandshake(key: "dGhlIHNhbXBsZSBub25jZQ==")
    let text = String(
      decoding: handshake.request(host: "127.0.0.1", port: 8080, subprotocol: "matchismo.v1"),
      as: UTF8.self)
    #expect(text.hasPrefix("GET / HTTP/1.1\r\n"))
    #expect(text.contains("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"))
    #expect(text.contains("Sec-WebSocket-Version: 13\r\n"))
    #expect(text.contains("Sec-WebSocket-Protocol: matchismo.v1\r\n"))
    #expect(text.hasSuffix("\r\n\r\n"))
  }

  @Test func verifyAcceptsTheRightAnswerAndReportsWhereFramesStart() throws {
    let handshake = ClientHandshake(key: "dGhlIHNhbXBsZSBub25jZQ==")
    let head =
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "sec-websocket-accept:  s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
    let bytes = Array(head.utf8) + [0x81, 0x00]
    #expect(try handshake.verify(response: Array(bytes.prefix(20))) == nil)
    #expect(try handshake.verify(response: bytes) == head.utf8.count)
  }

  @Test func verifyRefusesAWrongAcceptOrStatus() {
    let handshake = ClientHandshake(key: "dGhlIHNhbXBsZSBub25jZQ==")
    let wrong = Array(
      "HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Accept: AAAA\r\n\r\n".utf8)
    #expect(throws: ClientHandshake.Failure.accept("AAAA")) {
      try handshake.verify(response: wrong)
    }
    let refused = Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n".utf8)
    #expect(throws: ClientHandshake.Failure.status("HTTP/1.1 403 Forbidden")) {
      try handshake.verify(response: refused)
    }
  }
}
