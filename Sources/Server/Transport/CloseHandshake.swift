/// The close of one WebSocket connection (RFC 6455 section 7): a pure value that the service
/// thread keeps per connection and that tests drive directly.
///
/// A close is decided once: by the application, by a shutdown, or because the peer broke a
/// rule. Its frame goes out at the connection's next writable callback, after the frames still
/// queued when the application or a shutdown asked for it, ahead of them (they are dropped)
/// when a rule was broken. Then the connection waits for the peer's close reply. lws enforces a
/// deadline on each of the two waits (`sendTimeoutSeconds`, `ackTimeoutSeconds`).
struct CloseHandshake {
  /// A close the connection is waiting to send.
  struct Request: Equatable {
    /// WebSocket close code sent to the peer.
    var code: UInt16
    /// Close reason (UTF-8, cut to `maxReasonBytes` when sent).
    var reason: String
    /// Whether queued frames go out first (`close()`, shutdown) or are dropped (violations).
    var flushFirst: Bool
  }

  /// How to answer a close frame from the peer.
  enum PeerCloseAnswer: Equatable {
    /// It replies to our close frame: the handshake is over, drop the connection.
    case drop
    /// The peer started the close with a valid payload: lws echoes it.
    case echo
    /// The peer's payload breaks RFC 6455 (section 7.4): answer 1002 and drop the connection.
    case protocolError
  }

  /// Seconds a decided close may take to get its close frame out before lws drops the socket
  /// (a peer that reads nothing never makes it writable).
  static let sendTimeoutSeconds: Int32 = 10
  /// Seconds to wait for the peer's close reply once the close frame went out.
  static let ackTimeoutSeconds: Int32 = 5
  /// A close payload holds 125 bytes: the 2-byte code and at most this many bytes of reason.
  static let maxReasonBytes = 123

  /// The close decided and not yet sent, if any.
  private(set) var request: Request?
  /// Whether our close frame was written; the connection now waits for the peer's reply.
  private(set) var frameSent = false
  /// Whether the connection is being dropped without a close frame (``drop()``).
  private(set) var isDropped = false

  /// Whether the connection may still be given frames to send (no close decided, not dropped).
  var isOpen: Bool { request == nil && !isDropped }

  /// Whether a close is under way (decided, its frame sent, or dropped), so that the
  /// connection has the close's deadlines and no other.
  var isUnderWay: Bool { request != nil || frameSent || isDropped }

  /// Whether nothing more may be written to the connection: our close frame went out, or it is
  /// being dropped.
  var writesNothingMore: Bool { frameSent || isDropped }

  /// Decides the close unless one was decided already.
  /// - Returns: whether this call decided it (the caller then asks for a writable callback and
  ///   arms `sendTimeoutSeconds`).
  mutating func decide(code: UInt16, reason: String, flushFirst: Bool) -> Bool {
    guard request == nil, !isDropped else { return false }
    request = Request(code: code, reason: reason, flushFirst: flushFirst)
    return true
  }

  /// The peer broke a rule: the close goes out before anything queued.
  /// - Returns: whether this call decided the close (`false`: an earlier close, now hurried,
  ///   keeps its own code and reason).
  mutating func decideForViolation(code: UInt16, reason: String) -> Bool {
    if request != nil {
      request?.flushFirst = false
      return false
    }
    return decide(code: code, reason: reason, flushFirst: false)
  }

  /// The close frame to write at a writable callback, if it is due now: a close is decided,
  /// its frame not sent, and nothing has to go out before it.
  func frameDue(outboundIsEmpty: Bool) -> Request? {
    guard !frameSent, let request, !request.flushFirst || outboundIsEmpty else { return nil }
    return request
  }

  /// Our close frame was written (ours, or the 1002 that answers a broken close payload).
  mutating func frameWritten() {
    frameSent = true
  }

  /// The connection is dropped without a close frame (a peer that reads nothing, or answers no
  /// PING, would never see one): no frame is due from now on, and no close is decided later.
  /// Writing one would arm the close's own deadline in place of the drop (lws keeps one
  /// timeout a connection): a silent socket cut for not reading stayed open 5 s more.
  mutating func drop() {
    isDropped = true
    request = nil
  }

  /// The answer to a close frame from the peer with `payload`.
  func answer(toPeerClose payload: UnsafeRawBufferPointer) -> PeerCloseAnswer {
    if writesNothingMore { return .drop }
    return Self.isValidPeerClosePayload(payload) ? .echo : .protocolError
  }

  /// Whether a peer's close payload may be echoed: empty, or a code that may be sent (RFC 6455
  /// section 7.4) and a reason. A 1-byte payload or a reserved code gets 1002 instead.
  static func isValidPeerClosePayload(_ payload: UnsafeRawBufferPointer) -> Bool {
    if payload.isEmpty { return true }
    guard payload.count >= 2 else { return false }
    let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
    return sendableCode(code) == code
  }

  /// `code` if it may appear in a close frame, 1000 otherwise (1004-1006, 1015 and codes
  /// outside 1000-4999 are reserved).
  static func sendableCode(_ code: UInt16) -> UInt16 {
    switch code {
    case 1000...1003, 1007...1014, 3000...4999: code
    default: 1000
    }
  }

  /// How many bytes of `reason` a close frame carries: all of it, or the longest run of whole
  /// characters (Unicode scalars) that fits in `maxReasonBytes`.
  static func reasonByteCount(_ reason: String) -> Int {
    var count = 0
    for scalar in reason.unicodeScalars {
      let length = UTF8.width(scalar)
      if count + length > maxReasonBytes { break }
      count += length
    }
    return count
  }

  /// Writes the close payload (the code, big-endian, then the reason cut by
  /// `reasonByteCount`) at `payload`, which has room for `2 + reasonByteCount(reason)` bytes.
  /// - Returns: the payload's length.
  static func writePayload(code: UInt16, reason: String, to payload: UnsafeMutablePointer<UInt8>)
    -> Int
  {
    payload[0] = UInt8(code >> 8)
    payload[1] = UInt8(code & 0xff)
    var index = 2
    for byte in reason.utf8.prefix(reasonByteCount(reason)) {
      payload[index] = byte
      index += 1
    }
    return index
  }
}
