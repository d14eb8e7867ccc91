import Protocol

/// Several frames queued for one connection, written in one go: each frame's WebSocket header
/// and payload copied one after another into one buffer, which lws sends as it stands
/// (`LWS_WRITE_HTTP` skips its own framing; it keeps what the socket did not take and sends it
/// first, as for any write). A server's frames are not masked, so a header depends only on the
/// payload's length. One send for a spectator's whole backlog, where each frame cost a writable
/// callback, a send and two changes of the socket's poll set. Service thread only.
final class WriteBatch {
  /// Most bytes one batch gathers (a frame that would pass it waits for the next write).
  static let byteLimit = 64 * 1024
  /// Spare bytes before the batch, which lws may use (`LWS_PRE`).
  let headroom: Int
  private var buffer: UnsafeMutableRawPointer
  private var capacity: Int
  /// The bytes gathered, after the headroom.
  private(set) var count = 0
  /// The frames gathered.
  private(set) var frames = 0
  /// Their payloads' bytes (without the headers).
  private(set) var payloadBytes = 0

  init(headroom: Int) {
    self.headroom = headroom
    capacity = headroom + Self.byteLimit
    buffer = .allocate(byteCount: capacity, alignment: 16)
  }

  deinit { buffer.deallocate() }

  /// The length of a server frame's header for a payload of `length` bytes.
  static func headerLength(payload length: Int) -> Int {
    length < 126 ? 2 : length <= 0xFFFF ? 4 : 10
  }

  /// The bytes `frame` takes in a batch.
  static func size(of frame: Frame) -> Int { headerLength(payload: frame.count) + frame.count }

  /// Whether `first` and `second` fit in one batch (else `first` goes alone, as it is).
  static func fit(_ first: Frame, _ second: Frame) -> Bool {
    size(of: first) + size(of: second) <= byteLimit
  }

  /// Whether `frame` fits after what is gathered.
  func fits(_ frame: Frame) -> Bool { count + Self.size(of: frame) <= Self.byteLimit }

  /// Starts again, empty.
  func reset() {
    count = 0
    frames = 0
    payloadBytes = 0
  }

  /// Appends `frame`'s header (FIN, text) and payload. The caller checked that it fits
  /// (``fits(_:)``, ``fit(_:_:)``).
  func append(_ frame: Frame) {
    let length = frame.count
    var at = buffer + headroom + count
    at.storeBytes(of: 0x81, as: UInt8.self)
    if length < 126 {
      (at + 1).storeBytes(of: UInt8(length), as: UInt8.self)
      at += 2
    } else if length <= 0xFFFF {
      (at + 1).storeBytes(of: 126, as: UInt8.self)
      (at + 2).storeBytes(of: UInt8(length >> 8), as: UInt8.self)
      (at + 3).storeBytes(of: UInt8(length & 0xFF), as: UInt8.self)
      at += 4
    } else {
      (at + 1).storeBytes(of: 127, as: UInt8.self)
      for index in 0..<8 {
        (at + 2 + index).storeBytes(of: UInt8((length >> (56 - 8 * index)) & 0xFF), as: UInt8.self)
      }
      at += 10
    }
    frame.withWireBuffer { payload, length in at.copyMemory(from: payload, byteCount: length) }
    count = at + length - (buffer + headroom)
    frames += 1
    payloadBytes += length
  }

  /// The gathered bytes (for tests).
  var bytes: [UInt8] {
    Array(UnsafeRawBufferPointer(start: buffer + headroom, count: count))
  }

  /// Calls `body` with the gathered bytes (with ``headroom`` writable bytes before them).
  func withBytes<R>(_ body: (UnsafeMutablePointer<UInt8>, Int) -> R) -> R {
    body((buffer + headroom).assumingMemoryBound(to: UInt8.self), count)
  }
}
