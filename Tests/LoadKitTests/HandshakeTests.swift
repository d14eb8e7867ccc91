import Model
import Testing

@testable import LoadKit

/// The RFC 6455 handshake: its key and accept value (SHA-1 and base64 from the libraries).
struct HandshakeTests {
  @Test(
    "The accept value is base64 of SHA-1 of the key and the GUID",
    arguments: [
      // RFC 6455 §1.3's worked example.
      ("dGhlIHNhbXBsZSBub25jZQ==", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
      ("AQIDBAUGBwgJCgsMDQ4PEA==", "C/0nmHhBztSRGR1CwL6Tf4ZjwpY="),
      ("/////////////////////w==", "XXpj4jYzLM2yUE0C7TIgMwTQh2g="),
      ("ZmVkY2JhOTg3NjU0MzIxMA==", "DPHp/A2J/E1Ry5468j1UgiPrCOU="),
    ])
  func acceptValues(key: String, accept: String) {
    #expect(ClientHandshake.accept(for: key) == accept)
  }

  @Test func theKeyIsSixteenBytesOfTheGeneratorInBase64() {
    // The low byte of each of SplitMix64's first 16 numbers from seed 7.
    var random = SplitMix64(seed: 7)
    #expect(ClientHandshake(using: &random).key == "1xwCy9oR9v5haessTjDm+A==")
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
      decoding: handshake.request(host: "127.0.0.1", port: 8080, subprotocol: "matchismo.v2"),
      as: UTF8.self)
    #expect(text.hasPrefix("GET / HTTP/1.1\r\n"))
    #expect(text.contains("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"))
    #expect(text.contains("Sec-WebSocket-Version: 13\r\n"))
    #expect(text.contains("Sec-WebSocket-Protocol: matchismo.v2\r\n"))
    #expect(text.hasSuffix("\r\n\r\n"))
    let pinned = String(
      decoding: handshake.request(
        host: "127.0.0.1", port: 8080, path: "/ws?node=n2", subprotocol: nil),
      as: UTF8.self)
    #expect(pinned.hasPrefix("GET /ws?node=n2 HTTP/1.1\r\n"))
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
