/// Joins the receive chunks of one WebSocket message and enforces the size limit.
///
/// libwebsockets hands a message over in chunks (at most its rx buffer each, and one or more
/// per frame); `first`/`final` come from `lws_is_first_fragment` / `lws_is_final_fragment`.
/// A message that fits one chunk is copied once and never buffered. Empty chunks after the
/// first count as one byte each, so an endless run of empty continuation frames also ends at
/// the limit.
struct MessageAssembler {
  /// What one chunk completed.
  enum Outcome: Equatable {
    /// More chunks are needed.
    case incomplete
    /// A whole message.
    case message([UInt8])
    /// The message grew beyond `limit`; its bytes were dropped (close with 1009).
    case tooBig
    /// A continuation arrived without a first chunk; it was dropped.
    case unexpectedContinuation
  }

  /// Largest message in bytes.
  let limit: Int

  private var buffer: [UInt8] = []
  private var charged = 0
  private var inMessage = false

  /// An assembler for messages of at most `limit` bytes.
  init(limit: Int) {
    self.limit = limit
  }

  /// Whether a message is partly received.
  var isAssembling: Bool { inMessage }

  /// Whether a chunk of `count` bytes, followed by the `remainingInFrame` bytes its frame
  /// header still announces, would take the message beyond `limit`: then the message can be
  /// refused before those bytes arrive.
  func wouldExceedLimit(chunk count: Int, first: Bool, remainingInFrame: Int) -> Bool {
    let soFar = first || !inMessage ? 0 : charged
    return remainingInFrame > limit || soFar + count + remainingInFrame > limit
  }

  /// Adds one receive chunk.
  mutating func append(_ chunk: UnsafeRawBufferPointer, first: Bool, final: Bool) -> Outcome {
    if first {
      buffer.removeAll(keepingCapacity: true)
      charged = 0
      inMessage = true
    } else if !inMessage {
      return .unexpectedContinuation
    }
    charged += first ? chunk.count : max(chunk.count, 1)
    guard charged <= limit else {
      reset()
      return .tooBig
    }
    if first && final {
      inMessage = false
      return .message(Array(chunk))
    }
    buffer.append(contentsOf: chunk)
    guard final else { return .incomplete }
    let message = buffer
    buffer = []
    inMessage = false
    return .message(message)
  }

  /// Forgets any partly received message and its storage.
  mutating func reset() {
    buffer = []
    charged = 0
    inMessage = false
  }
}
