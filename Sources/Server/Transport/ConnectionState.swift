#if canImport(Glibc)
  import Glibc
#endif

/// Everything the service thread keeps for one open WebSocket connection. Service thread only.
final class ConnectionState {
  /// Where the keepalive PING of a connection is.
  enum PingState {
    /// None outstanding.
    case none
    /// Due: waiting for `LWS_CALLBACK_SERVER_WRITEABLE` to write it.
    case wanted
    /// Written; waiting for the PONG.
    case sent
  }

  /// The connection's id.
  let id: ConnectionID
  /// The lws connection; valid until `LWS_CALLBACK_CLOSED`.
  let wsi: OpaquePointer
  /// Whether this server opened it, to another server (`TransportCommand.connect`): a link
  /// is the client side, whose frames lws masks (so each is copied to the link's own buffer
  /// first), and the other server's frames are not rate limited and may be as long as
  /// ``TransportConfiguration/maxLinkMessageBytes``.
  let isLink: Bool
  /// Frames waiting for `LWS_CALLBACK_SERVER_WRITEABLE`.
  var outbound: OutboundQueue
  /// The message being received.
  var inbound: MessageAssembler
  /// Inbound message rate limit.
  var rate: TokenBucket
  /// Where the connection's close is; new frames are dropped once it is decided.
  var close = CloseHandshake()
  /// Set after a protocol violation or once the close frame is out: input is ignored until the
  /// connection is gone.
  var ignoresInput = false
  /// Keepalive: the last time the peer proved alive (a message or a PONG arrived, or the
  /// connection opened).
  var lastAlive: Double
  /// Keepalive: where the server's PING is.
  var ping = PingState.none
  /// Drain watch: where its clock is; nil while it is not blocked (see `DrainClock`).
  var drainReading: DrainClock.Reading?
  /// Whether the connection is on the service loop's drain-watch list.
  var isDrainWatched = false
  /// The peer's address, when the per-address limit counted it.
  var countedAddress: String?
  /// Refused right after its upgrade (the per-address limit): the consumer never hears of it.
  var isRefused = false
  /// Whether a writable callback was asked for by `ServiceLoop.requestWrite(_:)` and has not
  /// come yet.
  var writeRequested = false
  /// Whether a write made at its crowd turn, outside a writable callback, failed: its next
  /// callback closes it (``ServiceLoop/writeAtTurn(_:)``).
  var writeFailed = false
  /// The crowd it watches (`TransportCommand.sendToCrowd`), whose frames it is sent from
  /// ``cursor`` on, when its turn comes.
  var crowd: Crowd?
  /// Whether it is among the connections served first (``FirstServed``).
  var isServedFirst = false
  /// Whether it was, when its reading was paused: it is again when reading resumes.
  var isServedFirstOnResume = false
  /// The index of the next frame of its crowd it has not been sent.
  var cursor = 0
  /// Its place among its crowd's members.
  var crowdPlace = -1
  /// The number of its crowd's last look at who stays (`Crowd.newMembers(_:state:)`), when it
  /// was among them; 0 from its joining until then.
  var crowdMark: UInt64 = 0

  /// Whether anything waits to be written: its queue, or frames of its crowd.
  var hasPendingOutput: Bool { !outbound.isEmpty || (crowd.map { cursor < $0.head } ?? false) }

  private var writeBuffer: UnsafeMutableRawPointer?
  private var writeBufferCapacity = 0

  /// State for a connection that was just established at time `now`.
  init(
    id: ConnectionID, wsi: OpaquePointer, configuration: TransportConfiguration, now: Double,
    isLink: Bool = false
  ) {
    self.id = id
    self.wsi = wsi
    self.isLink = isLink
    outbound = OutboundQueue(
      frameLimit: configuration.outboundQueueFrameLimit,
      byteLimit: configuration.outboundQueueByteLimit)
    inbound = MessageAssembler(
      limit: isLink ? configuration.maxLinkMessageBytes : configuration.maxMessageBytes)
    rate = TokenBucket(
      capacity: configuration.rateBurst, refillPerSecond: configuration.rateRefillPerSecond,
      now: now)
    lastAlive = now
  }

  /// Whether the connection may still receive frames.
  var isOpenForSending: Bool { close.isOpen }

  /// This connection's own buffer with at least `capacity` bytes, for close frames (and a
  /// link's frames: messages are otherwise written from their shared `Frame`); allocated on
  /// first use, kept until
  /// `release`.
  func writeBuffer(capacity: Int) -> UnsafeMutableRawPointer {
    if let writeBuffer, writeBufferCapacity >= capacity { return writeBuffer }
    var size = max(256, writeBufferCapacity)
    while size < capacity { size *= 2 }
    guard let grown = realloc(writeBuffer, size) else {
      fatalError("out of memory for a \(size)-byte write buffer")
    }
    writeBuffer = grown
    writeBufferCapacity = size
    return grown
  }

  /// Frees the write buffer and drops queued frames; called at `LWS_CALLBACK_CLOSED`.
  func release() {
    free(writeBuffer)
    writeBuffer = nil
    writeBufferCapacity = 0
    outbound.removeAll()
    inbound.reset()
    if let crowd { _ = crowd.leave(self) }
  }
}
