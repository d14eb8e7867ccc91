import CWebSockets

/// Clients that do not read, on the service thread: a check every
/// `TransportConfiguration.drainCheckInterval` looks at each connection that was sent
/// something since it was last found unblocked (a few a pass, ``DrainSweep``), `DrainClock`
/// decides, and this cuts the connections blocked too long without progress. Connections that
/// were sent nothing cost nothing.
extension ServiceLoop {
  /// Puts `state` on the drain watch (it was just sent a frame into an empty queue).
  func watchDrain(_ state: ConnectionState) {
    guard !state.isDrainWatched else { return }
    state.isDrainWatched = true
    drainWatch.append(state.id)
  }

  /// The drain check, every ``TransportConfiguration/drainCheckInterval``: begins a sweep over
  /// the watched connections and takes its first step; the loop takes the rest, one a pass
  /// (``continueDrainSweep()``). A sweep still under way when the next check comes goes on.
  func drainCheck() {
    guard drainSweep.begin(count: drainWatch.count) else { return }
    drainStep()
  }

  /// Before the loop waits: the next step of a sweep under way, and the loop does not sleep
  /// while one is.
  func continueDrainSweep() {
    guard drainSweep.isUnderWay else { return }
    drainStep()
  }

  /// Looks at the next connections of the sweep (``DrainSweep/perStep``).
  private func drainStep() {
    let now = MonotonicClock.now()
    var cut = false
    for index in drainSweep.step() {
      let id = drainWatch[index]
      guard let state = connections[id] else { continue }
      let fd = lws_get_socket_fd(state.wsi)
      let unsent = fd >= 0 ? max(0, Int(shim_unsent_bytes(fd))) : 0
      let blocked = unsent > 0 || lws_partial_buffered(state.wsi) != 0
      let acknowledged = blocked && fd >= 0 ? UInt64(max(0, shim_bytes_acknowledged(fd))) : 0
      let before = state.drainReading
      switch drainClock.check(
        reading: &state.drainReading, blocked: blocked, acknowledged: acknowledged, now: now)
      {
      case .drained:
        // How long an honest client was blocked: what the bound must stay well above.
        if let before { metrics?.outputDrained(afterWaiting: now - before.since) }
        // Frames still queued wait for the server, not for the peer: watched until written. A
        // crowd's frames not yet sent do not keep it watched (ten thousand spectators, each
        // two `ioctl`s every check, held the players' moves for 30 ms): its next write puts it
        // back on the watch if the peer's window is shut, and the crowd's bounds cut it if its
        // turn never comes.
        if state.outbound.isEmpty {
          state.isDrainWatched = false
          continue
        }
      case .waiting:
        drainSweep.noteBlocked(bytes: state.outbound.byteCount + unsent)
      case .cut(let waited):
        state.isDrainWatched = false
        cutForNotReading(state, waitedSeconds: waited, unsent: unsent)
        cut = true
        continue
      }
      drainWatch[drainSweep.keep()] = id
    }
    // lws looks at due timeouts after each event it handles: wake it, so that the cut
    // connections close now rather than at its next periodic wake.
    if cut, let eventLoop { lws_cancel_service(eventLoop.context) }
    guard let dropped = drainSweep.finish() else {
      // More to look at: the loop comes back at once rather than sleeping.
      eventLoop?.wake(in: 0)
      return
    }
    // The connections appended during the sweep (past its end) stay for the next one.
    drainWatch.removeSubrange(dropped)
    metrics?.sampleOutbound(
      waitingConnections: drainSweep.blocked, largestWaitingBytes: drainSweep.largestBlocked)
  }

  /// Cuts a connection blocked for the bound: its queue is dropped, the consumer hears
  /// `.closed` as for any drop (a player's seat shows `away`), and the socket is reset, so the
  /// kernel frees what it held for the peer at once. No close frame: a peer that reads nothing
  /// would never see it, and waiting for its window to open is what the bound ends. The close is
  /// counted as 4000 "too slow", like a queue that overflows.
  func cutForNotReading(_ state: ConnectionState, waitedSeconds: Double, unsent: Int) {
    logger.info(
      "output did not drain; cutting connection",
      metadata: [
        "connection": "\(state.id)", "waitedSeconds": "\(waitedSeconds)",
        "queuedBytes": "\(state.outbound.byteCount)", "unsentBytes": "\(unsent)",
      ])
    metrics?.cutForNotReading()
    metrics?.closing(code: 4000)
    state.ignoresInput = true
    state.inbound.reset()
    state.outbound.removeAll()
    leaveCrowd(state, keepingUnseen: false)
    // Nothing more is queued or written for it from now on, its close frame included.
    state.close.drop()
    let fd = lws_get_socket_fd(state.wsi)
    if fd >= 0 { _ = shim_reset_on_close(fd) }
    // A timeout that fires at once: lws treats it as a violent death (no flush of its buffered
    // partial frame, no half-closed wait) and reports `LWS_CALLBACK_CLOSED` on its next pass.
    lws_set_timeout(state.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
  }
}
