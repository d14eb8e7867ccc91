import CWebSockets
import Protocol
import Synchronization

/// Source of connection ids, shared by all transports so that an id is never reused in the process.
private let connectionNumbers = Atomic<UInt64>(1)

/// The life of a WebSocket connection on the service thread: its upgrade, its reads (with
/// back-pressure) and writes, and its end. The decisions are `UpgradeFilter`'s,
/// `MessageAssembler`'s, `BackPressureGate`'s and `CloseHandshake`'s; this carries them out.
extension ServiceLoop {
  // MARK: - Opening

  /// `LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION`: whether the upgrade request on `wsi` goes on.
  func acceptsUpgrade(_ wsi: OpaquePointer) -> Bool {
    let request = UpgradeFilter.Request(
      version: RequestHeader.value(WSI_TOKEN_VERSION, of: wsi),
      origin: RequestHeader.value(WSI_TOKEN_ORIGIN, of: wsi),
      host: RequestHeader.value(WSI_TOKEN_HOST, of: wsi))
    switch upgradeFilter.decide(
      request, openConnections: connections.count, shuttingDown: shuttingDown,
      now: MonotonicClock.now())
    {
    case .accept:
      return true
    case .refuse, .refuseAtLimit(warning: nil):
      return false
    case .refuseAtLimit(let refused?):
      logger.warning(
        "refusing WebSocket upgrades: connection limit reached",
        metadata: [
          "limit": "\(configuration.maxConnections)", "refusedSinceLastWarning": "\(refused)",
        ])
      return false
    case .forbid(let origin):
      logger.info(
        "refusing WebSocket upgrade from a foreign origin", metadata: ["origin": "\(origin)"])
      // Written before lws closes the connection, so that the client learns why.
      let headroom = shim_lws_pre()
      var buffer = [UInt8](repeating: 0, count: headroom) + UpgradeFilter.forbiddenResponse
      buffer.withUnsafeMutableBufferPointer { buffer in
        _ = lws_write(
          wsi, buffer.baseAddress! + headroom, buffer.count - headroom, LWS_WRITE_HTTP_HEADERS)
      }
      return false
    }
  }

  /// `LWS_CALLBACK_ESTABLISHED`: the connection gets its id and state, and is reported.
  func established(_ wsi: OpaquePointer, session: UnsafeMutablePointer<shim_session>?) -> Int32 {
    guard let session else { return -1 }
    let id = connections.newClientID(
      number: connectionNumbers.wrappingAdd(1, ordering: .relaxed).oldValue)
    let state = adopt(wsi, as: id, session: session, isLink: false)
    let address = peerAddress(wsi)
    if addressLimit.isOn, let address {
      guard addressLimit.admit(address) else {
        refuseOverAddressLimit(state, address: address)
        return 0
      }
      state.countedAddress = address
    }
    keepalive.opened(id, now: state.lastAlive)
    deliver(.opened(id, address: address))
    if shuttingDown {
      requestClose(
        state, code: 1001, reason: configuration.shutdownCloseReason, flushFirst: true)
    }
    return 0
  }

  /// Makes the state of connection `id` on `wsi`, just established (a client's or a link's),
  /// and starts keeping it: the connections, the session's pointer, the send buffer.
  func adopt(
    _ wsi: OpaquePointer, as id: ConnectionID, session: UnsafeMutablePointer<shim_session>,
    isLink: Bool
  ) -> ConnectionState {
    session.pointee.connection_id = id.rawValue
    session.pointee.established = 1
    let state = ConnectionState(
      id: id, wsi: wsi, configuration: configuration, now: MonotonicClock.now(), isLink: isLink)
    connections[id] = state
    session.pointee.state = Unmanaged.passUnretained(state).toOpaque()
    metrics?.connectionOpened(open: connections.count)
    let fd = lws_get_socket_fd(wsi)
    if configuration.sendBufferBytes > 0, fd >= 0 {
      _ = shim_set_send_buffer(fd, Int32(clamping: configuration.sendBufferBytes))
    }
    if isLink { keepalive.opened(id, now: state.lastAlive) }
    return state
  }

  /// The client's address (``ClientAddress``): the peer's as lws names it, or the one a
  /// trusted proxy forwarded (the request's headers are still there at `ESTABLISHED`); nil if
  /// lws names none.
  private func peerAddress(_ wsi: OpaquePointer) -> String? {
    let peer = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String? in
      guard let name = lws_get_peer_simple(wsi, buffer.baseAddress, buffer.count) else {
        return nil
      }
      return String(cString: name)
    }
    guard let peer else { return nil }
    guard !configuration.trustedProxies.isEmpty else { return peer }
    return ClientAddress.of(
      peer: peer, forwardedFor: RequestHeader.value(WSI_TOKEN_X_FORWARDED_FOR, of: wsi),
      trusted: configuration.trustedProxies)
  }

  /// A connection over the per-address limit: closed with 4002 and a reason a person can read,
  /// never reported to the consumer (no lobby, no session).
  private func refuseOverAddressLimit(_ state: ConnectionState, address: String) {
    logger.notice(
      "refusing a connection over the per-address limit",
      metadata: ["address": "\(address)", "limit": "\(addressLimit.limit)"])
    metrics?.refusedAtAddressLimit()
    state.isRefused = true
    state.ignoresInput = true
    requestClose(
      state, code: ServiceLoop.addressLimitCloseCode,
      reason: "too many connections from your address", flushFirst: false)
  }

  // MARK: - Reading

  /// `LWS_CALLBACK_RECEIVE`: one chunk of a message.
  func receive(_ state: ConnectionState, _ chunk: UnsafeRawBufferPointer) {
    if state.ignoresInput { return }
    let wsi = state.wsi
    let first = lws_is_first_fragment(wsi) != 0
    if first {
      if lws_frame_is_binary(wsi) != 0 {
        violation(state, code: 1003, reason: "text messages only")
        return
      }
      let now = MonotonicClock.now()
      // A linked server sends what it sends its clients, at its own pace.
      guard state.isLink || state.rate.take(now: now) else {
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
      let receivedAt = MonotonicClock.now()
      if handler?.decidesInline == true {
        // Decided right here: nothing waits in between, so nothing to count.
        deliver(.message(state.id, bytes, receivedAt: receivedAt))
      } else {
        // Counted before the consumer can see (and acknowledge) it.
        let queued = backPressure.add(bytes.count)
        deliver(.message(state.id, bytes, receivedAt: receivedAt))
        if gate.pauses(state.id, queuedBytes: queued) { pauseReading(state) }
      }
    case .tooBig:
      violation(state, code: 1009, reason: "message too big")
    case .unexpectedContinuation:
      violation(state, code: 1002, reason: "protocol error")
    }
  }

  /// Stops reading `state`, which the gate just paused, until the consumer has caught up
  /// (`lws_rx_flow_control` takes effect at once: lws keeps whatever else it already read for
  /// later).
  private func pauseReading(_ state: ConnectionState) {
    backPressure.pausedConnections.store(gate.paused.count, ordering: .sequentiallyConsistent)
    lws_rx_flow_control(state.wsi, 0)
    // Not read first either: lws is handed only what it asked for.
    state.isServedFirstOnResume = state.isServedFirst
    firstServed.remove(state)
    // The consumer may have acknowledged everything between the count and the pause, seeing
    // no paused connection and so asking for no resume: check again now that the pause is
    // published.
    resumeReadingIfBelowLowWater()
  }

  /// Reads every paused connection again once the unacknowledged bytes fell below the
  /// low-water mark (the request may be stale: more may have arrived since).
  func resumeReadingIfBelowLowWater() {
    guard !gate.paused.isEmpty else { return }
    let resumed = gate.resume(
      queuedBytes: backPressure.queuedBytes.load(ordering: .sequentiallyConsistent))
    guard !resumed.isEmpty else { return }
    for id in resumed {
      guard let state = connections[id] else { continue }
      lws_rx_flow_control(state.wsi, 1)
      if state.isServedFirstOnResume { serveFirstIfPlaying(state) }
    }
    logger.trace("reading resumed", metadata: ["connections": "\(resumed.count)"])
    backPressure.pausedConnections.store(0, ordering: .sequentiallyConsistent)
  }

  /// `LWS_CALLBACK_RECEIVE_PONG`.
  func pongArrived(_ state: ConnectionState) {
    KeepaliveTimer.pongArrived(
      now: MonotonicClock.now(), lastAlive: &state.lastAlive, ping: &state.ping)
  }

  // MARK: - Closed

  /// `LWS_CALLBACK_CLOSED`: the connection is gone and reported.
  func closed(session: UnsafeMutablePointer<shim_session>?) {
    // Also called for upgrades that failed before ESTABLISHED: then the session is all zero.
    guard let session, session.pointee.established != 0 else { return }
    session.pointee.established = 0
    session.pointee.state = nil
    let id = ConnectionID(rawValue: session.pointee.connection_id)
    let state = connections.removeValue(forKey: id)
    if let state {
      firstServed.remove(state)
      resetIfUnread(state)
    }
    state?.release()
    if let address = state?.countedAddress { addressLimit.release(address) }
    metrics?.connectionClosed(open: connections.count)
    if gate.closed(id) {
      backPressure.pausedConnections.store(gate.paused.count, ordering: .sequentiallyConsistent)
    }
    if state?.isRefused != true { deliver(.closed(id)) }
    if shuttingDown && connections.isEmpty { stopLoop() }
  }
}
