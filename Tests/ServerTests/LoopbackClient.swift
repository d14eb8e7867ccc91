import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal blocking HTTP / WebSocket client for loopback tests: one TCP connection to
/// 127.0.0.1 with 60-second send and receive timeouts (generous: on two cores, CPU-heavy suites running in
/// parallel can keep the echo consumer task from running for several seconds).
final class LoopbackClient {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// One HTTP response.
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
  }

  /// One WebSocket frame from the server.
  struct Frame: Equatable {
    var opcode: UInt8
    var payload: [UInt8]

    /// Close code of a close frame.
    var closeCode: UInt16? {
      guard opcode == 8, payload.count >= 2 else { return nil }
      return UInt16(payload[0]) << 8 | UInt16(payload[1])
    }

    /// Close reason of a close frame.
    var closeReason: String {
      String(decoding: payload.dropFirst(2), as: UTF8.self)
    }
  }

  private let fd: Int32
  private let port: Int
  private var buffer: [UInt8] = []

  init(port: Int) throws {
    self.port = port
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket() failed") }
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(fd)
      throw Failure(description: "connect() failed: errno \(errno)")
    }
  }

  deinit { close(fd) }

  /// Ends the connection from this side (a FIN, as a client that goes away sends), keeping the
  /// descriptor until the client is freed.
  func hangUp() {
    shutdown(fd, Int32(SHUT_RDWR))
  }

  func write(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
      guard sent > 0 else { throw Failure(description: "send() failed: errno \(errno)") }
      offset += sent
    }
  }

  /// Reads more bytes into the buffer; `false` at end of stream.
  private func fill() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count == 0 { return false }
    guard count > 0 else { throw Failure(description: "recv() failed: errno \(errno)") }
    buffer.append(contentsOf: chunk[..<count])
    return true
  }

  private func take(_ count: Int) throws -> [UInt8] {
    while buffer.count < count {
      guard try fill() else { throw Failure(description: "connection closed early") }
    }
    let bytes = Array(buffer[..<count])
    buffer.removeFirst(count)
    return bytes
  }

  private func readHead() throws -> (status: Int, headers: [String: String]) {
    let terminator: [UInt8] = [13, 10, 13, 10]
    var end: Int?
    while end == nil {
      if buffer.count >= 4 {
        end = (0...(buffer.count - 4)).first { Array(buffer[$0..<$0 + 4]) == terminator }
      }
      if end == nil, try !fill() { throw Failure(description: "no HTTP head") }
    }
    let head = String(decoding: try take(end! + 4), as: UTF8.self)
    var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    let statusLine = lines.removeFirst().split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
      throw Failure(description: "bad status line in \(head)")
    }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] =
        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return (status, headers)
  }

  /// `GET path`, returning status, lower-cased headers and body.
  func get(_ path: String) throws -> Response {
    try write(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8))
    let (status, headers) = try readHead()
    let length = Int(headers["content-length"] ?? "0") ?? 0
    return Response(status: status, headers: headers, body: try take(length))
  }

  /// Sends a WebSocket upgrade request; returns the response status and headers.
  /// `origin` adds an `Origin` header; `Host` is `127.0.0.1:<port>`.
  func upgrade(subprotocol: String? = nil, version: String = "13", origin: String? = nil) throws
    -> (status: Int, headers: [String: String])
  {
    try requestUpgrade(subprotocol: subprotocol, version: version, origin: origin)
    return try readHead()
  }

  /// Sends a WebSocket upgrade request without reading the answer (``upgradeAnswer()``).
  func requestUpgrade(subprotocol: String? = nil, version: String = "13", origin: String? = nil)
    throws
  {
    var request =
      "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
      + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      + "Sec-WebSocket-Version: \(version)\r\n"
    if let subprotocol { request += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
    if let origin { request += "Origin: \(origin)\r\n" }
    try write(Array((request + "\r\n").utf8))
  }

  /// The answer to a ``requestUpgrade(subprotocol:version:origin:)``: status and headers.
  func upgradeAnswer() throws -> (status: Int, headers: [String: String]) {
    try readHead()
  }

  /// Sends one masked client frame.
  func sendFrame(opcode: UInt8, _ payload: [UInt8], final: Bool = true) throws {
    try sendFrame(opcode: opcode, payload, declaredLength: payload.count, final: final)
  }

  /// Sends a masked frame header announcing `declaredLength` bytes followed by `payload`
  /// (which may be only the start of what the header announces).
  func sendFrame(opcode: UInt8, _ payload: [UInt8], declaredLength: Int, final: Bool = true)
    throws
  {
    var frame: [UInt8] = [(final ? 0x80 : 0) | opcode]
    if declaredLength < 126 {
      frame.append(0x80 | UInt8(declaredLength))
    } else if declaredLength < 65_536 {
      frame.append(0x80 | 126)
      frame += [UInt8(declaredLength >> 8), UInt8(declaredLength & 0xff)]
    } else {
      frame.append(0x80 | 127)
      frame += (0..<8).reversed().map { UInt8((declaredLength >> ($0 * 8)) & 0xff) }
    }
    let mask: [UInt8] = [0x37, 0xfa, 0x21, 0x3d]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    try write(frame)
  }

  func sendText(_ text: String) throws {
    try sendFrame(opcode: 1, Array(text.utf8))
  }

  /// Reads one (unmasked) server frame, answering keepalive pings on the way: when parallel
  /// CPU-heavy suites starve the server's consumer for longer than the ping interval, the
  /// server pings, and a test waiting for its echo must not mistake the ping for it.
  func readFrame() throws -> Frame {
    while true {
      let head = try take(2)
      var length = Int(head[1] & 0x7f)
      if length == 126 {
        length = try take(2).reduce(0) { $0 << 8 | Int($1) }
      } else if length == 127 {
        length = try take(8).reduce(0) { $0 << 8 | Int($1) }
      }
      let frame = Frame(opcode: head[0] & 0x0f, payload: try take(length))
      guard frame.opcode == 9 else { return frame }
      try sendFrame(opcode: 10, frame.payload)
    }
  }

  /// Reads one (unmasked) server frame as it comes, pings included (not answered).
  func readFrameKeepingPings() throws -> Frame {
    let head = try take(2)
    var length = Int(head[1] & 0x7f)
    if length == 126 {
      length = try take(2).reduce(0) { $0 << 8 | Int($1) }
    } else if length == 127 {
      length = try take(8).reduce(0) { $0 << 8 | Int($1) }
    }
    return Frame(opcode: head[0] & 0x0f, payload: try take(length))
  }

  /// Whether the server closed the connection (reads until end of stream, at most 10 s).
  func readsEndOfStream() -> Bool {
    buffer = []
    return (try? fill()) == false
  }
}

/// Runs blocking client code on a thread of its own, off the Swift concurrency pool and off
/// Dispatch's small global pool, so that the transport's event consumer (and everything else)
/// keeps running while a test waits on a socket.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}
