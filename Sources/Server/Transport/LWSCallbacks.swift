import CWebSockets

// The C entry points: lws and libev call these global functions (a Swift closure that captures
// nothing would do too), which find the `ServiceLoop` through the context's user pointer or
// the timer's owner pointer and hand the call on as `LWSCallbackRoute` says. Service thread
// only. Nothing here allocates: these run for every frame.

/// lws callback of the game protocol.
func websocketProtocolCallback(
  _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
  _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
  guard let wsi, let raw = lws_context_user(lws_get_context(wsi)) else {
    return lws_callback_http_dummy(wsi, reason, user, input, length)
  }
  let loop = Unmanaged<ServiceLoop>.fromOpaque(raw).takeUnretainedValue()
  switch LWSCallbackRoute(gameProtocol: reason) {
  case .wake:
    loop.drainInbox()
    return 0
  case .protocolInitialised:
    loop.protocolInitialised()
    return 0
  case .upgradeFilter:
    return loop.acceptsUpgrade(wsi) ? 0 : 1
  case .refuseUpgrade:
    return 1
  case .httpRequest:
    return loop.http.serve(wsi, path: input, length: length)
  case .httpBody:
    return loop.http.event(wsi, reason)
      ?? lws_callback_http_dummy(wsi, reason, user, input, length)
  case .established:
    return loop.established(wsi, session: user?.assumingMemoryBound(to: shim_session.self))
  case .receive:
    guard let state = connection(user) else { return 0 }
    loop.receive(state, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
    return 0
  case .writable:
    guard let state = connection(user) else { return 0 }
    return loop.writable(state)
  case .closed:
    loop.closed(session: user?.assumingMemoryBound(to: shim_session.self))
    return 0
  case .peerClose:
    guard let state = connection(user) else { return 0 }
    return loop.peerClosed(
      state, payload: UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
  case .pong:
    if let state = connection(user) { loop.pongArrived(state) }
    return 0
  case .linkEstablished:
    return loop.linkEstablished(wsi, session: user?.assumingMemoryBound(to: shim_session.self))
  case .linkFailed:
    loop.linkFailed(wsi, reason: input, length: length)
    return 0
  case .accepted:
    // (lws asks protocols[0], the "http" protocol, about accepted connections)
    return loop.accepted(Int32(truncatingIfNeeded: Int(bitPattern: input)), by: wsi)
  case .lwsDefault:
    return lws_callback_http_dummy(wsi, reason, user, input, length)
  }
}

/// lws callback of `protocols[0]` ("http"): static files, should a request be bound to it.
func httpProtocolCallback(
  _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
  _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
  switch LWSCallbackRoute(httpProtocol: reason) {
  case .refuseUpgrade:
    return 1
  case .httpRequest:
    guard let wsi, let raw = lws_context_user(lws_get_context(wsi)) else { break }
    return Unmanaged<ServiceLoop>.fromOpaque(raw).takeUnretainedValue().http
      .serve(wsi, path: input, length: length)
  case .httpBody:
    guard let wsi, let raw = lws_context_user(lws_get_context(wsi)),
      let result = Unmanaged<ServiceLoop>.fromOpaque(raw).takeUnretainedValue().http.event(
        wsi, reason)
    else { break }
    return result
  case .accepted:
    // `input` carries the accepted socket's descriptor.
    guard let wsi, let raw = lws_context_user(lws_get_context(wsi)) else { break }
    return Unmanaged<ServiceLoop>.fromOpaque(raw).takeUnretainedValue().accepted(
      Int32(truncatingIfNeeded: Int(bitPattern: input)), by: wsi)
  case .linkFailed:
    guard let wsi, let raw = lws_context_user(lws_get_context(wsi)) else { break }
    Unmanaged<ServiceLoop>.fromOpaque(raw).takeUnretainedValue().linkFailed(
      wsi, reason: input, length: length)
    return 0
  default:
    break
  }
  return lws_callback_http_dummy(wsi, reason, user, input, length)
}

/// The transport's state for the connection whose lws per-session data is `user`, or `nil`
/// if it is not established (a failed upgrade's session is all zero).
private func connection(_ user: UnsafeMutableRawPointer?) -> ConnectionState? {
  guard let session = user?.assumingMemoryBound(to: shim_session.self),
    session.pointee.established != 0
  else { return nil }
  // No dictionary look-up per callback: `ServiceLoop.connections` keeps the state alive until
  // CLOSED, which clears `established` first.
  guard let state = session.pointee.state else { return nil }
  return Unmanaged<ConnectionState>.fromOpaque(state).takeUnretainedValue()
}

/// The service-thread handler's deadline (an lws timer).
func handlerDeadlineCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
  guard let sul, let owner = shim_timer_owner(sul) else { return }
  Unmanaged<ServiceLoop>.fromOpaque(owner).takeUnretainedValue().handlerDeadlineReached()
}

/// The wake of a pass with connections still waiting to be let in (``AcceptPacing``): the
/// pass it starts lets the next ones in before it waits.
func acceptPacingCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {}

/// The keepalive timer (an lws timer, once a second).
func keepaliveTimerCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
  guard let sul, let owner = shim_timer_owner(sul) else { return }
  Unmanaged<ServiceLoop>.fromOpaque(owner).takeUnretainedValue().keepaliveTick()
}

/// The drain check (a repeating libev timer whose data is the service loop).
func drainTimerCallback(
  _ loop: OpaquePointer?, _ timer: UnsafeMutablePointer<ev_timer>?, _ events: Int32
) {
  Unmanaged<ServiceLoop>.fromOpaque(timer!.pointee.data).takeUnretainedValue().drainCheck()
}

/// Shutdown deadline (an lws timer).
func shutdownDeadlineCallback(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
  guard let sul, let owner = shim_timer_owner(sul) else { return }
  Unmanaged<ServiceLoop>.fromOpaque(owner).takeUnretainedValue().deadlineReached()
}

/// libev, before the loop waits for events (an `ev_prepare` whose data is the service loop).
func beforeWaitCallback(
  _ loop: OpaquePointer?, _ watcher: UnsafeMutablePointer<ev_prepare>?, _ events: Int32
) {
  Unmanaged<ServiceLoop>.fromOpaque(watcher!.pointee.data).takeUnretainedValue().aboutToWait()
}

/// libev, after the loop waited for events (an `ev_check` whose data is the service loop).
func afterWaitCallback(
  _ loop: OpaquePointer?, _ watcher: UnsafeMutablePointer<ev_check>?, _ events: Int32
) {
  Unmanaged<ServiceLoop>.fromOpaque(watcher!.pointee.data).takeUnretainedValue().passBegins()
}

/// `info.signal_cb`: signals are the application's business (``ShutdownSignals`` traps them).
func ignoreSignalCallback(_ handle: UnsafeMutableRawPointer?, _ signal: Int32) {}
