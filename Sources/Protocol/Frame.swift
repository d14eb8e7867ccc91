/// One encoded server message, ready for the wire and shared by every recipient.
///
/// The storage begins with ``headroom`` spare bytes, where the transport writes the WebSocket
/// frame header in place (libwebsockets wants `LWS_PRE` bytes before the payload), so a frame is
/// encoded once and never copied per recipient. Only the transport's single service thread
/// touches the headroom, and a server frame header depends only on the payload length, so every
/// recipient's header is the same bytes.
public final class Frame: @unchecked Sendable {
  /// Spare bytes before the payload; at least libwebsockets' `LWS_PRE` (16 in 4.1).
  public static let headroom = 16

  /// Headroom followed by the payload.
  private var storage: [UInt8]

  /// Encodes a payload straight into storage that already has the headroom.
  public init(encoding body: (inout [UInt8]) -> Void) {
    var storage = [UInt8](repeating: 0, count: Self.headroom)
    storage.reserveCapacity(256)
    body(&storage)
    self.storage = storage
  }

  /// Writes a payload with a ``JSONWriter`` straight into storage that already has the
  /// headroom; `capacity` is the payload size to reserve up front.
  public init(capacity: Int = 240, writing body: (inout JSONWriter) -> Void) {
    var storage = [UInt8](repeating: 0, count: Self.headroom)
    storage.reserveCapacity(Self.headroom + capacity)
    var writer = JSONWriter(bytes: storage)
    storage = []
    body(&writer)
    self.storage = writer.bytes
  }

  /// A frame holding `payload` (copied once, after the headroom).
  public convenience init(_ payload: [UInt8]) {
    self.init { $0 += payload }
  }

  /// A frame holding `value`, encoded once.
  public convenience init(_ value: JSONValue) {
    self.init { value.write(to: &$0) }
  }

  /// Payload size in bytes.
  public var count: Int { storage.count - Self.headroom }

  /// The payload bytes (a copy; for tests and logs, not the hot path).
  public var payload: [UInt8] { Array(storage[Self.headroom...]) }

  /// Appends the payload to `out` (to splice an encoded message into another).
  func appendPayload(to out: inout [UInt8]) {
    out += storage[Self.headroom...]
  }

  /// Whether `other` holds the same payload.
  public func hasSamePayload(as other: Frame) -> Bool {
    self === other || storage[Self.headroom...] == other.storage[Self.headroom...]
  }

  /// Calls `body` with a pointer to the payload, which has ``headroom`` writable bytes before
  /// it, and the payload's length. Transport's service thread only.
  public func withWireBuffer<R>(_ body: (UnsafeMutablePointer<UInt8>, Int) throws -> R) rethrows
    -> R
  {
    let length = count
    return try storage.withUnsafeMutableBufferPointer { buffer in
      try body(buffer.baseAddress! + Self.headroom, length)
    }
  }
}
