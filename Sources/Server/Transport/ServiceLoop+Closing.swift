import CWebSockets

/// The close handshake on the service thread: `CloseHandshake` decides, this writes the close
/// frames and arms lws' timeouts.
extension ServiceLoop {
  /// A protocol violation: input is ignored, queued frames are dropped, the close goes first.
  func violation(_ state: ConnectionState, code: UInt16, reason: String) {
    state.ignoresInput = true
    state.inbound.reset()
    state.outbound.removeAll()
    leaveCrowd(state, keepingUnseen: false)
    guard state.close.decideForViolation(code: code, reason: reason) else {
      // A close was decided already; now it skips the (dropped) queue.
      lws_callback_on_writable(state.wsi)
      return
    }
    logger.debug(
      "closing connection", metadata: ["connection": "\(state.id)", "code": "\(code)"])
    closeDecided(state, code: code)
  }

  /// Decides to close `state` with `code` and `reason` unless a close was decided already.
  func requestClose(
    _ state: ConnectionState, code: UInt16, reason: String, flushFirst: Bool
  ) {
    guard state.close.decide(code: code, reason: reason, flushFirst: flushFirst) else { return }
    // Its crowd's frames it has not seen are its own to send first, or dropped with the rest.
    leaveCrowd(state, keepingUnseen: flushFirst)
    closeDecided(state, code: code)
  }

  /// A close was just decided: its frame goes out at the next writable callback.
  private func closeDecided(_ state: ConnectionState, code: UInt16) {
    metrics?.closing(code: code)
    lws_callback_on_writable(state.wsi)
    // A peer that reads nothing never makes the socket writable: drop it after a while.
    lws_set_timeout(state.wsi, PENDING_TIMEOUT_CLOSE_SEND, CloseHandshake.sendTimeoutSeconds)
  }

  /// At `LWS_CALLBACK_CLOSED`, just before lws closes the socket. A close of ours that ends
  /// while the kernel still holds bytes the peer never acknowledged (its window stayed shut
  /// through the close's send timeout) ends with a reset: a plain close would leave the kernel
  /// an orphaned socket that keeps those bytes, and the peer's end open, for minutes.
  func resetIfUnread(_ state: ConnectionState) {
    guard state.close.isUnderWay else { return }
    let fd = lws_get_socket_fd(state.wsi)
    guard fd >= 0, shim_unsent_bytes(fd) > 0 else { return }
    _ = shim_reset_on_close(fd)
  }

  /// Writes the close frame and waits (at most `CloseHandshake.ackTimeoutSeconds`) for the
  /// peer's reply, ignoring anything else it sends. Only then is the TCP connection closed, so
  /// the peer can read the close frame even if it was still sending (see
  /// `shim_lws_write_close`).
  func sendCloseFrame(_ state: ConnectionState, code: UInt16, reason: String) -> Int32 {
    if writeCloseFrame(state, code: code, reason: reason) < 0 { return -1 }
    lws_set_timeout(state.wsi, PENDING_TIMEOUT_CLOSE_ACK, CloseHandshake.ackTimeoutSeconds)
    return 0
  }

  /// Writes a close frame from the connection's own buffer and stops all other traffic on it.
  private func writeCloseFrame(_ state: ConnectionState, code: UInt16, reason: String) -> Int32 {
    let headroom = shim_lws_pre()
    let buffer = state.writeBuffer(
      capacity: headroom + 2 + CloseHandshake.reasonByteCount(reason))
    let payload = (buffer + headroom).assumingMemoryBound(to: UInt8.self)
    let length = CloseHandshake.writePayload(code: code, reason: reason, to: payload)
    state.close.frameWritten()
    state.ignoresInput = true
    state.outbound.removeAll()
    return shim_lws_write_close(state.wsi, payload, length) < 0 ? -1 : 0
  }

  /// `LWS_CALLBACK_WS_PEER_INITIATED_CLOSE`. Non-zero makes lws drop the connection without
  /// echoing another close; zero makes it echo the peer's close.
  func peerClosed(_ state: ConnectionState, payload: UnsafeRawBufferPointer) -> Int32 {
    switch state.close.answer(toPeerClose: payload) {
    case .drop:
      return -1
    case .echo:
      return 0
    case .protocolError:
      logger.debug("invalid close frame; answering 1002", metadata: ["connection": "\(state.id)"])
      metrics?.closing(code: 1002)
      // Written here rather than through `lws_close_reason`, which would make lws wait up to
      // five seconds for a second close from a peer that has already sent its own. The peer
      // is done sending, so dropping the socket right after cannot reset the close frame away.
      _ = writeCloseFrame(state, code: 1002, reason: "protocol error")
      return -1
    }
  }
}
