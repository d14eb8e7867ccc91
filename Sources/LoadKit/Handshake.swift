import CDigest

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The client side of the RFC 6455 opening handshake.
public struct ClientHandshake: Sendable {
  /// The GUID RFC 6455 appends to the key before hashing.
  public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

  /// The `Sec-WebSocket-Key` sent: 16 random bytes, base64.
  public let key: String

  /// A handshake with a fresh random key.
  public init<R: RandomNumberGenerator>(using random: inout R) {
    key = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
      .base64EncodedString()
  }

  /// A handshake with a given key (tests).
  public init(key: String) { self.key = key }

  /// The `Sec-WebSocket-Accept` a server must answer `key` with: the base64 of the SHA-1 of
  /// `key` and ``guid`` (RFC 6455 fixes SHA-1 here; it is no security measure).
  public static func accept(for key: String) -> String {
    var digest = [UInt8](repeating: 0, count: 20)
    let bytes = Array((key + guid).utf8)
    // Fails only without memory.
    guard digest_sha1(bytes, bytes.count, &digest) == 1 else { fatalError("SHA-1 failed") }
    return Data(digest).base64EncodedString()
  }

  /// The upgrade request for `path` on `host:port`, asking for `subprotocol`.
  public func request(host: String, port: Int, path: String = "/", subprotocol: String?) -> [UInt8]
  {
    var text =
      "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\n"
      + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
    if let subprotocol { text += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
    text += "\r\n"
    return Array(text.utf8)
  }

  /// Why a server's answer is not a valid upgrade.
  public enum Failure: Error, Equatable, Sendable {
    /// The status line is not `HTTP/1.1 101`.
    case status(String)
    /// `Sec-WebSocket-Accept` is missing or wrong.
    case accept(String?)
    /// The headers are longer than any sane upgrade answer.
    case tooLong
  }

  /// Checks a server's answer. `bytes` is everything received so far: answers nil while the
  /// header block is incomplete, otherwise how many bytes the headers took (what follows is
  /// already WebSocket frames), or throws when the upgrade was refused or the accept is wrong.
  public func verify(response bytes: [UInt8]) throws(Failure) -> Int? {
    guard let end = Self.headerEnd(bytes) else {
      if bytes.count > 16384 { throw .tooLong }
      return nil
    }
    let text = String(decoding: bytes[..<end], as: UTF8.self)
    let lines = text.split(separator: "\r\n", omittingEmptySubsequences: true)
    guard let statusLine = lines.first else { throw .status("") }
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1] == "101" else {
      throw .status(String(statusLine))
    }
    var accept: String?
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      if line[..<colon].lowercased() == "sec-websocket-accept" {
        accept = line[line.index(after: colon)...].trimmingSpaces()
      }
    }
    guard accept == Self.accept(for: key) else { throw .accept(accept) }
    return end + 4
  }

  /// Where `\r\n\r\n` starts in `bytes`, if it is there.
  private static func headerEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for i in 0...(bytes.count - 4)
    where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
      return i
    }
    return nil
  }
}

extension Substring {
  /// The text without leading and trailing spaces and tabs.
  fileprivate func trimmingSpaces() -> String {
    var s = self[...]
    while let first = s.first, first == " " || first == "\t" { s = s.dropFirst() }
    while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
    return String(s)
  }
}
