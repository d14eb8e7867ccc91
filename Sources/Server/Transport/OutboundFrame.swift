/// Bytes of one encoded message, shared by reference by every connection it is sent to.
///
/// The transport sends them as one WebSocket text frame, so they should be UTF-8.
final class OutboundFrame: Sendable {
  /// The message payload.
  let bytes: [UInt8]

  /// Wraps an encoded message; the array is not copied.
  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Payload size in bytes.
  var count: Int { bytes.count }
}
