import CWebSockets
import Logging
import Protocol
import Synchronization

/// Source of connection ids, shared by all transports so that an id is never reused in the process.
private let connectionNumbers = Atomic<UInt64>(1)

/// Owns the lws context, its libev loop and every connection; lives on the transport's service
/// thread and is never touched from another thread.
///
/// Lifecycle (all on the service thread): `createContext()`, `run()` until a shutdown stops
/// the loop, `destroy()`. lws reaches this object through the context's user pointer.
///
/// The libev loop is created here and handed to lws as a "foreign" loop. That keeps lws from
/// installing its libev SIGINT watcher (which would take SIGINT away from the application and
/// reset it to the default action when the context is destroyed), and lets the loop be stopped
/// with `ev_break` instead of destroying the context from inside a callback.
final class ServiceLoop {
  private let configuration: TransportConfiguration
  private let logger: Logger
  private let inbox: TransportInbox
  /// Commands waiting behind a `hold` whose ticket is not released yet.
  private var held = HeldCommands()
  private let continuation: AsyncStream<TransportEvent>.Continuation
  private let backPressure: InboundBackPressure
  /// Takes the events on this thread when set (the `events` stream then stays empty).
  private let handler: (any ServiceThreadHandler)?
  private var handlerCommands: [TransportCommand] = []
  private var handlerTimerArmedAt: Double?
  private let originPolicy: OriginPolicy
  private var staticFiles: StaticFiles?
  private let metrics: TransportMetrics?
  /// `/metrics` bodies (with `LWS_PRE` bytes of headroom) waiting for their connection's
  /// `LWS_CALLBACK_HTTP_WRITEABLE`, by HTTP connection.
  private var pendingHTTPBodies: [OpaquePointer: [UInt8]] = [:]

  private var resources: LWSResources?
  private var context: OpaquePointer?
  private var eventLoop: OpaquePointer?
  private var tick: UnsafeMutablePointer<ev_timer>?
  /// Around each wait of the loop: what other threads posted is taken before it waits, and
  /// they wake it only while it waits (``TransportInbox/sleepUnlessPending()``).
  private var beforeWait: UnsafeMutablePointer<ev_prepare>?
  private var afterWait: UnsafeMutablePointer<ev_check>?
  private var connections: [ConnectionID: ConnectionState] = [:]
  /// Connections whose reading is paused by back-pressure (`lws_rx_flow_control(wsi, 0)`).
  private var pausedConnections: Set<ConnectionID> = []
  private var commandBuffer: [TransportCommand] = []
  private var shuttingDown = false
  private var stopRequested = false
  private var refusedAtLimit = 0
  private var lastLimitWarning = -Double.infinity
  /// Seconds of silence before a PING (0: keepalive off) and before hanging up.
  private let pingIdleSeconds: Double
  private let hangupIdleSeconds: Double
  /// When each connection's keepalive is looked at next.
  private var keepalive: KeepaliveWheel
  private var keepaliveDue: [ConnectionID] = []

  /// Seconds a decided close may take to get its close frame out before lws drops the socket.
  private static let closeSendTimeoutSeconds: Int32 = 10
  /// Seconds to wait for the peer's close reply after the close frame went out.
  private static let closeAckTimeoutSeconds: Int32 = 5

  /// A loop that reports to `continuation` and takes commands from `inbox`.
  init(
    configuration: TransportConfiguration, logger: Logger, inbox: TransportInbox,
    continuation: AsyncStream<TransportEvent>.Continuation, backPressure: InboundBackPressure,
    handler: (any ServiceThreadHandler)? = nil, metrics: TransportMetrics? = nil
  ) {
    self.handler = handler
    self.configuration = configuration
    self.logger = logger
    self.metrics = metrics
    self.inbox = inbox
    self.continuation = continuation
    self.backPressure = backPressure
    originPolicy = OriginPolicy(allowedOrigins: configuration.allowedOrigins)
    pingIdleSeconds = Double(configuration.pingIdleSeconds)
    hangupIdleSeconds = Double(configuration.hangupIdleSeconds)
    // Enough slots that a hang-up deadline never wraps around the wheel.
    keepalive = KeepaliveWheel(
      slotCount: min(4096, Int(configuration.hangupIdleSeconds) + 2), now: MonotonicClock.now())
  }

  // MARK: - Lifecycle

  /// Creates the libev loop and the lws context (which binds the port), then opens the inbox
  /// for commands.
  /// - Parameter webRoot: absolute path of the directory to serve, or `nil`.
  /// - Returns: the port actually listened on.
  func createContext(webRoot: String?) throws(TransportError) -> Int {
    let resources = LWSResources(
      configuration: configuration, perSessionDataSize: MemoryLayout<shim_session>.size)
    staticFiles = webRoot.map(StaticFiles.init(root:))
    resources.protocols[0].callback = httpProtocolCallback
    resources.protocols[1].callback = websocketProtocolCallback
    guard let eventLoop = shim_ev_loop_new() else { throw .eventLoopUnavailable }
    let me = Unmanaged.passUnretained(self).toOpaque()
    resources.foreignLoops[0] = UnsafeMutableRawPointer(eventLoop)
    resources.deadlineTimer.pointee.owner = me
    resources.handlerTimer.pointee.owner = me
    resources.keepaliveTimer.pointee.owner = me

    var info = lws_context_creation_info()
    info.port = Int32(configuration.port)
    info.protocols = UnsafePointer(resources.protocols)
    info.pvo = UnsafePointer(resources.protocolOptions)
    info.user = me
    info.foreign_loops = resources.foreignLoops
    // lws only registers its SIGINT watcher on loops it creates itself; this no-op callback
    // also keeps it from breaking the loop should it ever do so.
    info.signal_cb = ignoreSignalCallback
    info.retry_and_idle_policy = UnsafePointer(resources.retryPolicy)
    info.pt_serv_buf_size = 32 * 1024
    info.max_http_header_pool = 256
    // HTTP/1.1 only, also over TLS: no h2, so WebSockets never ride inside h2 streams.
    info.alpn = resources.string("http/1.1")
    // No `info.extensions`: permessage-deflate stays off. A deflate stream costs a few hundred
    // KB per connection, which tens of thousands of connections cannot afford.
    var options =
      UInt64(LWS_SERVER_OPTION_LIBEV) | UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8)
      | UInt64(LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND)
      | UInt64(LWS_SERVER_OPTION_SKIP_SERVER_CANONICAL_NAME)
    switch configuration.host {
    case "0.0.0.0":
      options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
    case "::":
      break
    default:
      info.iface = resources.string(configuration.host)
      if !configuration.host.contains(":") { options |= UInt64(LWS_SERVER_OPTION_DISABLE_IPV6) }
    }
    if let certificate = configuration.tlsCertificatePath,
      let key = configuration.tlsPrivateKeyPath
    {
      options |= UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT)
      info.ssl_cert_filepath = resources.string(certificate)
      info.ssl_private_key_filepath = resources.string(key)
    }
    info.options = options

    LWSLogBridge.clearLastError()
    guard let context = lws_create_context(&info) else {
      shim_ev_loop_destroy(eventLoop)
      throw BindProbe.diagnose(host: configuration.host, port: configuration.port)
        ?? .contextCreationFailed(LWSLogBridge.lastError)
    }
    self.resources = resources
    self.context = context
    self.eventLoop = eventLoop
    // lws initialises its protocols (which applies the "default" option) from a timer on the
    // first loop pass; a client accepted before that would be bound to protocols[0] ("http")
    // and refused. Do it now, before anyone can connect.
    _ = lws_state_transition_steps(
      lws_system_get_state_manager(context), Int32(LWS_SYSTATE_OPERATIONAL.rawValue))
    tick = shim_tick_start(eventLoop, context, 1)
    beforeWait = shim_before_wait_start(
      eventLoop,
      { _, watcher, _ in
        Unmanaged<ServiceLoop>.fromOpaque(watcher!.pointee.data).takeUnretainedValue()
          .aboutToWait()
      }, Unmanaged.passUnretained(self).toOpaque())
    afterWait = shim_after_wait_start(
      eventLoop,
      { _, watcher, _ in
        Unmanaged<ServiceLoop>.fromOpaque(watcher!.pointee.data).takeUnretainedValue()
          .inbox.markAwake()
      }, Unmanaged.passUnretained(self).toOpaque())
    if pingIdleSeconds > 0 { scheduleKeepaliveTimer() }
    let port = Int(lws_get_vhost_listen_port(lws_get_vhost_by_name(context, "default")))
    logger.debug(
      "libwebsockets context created",
      metadata: [
        "port": "\(port)", "libevBackend": "\(shim_ev_backend(eventLoop))",
        "tls": "\(configuration.usesTLS)",
      ])
    inbox.markRunning(context: context, listeningPort: port)
    return port
  }

  /// Services the loop until a shutdown stops it.
  func run() {
    guard let context else { return }
    while !stopRequested {
      // With an event library, lws_service runs ev_run until ev_break.
      _ = lws_service(context, 0)
    }
  }

  /// Destroys the context (dropping any connection still open, which reports `.closed`),
  /// frees everything, finishes the event stream and releases `shutdown()` waiters.
  func destroy() {
    if let eventLoop {
      shim_tick_stop(eventLoop, tick)
      tick = nil
      shim_before_wait_stop(eventLoop, beforeWait)
      beforeWait = nil
      shim_after_wait_stop(eventLoop, afterWait)
      afterWait = nil
    }
    if let context, let resources {
      lws_sul_cancel(&resources.deadlineTimer.pointee.sul)
      lws_sul_cancel(&resources.handlerTimer.pointee.sul)
      lws_sul_cancel(&resources.keepaliveTimer.pointee.sul)
      // No wake may reach the context from now on (the inbox lock guards both).
      inbox.detachContextForDestroy()
      lws_context_destroy(context)
    }
    context = nil
    if let eventLoop { shim_ev_loop_destroy(eventLoop) }
    eventLoop = nil
    resources = nil
    continuation.finish()
    inbox.finish()
  }

  private func stopLoop() {
    guard !stopRequested else { return }
    stopRequested = true
    if let eventLoop { shim_ev_break_all(eventLoop) }
  }

  // MARK: - Callbacks

  /// The game protocol's lws callback; anything not WebSocket goes to the HTTP dummy (plain
  /// HTTP requests are bound to the default protocol first, which is this one).
  fileprivate func handle(
    _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
  ) -> Int32 {
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
      drainInbox()
      return 0
    case LWS_CALLBACK_PROTOCOL_INIT:
      logger.debug("protocol initialised", metadata: ["protocol": "\(configuration.subprotocol)"])
      return 0
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
      return acceptsUpgrade(wsi) ? 0 : 1
    case LWS_CALLBACK_HTTP:
      return serveHTTP(wsi, path: input, length: length)
    case LWS_CALLBACK_HTTP_WRITEABLE, LWS_CALLBACK_CLOSED_HTTP:
      return httpEvent(wsi, reason)
        ?? lws_callback_http_dummy(wsi, reason, user, input, length)
    case LWS_CALLBACK_ESTABLISHED:
      return established(wsi, session: user?.assumingMemoryBound(to: shim_session.self))
    case LWS_CALLBACK_RECEIVE:
      guard let state = connection(user) else { return 0 }
      receive(state, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
      return 0
    case LWS_CALLBACK_SERVER_WRITEABLE:
      guard let state = connection(user) else { return 0 }
      return writable(state)
    case LWS_CALLBACK_CLOSED:
      closed(session: user?.assumingMemoryBound(to: shim_session.self))
      return 0
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
      // The reply to our close frame: non-zero makes lws drop the connection without echoing
      // another close. Otherwise the peer started the close and lws echoes it, unless its
      // payload breaks RFC 6455 (section 7.4): that is answered with 1002 instead.
      guard let state = connection(user) else { return 0 }
      if state.closeFrameSent { return -1 }
      let payload = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
      if Self.isValidPeerClosePayload(payload) { return 0 }
      logger.debug("invalid close frame; answering 1002", metadata: ["connection": "\(state.id)"])
      metrics?.closing(code: 1002)
      // Written here rather than through `lws_close_reason`, which would make lws wait up to
      // five seconds for a second close from a peer that has already sent its own. The peer
      // is done sending, so dropping the socket right after cannot reset the close frame away.
      _ = writeCloseFrame(state, code: 1002, reason: "protocol error")
      return -1
    case LWS_CALLBACK_RECEIVE_PONG:
      // Also an unsolicited PONG: RFC 6455 allows it as a heartbeat.
      if let state = connection(user) {
        state.lastAlive = MonotonicClock.now()
        if state.ping == .sent { state.ping = .none }
      }
      return 0
    default:
      return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
  }

  // MARK: - Keepalive

  private func scheduleKeepaliveTimer() {
    guard let context, let resources else { return }
    lws_sul_schedule(
      context, 0, &resources.keepaliveTimer.pointee.sul, keepaliveTimerCallback, 1_000_000)
  }

  /// Once a second: pings the connections silent for `pingIdleSeconds` and drops those silent
  /// for `hangupIdleSeconds` (counting from their last message or PONG). Only connections
  /// whose wheel slot came up are looked at.
  fileprivate func keepaliveTick() {
    let now = MonotonicClock.now()
    keepalive.takeDue(upTo: now, into: &keepaliveDue)
    for id in keepaliveDue {
      // Closing connections have their own timeouts (`requestClose`).
      guard let state = connections[id], state.closeRequest == nil, !state.closeFrameSent
      else { continue }
      let silent = now - state.lastAlive
      if silent >= hangupIdleSeconds {
        logger.debug(
          "no PONG; dropping connection",
          metadata: ["connection": "\(id)", "silentSeconds": "\(Int(silent))"])
        state.ignoresInput = true
        // Closed by lws on its next pass (reported as `.closed` like any drop): a peer that
        // answers no PING would not read a close frame either.
        lws_set_timeout(state.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
        continue
      }
      if silent >= pingIdleSeconds && state.ping == .none {
        state.ping = .wanted
        lws_callback_on_writable(state.wsi)
      }
      let next = state.ping == .none ? pingIdleSeconds : hangupIdleSeconds
      keepalive.schedule(id, at: state.lastAlive + next)
    }
    keepaliveDue.removeAll(keepingCapacity: keepaliveDue.capacity <= 4096)
    if !stopRequested { scheduleKeepaliveTimer() }
  }

  /// Called by the shutdown deadline timer.
  fileprivate func deadlineReached() {
    if !connections.isEmpty {
      logger.warning(
        "shutdown grace period over; dropping connections that did not close",
        metadata: ["remaining": "\(connections.count)"])
    }
    stopLoop()
  }

  private func connection(_ user: UnsafeMutableRawPointer?) -> ConnectionState? {
    guard let session = user?.assumingMemoryBound(to: shim_session.self),
      session.pointee.established != 0
    else { return nil }
    // No dictionary look-up per callback: `connections` keeps the state alive until CLOSED,
    // which clears `established` first.
    guard let state = session.pointee.state else { return nil }
    return Unmanaged<ConnectionState>.fromOpaque(state).takeUnretainedValue()
  }

  private func acceptsUpgrade(_ wsi: OpaquePointer) -> Bool {
    if shuttingDown { return false }
    if connections.count >= configuration.maxConnections {
      refusedAtLimit += 1
      let now = MonotonicClock.now()
      if now - lastLimitWarning >= 10 {
        logger.warning(
          "refusing WebSocket upgrades: connection limit reached",
          metadata: [
            "limit": "\(configuration.maxConnections)",
            "refusedSinceLastWarning": "\(refusedAtLimit)",
          ])
        lastLimitWarning = now
        refusedAtLimit = 0
      }
      return false
    }
    // lws treats every Sec-WebSocket-Version as 13; only 13 is defined (RFC 6455).
    var version: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar) = (0, 0, 0, 0, 0, 0, 0, 0)
    let length = withUnsafeMutableBytes(of: &version) { bytes in
      lws_hdr_copy(
        wsi, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
        WSI_TOKEN_VERSION)
    }
    guard length == 2 && version.0 == 0x31 && version.1 == 0x33 else { return false }
    let origin = Self.header(wsi, WSI_TOKEN_ORIGIN)
    guard originPolicy.allows(origin: origin, host: Self.header(wsi, WSI_TOKEN_HOST)) else {
      logger.info(
        "refusing WebSocket upgrade from a foreign origin", metadata: ["origin": "\(origin ?? "")"])
      refuseUpgradeWithForbidden(wsi)
      return false
    }
    return true
  }

  /// Answers an upgrade request with 403 before lws closes the connection, so the client
  /// learns why. Written by hand: lws (`lws_return_http_status` and its header helpers) labels
  /// any response to an upgrade request HTTP/1.0, which WebSocket clients reject as malformed.
  private func refuseUpgradeWithForbidden(_ wsi: OpaquePointer) {
    var response = "HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n"
    for header in StaticFiles.securityHeaders(host: nil) {
      response += "\(header.name): \(header.value)\r\n"
    }
    response += "\r\n"
    let headroom = shim_lws_pre()
    var buffer = [UInt8](repeating: 0, count: headroom) + Array(response.utf8)
    buffer.withUnsafeMutableBufferPointer { buffer in
      _ = lws_write(
        wsi, buffer.baseAddress! + headroom, buffer.count - headroom, LWS_WRITE_HTTP_HEADERS)
    }
  }

  /// The value of request header `token`, or `nil` if absent or empty.
  private static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
    let length = Int(lws_hdr_total_length(wsi, token))
    guard length > 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: length + 1)
    let copied = Int(lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token))
    guard copied > 0 else { return nil }
    return String(decoding: buffer[..<copied].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private func established(_ wsi: OpaquePointer, session: UnsafeMutablePointer<shim_session>?)
    -> Int32
  {
    guard let session else { return -1 }
    let id = ConnectionID(
      rawValue: connectionNumbers.wrappingAdd(1, ordering: .relaxed).oldValue)
    session.pointee.connection_id = id.rawValue
    session.pointee.established = 1
    let state = ConnectionState(
      id: id, wsi: wsi, configuration: configuration, now: MonotonicClock.now())
    connections[id] = state
    session.pointee.state = Unmanaged.passUnretained(state).toOpaque()
    metrics?.connectionOpened(open: connections.count)
    if pingIdleSeconds > 0 { keepalive.schedule(id, at: state.lastAlive + pingIdleSeconds) }
    deliver(.opened(id))
    if shuttingDown {
      requestClose(
        state, code: 1001, reason: configuration.shutdownCloseReason, flushFirst: true)
    }
    return 0
  }

  private func receive(_ state: ConnectionState, _ chunk: UnsafeRawBufferPointer) {
    if state.ignoresInput { return }
    let wsi = state.wsi
    let first = lws_is_first_fragment(wsi) != 0
    if first {
      if lws_frame_is_binary(wsi) != 0 {
        violation(state, code: 1003, reason: "text messages only")
        return
      }
      let now = MonotonicClock.now()
      guard state.rate.take(now: now) else {
        metrics?.rateLimited()
        violation(state, code: 1008, reason: "rate limit")
        return
      }
      // Inbound traffic proves the peer alive, so an active client is not pinged. Only a
      // time is stored: the keepalive wheel looks at it when the connection's slot comes up.
      state.lastAlive = now
    }
    // The frame header declares its length: refuse a frame that cannot fit at its first chunk
    // instead of reading up to the limit's worth of it first.
    if state.inbound.wouldExceedLimit(
      chunk: chunk.count, first: first,
      remainingInFrame: Int(clamping: lws_remaining_packet_payload(wsi)))
    {
      violation(state, code: 1009, reason: "message too big")
      return
    }
    switch state.inbound.append(chunk, first: first, final: lws_is_final_fragment(wsi) != 0) {
    case .incomplete:
      break
    case .message(let bytes):
      // Counted before the consumer can see (and acknowledge) it.
      let receivedAt = MonotonicClock.now()
      if handler?.decidesInline == true {
        // Decided right here: nothing waits in between, so nothing to count.
        deliver(.message(state.id, bytes, receivedAt: receivedAt))
      } else {
        // Counted before the consumer can see (and acknowledge) it.
        let queued = backPressure.add(bytes.count)
        deliver(.message(state.id, bytes, receivedAt: receivedAt))
        if queued > backPressure.highWater { pauseReading(state) }
      }
    case .tooBig:
      violation(state, code: 1009, reason: "message too big")
    case .unexpectedContinuation:
      violation(state, code: 1002, reason: "protocol error")
    }
  }

  private func writable(_ state: ConnectionState) -> Int32 {
    if state.closeFrameSent { return 0 }
    if let close = state.closeRequest, !close.flushFirst || state.outbound.isEmpty {
      return sendCloseFrame(state, code: close.code, reason: close.reason)
    }
    if state.ping == .wanted {
      state.ping = .sent
      guard let resources else { return -1 }
      let headroom = shim_lws_pre()
      let written = lws_write(
        state.wsi, (resources.pingBuffer + headroom).assumingMemoryBound(to: UInt8.self),
        LWSResources.pingPayload.count,
        LWS_WRITE_PING)
      if written < 0 { return -1 }
      if !state.outbound.isEmpty { lws_callback_on_writable(state.wsi) }
      return 0
    }
    guard let frame = state.outbound.popFirst() else { return 0 }
    // Written straight from the shared frame: lws puts the frame header in its headroom
    // (`start()` checked that `LWS_PRE` fits) and either sends everything or copies what the
    // socket did not take into its own buffer. That holds because permessage-deflate is off
    // (no `info.extensions`): with deflate lws keeps pointing into the buffer until the next
    // WRITEABLE, and a buffer shared between connections would be corrupted.
    let written = frame.withWireBuffer { payload, length in
      lws_write(state.wsi, payload, length, LWS_WRITE_TEXT)
    }
    if written < 0 { return -1 }
    metrics?.frameWritten(bytes: frame.count)
    if !state.outbound.isEmpty || state.closeRequest != nil {
      lws_callback_on_writable(state.wsi)
    }
    return 0
  }

  private func closed(session: UnsafeMutablePointer<shim_session>?) {
    // Also called for upgrades that failed before ESTABLISHED: then the session is all zero.
    guard let session, session.pointee.established != 0 else { return }
    session.pointee.established = 0
    session.pointee.state = nil
    let id = ConnectionID(rawValue: session.pointee.connection_id)
    connections.removeValue(forKey: id)?.release()
    metrics?.connectionClosed(open: connections.count)
    if pausedConnections.remove(id) != nil {
      backPressure.pausedConnections.store(
        pausedConnections.count, ordering: .sequentiallyConsistent)
    }
    deliver(.closed(id))
    if shuttingDown && connections.isEmpty { stopLoop() }
  }

  // MARK: - Static files

  /// `LWS_CALLBACK_HTTP`: sends a public file of the web root with the security headers, or
  /// an empty 404 (405 for anything but GET) with the same headers.
  fileprivate func serveHTTP(_ wsi: OpaquePointer, path: UnsafeMutableRawPointer?, length: Int)
    -> Int32
  {
    var headers = StaticFiles.securityHeaders(host: Self.header(wsi, WSI_TOKEN_HOST))
    guard lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 else {
      // A body may follow (POST): answer and close rather than read it.
      _ = respondWithoutBody(
        wsi, status: 405, headers: headers + [("Allow", "GET")], finish: false)
      return -1
    }
    // lws hands over the path percent-decoded, without the query, with `..` segments
    // already folded; `StaticFiles` still refuses anything outside the public files.
    let requestPath =
      path.map {
        String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self)
      } ?? "/"
    if requestPath == TransportMetrics.path, let metrics {
      return serveMetrics(wsi, metrics, headers: headers)
    }
    guard let file = staticFiles?.resolve(requestPath) else {
      return respondWithoutBody(wsi, status: 404, headers: headers)
    }
    headers.append(("Cache-Control", file.cacheControl))
    let extra = headers.map { "\($0.name): \($0.value)\r\n" }.joined()
    let result = lws_serve_http_file(
      wsi, file.path, file.contentType, extra, Int32(extra.utf8.count))
    if result < 0 || (result > 0 && lws_http_transaction_completed(wsi) != 0) { return -1 }
    return 0
  }

  /// `GET /metrics`: renders every metric now (on this thread: the registry only takes locks
  /// that other threads hold for a single update) and sends the headers; the body follows at
  /// the connection's `LWS_CALLBACK_HTTP_WRITEABLE`, as lws wants for a body of any size.
  private func serveMetrics(
    _ wsi: OpaquePointer, _ metrics: TransportMetrics, headers: [(name: String, value: String)]
  ) -> Int32 {
    let headroom = shim_lws_pre()
    var body = [UInt8](repeating: 0, count: headroom)
    body.reserveCapacity(16 * 1024)
    metrics.render(&body)
    let failed = withHeaderBuffer { start, cursor, end in
      if lws_add_http_common_headers(
        wsi, 200, TransportMetrics.contentType,
        lws_filepos_t(body.count - headroom), &cursor, end) != 0
      {
        return true
      }
      for header in headers + [("Cache-Control", "no-store")] {
        let name = header.name.lowercased() + ":"
        let added = lws_add_http_header_by_name(
          wsi, name, header.value, Int32(header.value.utf8.count), &cursor, end)
        if added != 0 { return true }
      }
      return lws_finalize_write_http_header(wsi, start, &cursor, end) != 0
    }
    if failed { return -1 }
    pendingHTTPBodies[wsi] = body
    lws_callback_on_writable(wsi)
    return 0
  }

  /// `LWS_CALLBACK_HTTP_WRITEABLE` and `LWS_CALLBACK_CLOSED_HTTP` for a connection with a
  /// `/metrics` body pending: writes it and ends the transaction, or forgets it. `nil` when
  /// nothing is pending (a static file, whose writes lws drives itself).
  fileprivate func httpEvent(_ wsi: OpaquePointer, _ reason: lws_callback_reasons) -> Int32? {
    guard var body = pendingHTTPBodies.removeValue(forKey: wsi) else { return nil }
    guard reason == LWS_CALLBACK_HTTP_WRITEABLE else { return 0 }
    let headroom = shim_lws_pre()
    // lws keeps whatever the socket does not take and sends it before anything else; ending
    // the transaction meanwhile is deferred until that is out.
    let written = body.withUnsafeMutableBufferPointer { buffer in
      lws_write(
        wsi, buffer.baseAddress! + headroom, buffer.count - headroom, LWS_WRITE_HTTP_FINAL)
    }
    if written < 0 || lws_http_transaction_completed(wsi) != 0 { return -1 }
    return 0
  }

  /// Runs `body` with a header buffer (after `LWS_PRE` bytes of headroom): its start, a
  /// cursor at the start, and its last byte, as the lws header helpers take them.
  private func withHeaderBuffer(
    _ body: (
      UnsafeMutablePointer<UInt8>, inout UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>
    ) -> Bool
  ) -> Bool {
    let headroom = shim_lws_pre()
    var buffer = [UInt8](repeating: 0, count: headroom + 4096)
    return buffer.withUnsafeMutableBufferPointer { buffer in
      let start = buffer.baseAddress! + headroom
      var cursor: UnsafeMutablePointer<UInt8>? = start
      return body(start, &cursor, buffer.baseAddress! + buffer.count - 1)
    }
  }

  /// Sends a header-only response and, if `finish`, ends the HTTP transaction (keeping the
  /// connection for the next request when lws can).
  private func respondWithoutBody(
    _ wsi: OpaquePointer, status: UInt32, headers: [(name: String, value: String)],
    finish: Bool = true
  ) -> Int32 {
    let headroom = shim_lws_pre()
    var buffer = [UInt8](repeating: 0, count: headroom + 4096)
    let failed = buffer.withUnsafeMutableBufferPointer { buffer -> Bool in
      let start = buffer.baseAddress! + headroom
      let end = buffer.baseAddress! + buffer.count - 1
      var cursor: UnsafeMutablePointer<UInt8>? = start
      if lws_add_http_common_headers(wsi, status, "text/plain; charset=utf-8", 0, &cursor, end)
        != 0
      {
        return true
      }
      for header in headers {
        let name = header.name.lowercased() + ":"
        let added = lws_add_http_header_by_name(
          wsi, name, header.value, Int32(header.value.utf8.count), &cursor, end)
        if added != 0 { return true }
      }
      return lws_finalize_write_http_header(wsi, start, &cursor, end) != 0
    }
    if failed || (finish && lws_http_transaction_completed(wsi) != 0) { return -1 }
    return 0
  }

  // MARK: - Commands from other threads

  /// Before the loop waits: takes what was posted meanwhile (no one woke the thread for it),
  /// until nothing is left and the inbox counts it asleep.
  private func aboutToWait() {
    while inbox.sleepUnlessPending() { drainInbox() }
  }

  private func drainInbox() {
    // Wakes collapse and may be spurious: always take everything there is.
    let drain = inbox.drain(into: &commandBuffer)
    execute(commandBuffer)
    commandBuffer.removeAll(keepingCapacity: commandBuffer.capacity <= 1024)
    if drain.resumeReading { resumeReadingIfBelowLowWater() }
    if let grace = drain.shutdownGrace { beginShutdown(grace: grace) }
  }

  private func execute(_ commands: [TransportCommand]) {
    for command in commands {
      held.take(command) { carryOut($0) }
    }
  }

  private func carryOut(_ command: TransportCommand) {
    switch command {
    case .send(let frame, let ids), .sendAtOnce(let frame, let ids):
      for id in ids { enqueue(frame, for: id) }
    case .close(let id, let code, let reason):
      guard let state = connections[id], state.closeRequest == nil else { return }
      requestClose(state, code: Self.sendableCloseCode(code), reason: reason, flushFirst: true)
    case .moveShown(let receivedAt):
      metrics?.moveShown(receivedAt: receivedAt)
    case .hold, .release:
      break
    }
  }

  // MARK: - The service-thread handler

  /// Hands an event to the handler (carrying out its commands at once), or to the stream.
  private func deliver(_ event: TransportEvent) {
    guard let handler else {
      continuation.yield(event)
      return
    }
    handler.handle(event, now: MonotonicClock.now(), commands: &handlerCommands)
    finishHandlerCall(handler)
  }

  /// The handler's timer fired.
  fileprivate func handlerDeadlineReached() {
    guard let handler else { return }
    handlerTimerArmedAt = nil
    handler.deadlineReached(now: MonotonicClock.now(), commands: &handlerCommands)
    finishHandlerCall(handler)
  }

  private func finishHandlerCall(_ handler: any ServiceThreadHandler) {
    if !handlerCommands.isEmpty {
      execute(handlerCommands)
      handlerCommands.removeAll(keepingCapacity: handlerCommands.capacity <= 1024)
    }
    // Re-arm the timer only when the deadline came earlier than the one armed: lws keeps timers
    // in a sorted list. A timer that fires before anything is due costs one empty call.
    guard let deadline = handler.nextDeadline(), let context, let resources,
      handlerTimerArmedAt.map({ deadline < $0 }) ?? true
    else { return }
    handlerTimerArmedAt = deadline
    let microseconds = lws_usec_t(
      max(0, (deadline - MonotonicClock.now()) * 1_000_000).rounded(.up))
    lws_sul_schedule(
      context, 0, &resources.handlerTimer.pointee.sul, handlerDeadlineCallback, microseconds)
  }

  // MARK: - Inbound back-pressure

  /// Stops reading `state` until the consumer has caught up (`lws_rx_flow_control` takes
  /// effect at once: lws keeps whatever else it already read for later).
  private func pauseReading(_ state: ConnectionState) {
    guard pausedConnections.insert(state.id).inserted else { return }
    backPressure.pausedConnections.store(pausedConnections.count, ordering: .sequentiallyConsistent)
    lws_rx_flow_control(state.wsi, 0)
    // The consumer may have acknowledged everything between the count and the pause, seeing
    // no paused connection and so asking for no resume: check again now that the pause is
    // published.
    resumeReadingIfBelowLowWater()
  }

  /// Reads every paused connection again once the unacknowledged bytes fell below the
  /// low-water mark (the request may be stale: more may have arrived since).
  private func resumeReadingIfBelowLowWater() {
    guard !pausedConnections.isEmpty, backPressure.isBelowLowWater else { return }
    for id in pausedConnections {
      if let state = connections[id] { lws_rx_flow_control(state.wsi, 1) }
    }
    logger.trace("reading resumed", metadata: ["connections": "\(pausedConnections.count)"])
    pausedConnections.removeAll()
    backPressure.pausedConnections.store(0, ordering: .sequentiallyConsistent)
  }

  private func enqueue(_ frame: Frame, for id: ConnectionID) {
    guard let state = connections[id], state.isOpenForSending else { return }
    let wasEmpty = state.outbound.isEmpty
    guard state.outbound.push(frame) else {
      logger.debug(
        "outbound queue full; closing", metadata: ["connection": "\(id)"])
      metrics?.tooSlow()
      violation(state, code: 4000, reason: "too slow")
      return
    }
    // A non-empty queue always has a writable callback pending.
    if wasEmpty { lws_callback_on_writable(state.wsi) }
  }

  private func beginShutdown(grace: Double) {
    guard !shuttingDown else { return }
    shuttingDown = true
    logger.info(
      "transport shutting down", metadata: ["connections": "\(connections.count)"])
    for state in connections.values {
      requestClose(
        state, code: 1001, reason: configuration.shutdownCloseReason, flushFirst: true)
    }
    guard !connections.isEmpty, let context, let resources else {
      stopLoop()
      return
    }
    let microseconds = lws_usec_t(max(0, grace) * 1_000_000)
    lws_sul_schedule(
      context, 0, &resources.deadlineTimer.pointee.sul, shutdownDeadlineCallback, microseconds)
  }

  // MARK: - Closing

  /// A protocol violation: input is ignored, queued frames are dropped, the close goes first.
  private func violation(_ state: ConnectionState, code: UInt16, reason: String) {
    state.ignoresInput = true
    state.inbound.reset()
    state.outbound.removeAll()
    if state.closeRequest != nil {
      state.closeRequest?.flushFirst = false
      lws_callback_on_writable(state.wsi)
      return
    }
    logger.debug(
      "closing connection", metadata: ["connection": "\(state.id)", "code": "\(code)"])
    requestClose(state, code: code, reason: reason, flushFirst: false)
  }

  private func requestClose(
    _ state: ConnectionState, code: UInt16, reason: String, flushFirst: Bool
  ) {
    guard state.closeRequest == nil else { return }
    metrics?.closing(code: code)
    state.closeRequest = ConnectionState.CloseRequest(
      code: code, reason: reason, flushFirst: flushFirst)
    lws_callback_on_writable(state.wsi)
    // A peer that reads nothing never makes the socket writable: drop it after a while.
    lws_set_timeout(state.wsi, PENDING_TIMEOUT_CLOSE_SEND, Self.closeSendTimeoutSeconds)
  }

  /// Writes the close frame and waits (at most `closeAckTimeoutSeconds`) for the peer's reply,
  /// ignoring anything else it sends. Only then is the TCP connection closed, so the peer can
  /// read the close frame even if it was still sending (see `shim_lws_write_close`).
  private func sendCloseFrame(_ state: ConnectionState, code: UInt16, reason: String) -> Int32 {
    if writeCloseFrame(state, code: code, reason: reason) < 0 { return -1 }
    lws_set_timeout(state.wsi, PENDING_TIMEOUT_CLOSE_ACK, Self.closeAckTimeoutSeconds)
    return 0
  }

  /// Writes a close frame from the connection's own buffer and stops all other traffic on it.
  private func writeCloseFrame(_ state: ConnectionState, code: UInt16, reason: String) -> Int32 {
    // A close payload holds 125 bytes: the code and at most 123 bytes of UTF-8 reason.
    var reasonLength = 0
    for scalar in reason.unicodeScalars {
      let length = UTF8.width(scalar)
      if reasonLength + length > 123 { break }
      reasonLength += length
    }
    let headroom = shim_lws_pre()
    let buffer = state.writeBuffer(capacity: headroom + 2 + reasonLength)
    let payload = (buffer + headroom).assumingMemoryBound(to: UInt8.self)
    payload[0] = UInt8(code >> 8)
    payload[1] = UInt8(code & 0xff)
    var index = 2
    for byte in reason.utf8.prefix(reasonLength) {
      payload[index] = byte
      index += 1
    }
    state.closeFrameSent = true
    state.ignoresInput = true
    state.outbound.removeAll()
    return shim_lws_write_close(state.wsi, payload, 2 + reasonLength) < 0 ? -1 : 0
  }

  /// Whether a peer's close payload may be echoed: empty, or a code that may be sent (RFC 6455
  /// section 7.4) and a reason. A 1-byte payload or a reserved code gets 1002 instead.
  static func isValidPeerClosePayload(_ payload: UnsafeRawBufferPointer) -> Bool {
    if payload.isEmpty { return true }
    guard payload.count >= 2 else { return false }
    let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
    return sendableCloseCode(code) == code
  }

  /// `code` if it may appear in a close frame, 1000 otherwise (1004-1006, 1015 and codes
  /// outside 1000-4999 are reserved).
  static func sendableCloseCode(_ code: UInt16) -> UInt16 {
    switch code {
    case 1000...1003, 1007...1014, 3000...4999: code
    default: 1000
    }
  }
}

// MARK: - C entry points

/// lws callback of the game protocol.
private func websocketProtocolCallback(
  _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
  _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
  guard let wsi, let raw = lws_context_user(lws_get_context(wsi)) else {
    return lws_callback_http_dummy(wsi, reason, user, input, length)
  }
  return Unmanaged<ServiceLoop>.fromOpaque(raw).takeUnretainedValue()
    .handle(wsi, reason, user, input, length)
}

/// lws callback of `protocols[0]` ("http"): static files, should a request be bound to it.
private func httpProtocolCallback(
  _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
  _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
  // Only reached by a client that explicitly asks for subprotocol "http": no WebSocket here.
  if reason == LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION { return 1 }
  if reason == LWS_CALLBACK_HTTP, let wsi, let raw = lws_context_user(lws_get_context(wsi)) {
    return Unmanaged<ServiceLoop>.fromOpaque(raw).takeUnretainedValue()
      .serveHTTP(wsi, path: input, length: length)
  }
  if reason == LWS_CALLBACK_HTTP_WRITEABLE || reason == LWS_CALLBACK_CLOSED_HTTP, let wsi,
    let raw = lws_context_user(lws_get_context(wsi)),
    let result = Unmanaged<ServiceLoop>.fromOpaque(raw).takeUnretainedValue().httpEvent(
      wsi, reason)
  {
    return result
  }
  return lws_callback_http_dummy(wsi, reason, user, input, length)
}

/// The service-thread handler's deadline (an lws timer).
private func handlerDeadlineCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
  guard let sul, let owner = shim_timer_owner(sul) else { return }
  Unmanaged<ServiceLoop>.fromOpaque(owner).takeUnretainedValue().handlerDeadlineReached()
}

/// The keepalive timer (an lws timer, once a second).
private func keepaliveTimerCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
  guard let sul, let owner = shim_timer_owner(sul) else { return }
  Unmanaged<ServiceLoop>.fromOpaque(owner).takeUnretainedValue().keepaliveTick()
}

/// Shutdown deadline (an lws timer).
private func shutdownDeadlineCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
  guard let sul, let owner = shim_timer_owner(sul) else { return }
  Unmanaged<ServiceLoop>.fromOpaque(owner).takeUnretainedValue().deadlineReached()
}

/// `info.signal_cb`: signals are the application's business (its `ServiceGroup` watches them).
private func ignoreSignalCallback(_ handle: UnsafeMutableRawPointer?, _ signal: Int32) {}
