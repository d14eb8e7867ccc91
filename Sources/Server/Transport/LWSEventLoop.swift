import CWebSockets

/// The lws context on a libev loop of its own, with the C memory both need; created, run and
/// destroyed on the transport's service thread, never touched from another thread.
///
/// The libev loop is created here and handed to lws as a "foreign" loop. That keeps lws from
/// installing its libev SIGINT watcher (which would take SIGINT away from the application and
/// reset it to the default action when the context is destroyed), and lets the loop be stopped
/// with `ev_break` instead of destroying the context from inside a callback.
final class LWSEventLoop {
  /// The lws timers the service loop arms.
  enum Timer {
    /// The end of a shutdown's grace period.
    case shutdownDeadline
    /// The service-thread handler's next deadline.
    case handlerDeadline
    /// The keepalive's once-a-second look.
    case keepalive
    /// The next pass, while connections wait to be let in.
    case acceptPacing
  }

  /// The lws context; valid until `destroy()`.
  let context: OpaquePointer
  /// Memory that must outlive the context.
  let resources: LWSResources
  /// The port actually listened on.
  let listeningPort: Int
  /// The vhost of the game's port (lws' "default").
  let gameVhost: OpaquePointer?
  private let loop: OpaquePointer
  /// Wakes the lws service every second (see `shim_tick_start`).
  private var tick: UnsafeMutablePointer<ev_timer>?
  /// Around each wait of the loop: what other threads posted is taken before it waits, and
  /// they wake it only while it waits (``TransportInbox/sleepUnlessPending()``).
  private var beforeWait: UnsafeMutablePointer<ev_prepare>?
  private var afterWait: UnsafeMutablePointer<ev_check>?
  private var drainTimer: UnsafeMutablePointer<ev_timer>?
  /// Ends a wait of the loop when work falls due (``wake(in:)``).
  private var wakeTimer: UnsafeMutablePointer<ev_timer>?

  /// Creates the libev loop and the lws context (which binds the port) for `configuration`;
  /// lws reaches `owner` through the context's user pointer and the timers' owner pointers.
  init(configuration: TransportConfiguration, owner: ServiceLoop) throws(TransportError) {
    let resources = LWSResources(
      configuration: configuration, perSessionDataSize: MemoryLayout<shim_session>.size)
    resources.protocols[0].callback = httpProtocolCallback
    resources.protocols[1].callback = websocketProtocolCallback
    guard let loop = shim_ev_loop_new() else { throw .eventLoopUnavailable }
    let me = Unmanaged.passUnretained(owner).toOpaque()
    resources.foreignLoops[0] = UnsafeMutableRawPointer(loop)
    resources.deadlineTimer.pointee.owner = me
    resources.handlerTimer.pointee.owner = me
    resources.keepaliveTimer.pointee.owner = me
    resources.acceptTimer.pointee.owner = me

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
    // Each connection holds a header table (~4.5 KiB, made on demand) from its accept until its
    // request is read. Past the pool, lws keeps a list of those waiting and walks all of it on
    // every table taken: with 256, a crowd of 10,000 reconnecting at once spent a fifth of its
    // storm there (perf). With new connections paced (``AcceptPacing``) the tables in use stay
    // few; this bounds them at some 18 MiB should clients be slow to send their requests.
    info.max_http_header_pool = 4096
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
      shim_ev_loop_destroy(loop)
      throw BindProbe.diagnose(host: configuration.host, port: configuration.port)
        ?? .contextCreationFailed(LWSLogBridge.lastError)
    }
    if let metricsPort = configuration.metricsPort {
      // A plain-HTTP vhost of its own, "metrics", with the http protocol alone.
      resources.metricsProtocols[0] = resources.protocols[0]
      var metricsInfo = lws_context_creation_info()
      metricsInfo.port = Int32(metricsPort)
      metricsInfo.iface = resources.string(configuration.metricsHost)
      metricsInfo.protocols = UnsafePointer(resources.metricsProtocols)
      metricsInfo.vhost_name = resources.string(Self.metricsVhost)
      metricsInfo.user = me
      metricsInfo.options =
        UInt64(LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND)
        | (configuration.metricsHost.contains(":") ? 0 : UInt64(LWS_SERVER_OPTION_DISABLE_IPV6))
      guard lws_create_vhost(context, &metricsInfo) != nil else {
        lws_context_destroy(context)
        shim_ev_loop_destroy(loop)
        throw BindProbe.diagnose(host: configuration.metricsHost, port: metricsPort)
          ?? .contextCreationFailed(LWSLogBridge.lastError)
      }
    }
    self.resources = resources
    self.context = context
    self.loop = loop
    // lws initialises its protocols (which applies the "default" option) from a timer on the
    // first loop pass; a client accepted before that would be bound to protocols[0] ("http")
    // and refused. Do it now, before anyone can connect.
    _ = lws_state_transition_steps(
      lws_system_get_state_manager(context), Int32(LWS_SYSTATE_OPERATIONAL.rawValue))
    tick = shim_tick_start(loop, context, 1)
    beforeWait = shim_before_wait_start(loop, beforeWaitCallback, me)
    afterWait = shim_after_wait_start(loop, afterWaitCallback, me)
    // A libev timer of its own rather than an lws one, which can fire up to a second late.
    drainTimer = shim_repeat_start(loop, drainTimerCallback, me, configuration.drainCheckInterval)
    wakeTimer = shim_wake_new()
    gameVhost = lws_get_vhost_by_name(context, "default")
    listeningPort = Int(lws_get_vhost_listen_port(gameVhost))
  }

  /// The name of the metrics listener's vhost (`--metrics-port`).
  static let metricsVhost = "metrics"

  /// The libev backend in use (`EVBACKEND_EPOLL` is 4 on Linux).
  var backend: UInt32 { shim_ev_backend(loop) }

  /// The callbacks the current pass has still to run (libev's pending watchers).
  var pendingEvents: Int { Int(shim_ev_pending_count(loop)) }

  /// Has lws service socket `fd` as though the loop had reported `events` on it.
  func serve(fd: Int32, events: Int32) {
    var poll = pollfd(fd: fd, events: Int16(events), revents: Int16(events))
    lws_service_fd(context, &poll)
  }

  /// Services the loop until `breakLoop()` (with an event library, `lws_service` runs
  /// `ev_run` until `ev_break`).
  func service() {
    _ = lws_service(context, 0)
  }

  /// Makes `service()` return once the callback that calls this is done.
  func breakLoop() {
    shim_ev_break_all(loop)
  }

  /// Ends the loop's wait in `seconds` at the latest (again: the wake moves), for a pass that
  /// has work then (the crowds' share back, ``CrowdShare``). A libev timer rather than an lws
  /// one, which can fire up to a second late (see `shim_tick_start`).
  func wake(in seconds: Double) {
    guard let wakeTimer else { return }
    shim_wake_arm(loop, wakeTimer, max(0, seconds))
  }

  /// Arms `timer` to fire in `microseconds` (again: an armed timer moves).
  func schedule(_ timer: Timer, in microseconds: lws_usec_t) {
    switch timer {
    case .shutdownDeadline:
      lws_sul_schedule(
        context, 0, &resources.deadlineTimer.pointee.sul, shutdownDeadlineCallback, microseconds)
    case .handlerDeadline:
      lws_sul_schedule(
        context, 0, &resources.handlerTimer.pointee.sul, handlerDeadlineCallback, microseconds)
    case .keepalive:
      lws_sul_schedule(
        context, 0, &resources.keepaliveTimer.pointee.sul, keepaliveTimerCallback, microseconds)
    case .acceptPacing:
      lws_sul_schedule(
        context, 0, &resources.acceptTimer.pointee.sul, acceptPacingCallback, microseconds)
    }
  }

  /// Destroys the context (dropping any connection still open: lws reports each one closed),
  /// then the loop. `detachWakes` runs just before the context goes, so that no other thread
  /// can wake it any more. Nothing of this object may be used afterwards but `resources`' memory
  /// until it is released.
  func destroy(detachWakes: () -> Void) {
    shim_repeat_stop(loop, tick)
    tick = nil
    shim_before_wait_stop(loop, beforeWait)
    beforeWait = nil
    shim_after_wait_stop(loop, afterWait)
    afterWait = nil
    shim_repeat_stop(loop, drainTimer)
    drainTimer = nil
    shim_repeat_stop(loop, wakeTimer)
    wakeTimer = nil
    lws_sul_cancel(&resources.deadlineTimer.pointee.sul)
    lws_sul_cancel(&resources.handlerTimer.pointee.sul)
    lws_sul_cancel(&resources.keepaliveTimer.pointee.sul)
    detachWakes()
    lws_context_destroy(context)
    shim_ev_loop_destroy(loop)
  }
}
