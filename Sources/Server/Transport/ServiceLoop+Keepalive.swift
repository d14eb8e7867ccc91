import CWebSockets

/// The keepalive on the service thread: an lws timer once a second, `KeepaliveTimer` decides
/// about each connection whose slot came up, this writes nothing itself (a PING goes out at
/// the connection's next writable callback) but drops connections silent too long.
extension ServiceLoop {
  func scheduleKeepaliveTimer() {
    eventLoop?.schedule(.keepalive, in: 1_000_000)
  }

  /// Once a second: pings the connections silent for `pingIdleSeconds` and drops those silent
  /// for `hangupIdleSeconds` (counting from their last message or PONG). Only connections
  /// whose wheel slot came up are looked at.
  func keepaliveTick() {
    let now = MonotonicClock.now()
    keepalive.takeDue(upTo: now, into: &keepaliveDue)
    for id in keepaliveDue {
      guard let state = connections[id] else { continue }
      switch keepalive.check(
        id, lastAlive: state.lastAlive, ping: &state.ping, closing: state.close.isUnderWay,
        now: now)
      {
      case .leave, .wait:
        break
      case .ping:
        lws_callback_on_writable(state.wsi)
      case .hangUp(let silent):
        logger.debug(
          "no PONG; dropping connection",
          metadata: ["connection": "\(id)", "silentSeconds": "\(Int(silent))"])
        state.ignoresInput = true
        state.close.drop()
        // Closed by lws on its next pass (reported as `.closed` like any drop): a peer that
        // answers no PING would not read a close frame either.
        lws_set_timeout(state.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
      }
    }
    keepaliveDue.removeAll(keepingCapacity: keepaliveDue.capacity <= 4096)
    if !stopRequested { scheduleKeepaliveTimer() }
  }
}
