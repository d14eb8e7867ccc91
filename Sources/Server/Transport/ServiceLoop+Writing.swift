import CWebSockets
import Protocol

/// Writing on the service thread: a connection's own queue (`OutboundQueue`) and, for a
/// spectator, its crowd's frames (`Crowd`), several frames in one write when they wait.
extension ServiceLoop {
  /// Queues `frame` for connection `id` unless it is gone or closing.
  func enqueue(_ frame: Frame, for id: ConnectionID) {
    guard let state = connections[id], state.isOpenForSending else { return }
    let wasEmpty = !state.hasPendingOutput
    guard state.outbound.push(frame, tag: crowdSequence) else {
      logger.debug(
        "outbound queue full; closing", metadata: ["connection": "\(id)"])
      metrics?.tooSlow()
      violation(state, code: 4000, reason: "too slow")
      return
    }
    // A non-empty queue always has a writable callback pending.
    requestWrite(state)
    if wasEmpty { watchDrain(state) }
  }

  /// Asks for `state`'s next writable callback, unless one is asked for already.
  func requestWrite(_ state: ConnectionState) {
    if servingFirst && state.isServedFirst { firstWrites.append(state) }
    guard !state.writeRequested else { return }
    state.writeRequested = true
    lws_callback_on_writable(state.wsi)
  }

  /// `LWS_CALLBACK_SERVER_WRITEABLE`: a crowd member's write is paid for out of the crowds'
  /// share of the thread (``CrowdShare``).
  func writable(_ state: ConnectionState) -> Int32 {
    guard state.crowd != nil, crowdShare.isBounded else { return write(state) }
    let began = MonotonicClock.now()
    defer { crowdShare.spent(MonotonicClock.now() - began) }
    return write(state)
  }

  /// A crowd member's frames written at its turn (``serveCrowds()``), without its writable
  /// callback: the caller checked that its socket would have one now (`lws_send_pipe_choked`:
  /// lws holds nothing unsent for it, and `poll` finds it writable), no close frame or PING is
  /// due, and it is not asked to write. Asking for the callback changed the socket's poll set
  /// twice (on, and off after the write) and took an event of the next pass, for a socket that
  /// could take the write at once. Checking lws' buffer alone was not enough: written while the
  /// kernel found it full, a spectator that read nothing had the rest kept by lws rather than
  /// the kernel, so its close found nothing unsent and ended with a plain close rather than a
  /// reset (`test_a_spectator_that_breaks_a_rule_with_its_window_shut_is_reset`). A write the
  /// socket does not take whole is kept by lws, which sends the rest when the socket can take
  /// it, before any later write, as in a callback. A failed write cannot close the connection
  /// here: its callback does.
  func writeAtTurn(_ state: ConnectionState) {
    guard write(state) < 0 else { return }
    state.writeFailed = true
    requestWrite(state)
  }

  /// Exactly one write (lws wants no more per callback): the close frame when it is due, else
  /// a PING when one is wanted, else the frames waiting.
  private func write(_ state: ConnectionState) -> Int32 {
    state.writeRequested = false
    if state.writeFailed { return -1 }
    if state.close.writesNothingMore { return 0 }
    if let close = state.close.frameDue(outboundIsEmpty: !state.hasPendingOutput) {
      return sendCloseFrame(state, code: close.code, reason: close.reason)
    }
    if state.ping == .wanted {
      state.ping = .sent
      if writePing(state) < 0 { return -1 }
      if !state.outbound.isEmpty { requestWrite(state) }
      return 0
    }
    guard let frame = takeNext(state) else { return 0 }
    if state.isLink {
      // One frame a write: a batch is sent as it stands, and a client's frames must be masked.
      if writeLink(frame, state) < 0 { return -1 }
      metrics?.frameWritten(bytes: frame.count)
      afterWrite(state)
      return 0
    }
    if let next = peekNext(state), WriteBatch.fit(frame, next) {
      return writeBatch(from: frame, state)
    }
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
    afterWrite(state)
    return 0
  }

  /// Writes `state`'s PING: a client's from the shared ping buffer, a link's from its own
  /// (lws masks what a link sends where it lies).
  private func writePing(_ state: ConnectionState) -> Int32 {
    if state.isLink { return writeLink(nil, state) }
    guard let eventLoop else { return -1 }
    let headroom = shim_lws_pre()
    let written = lws_write(
      state.wsi,
      (eventLoop.resources.pingBuffer + headroom).assumingMemoryBound(to: UInt8.self),
      LWSResources.pingPayload.count, LWS_WRITE_PING)
    return written < 0 ? -1 : 0
  }

  /// The next frame for `state`, taken: its own queue's or its crowd's, whichever was sent
  /// first.
  private func takeNext(_ state: ConnectionState) -> Frame? {
    guard let crowd = state.crowd, state.cursor < crowd.head else {
      return state.outbound.popFirst()
    }
    let (frame, sequence) = crowd.frame(at: state.cursor)
    if let tag = state.outbound.firstTag, tag <= sequence { return state.outbound.popFirst() }
    state.cursor += 1
    return frame
  }

  /// The frame ``takeNext(_:)`` would take, left where it is.
  private func peekNext(_ state: ConnectionState) -> Frame? {
    guard let crowd = state.crowd, state.cursor < crowd.head else { return state.outbound.first }
    let (frame, sequence) = crowd.frame(at: state.cursor)
    if let tag = state.outbound.firstTag, tag <= sequence { return state.outbound.first }
    return frame
  }

  /// Writes `first` and the frames waiting after it in one go, as many as
  /// ``WriteBatch/byteLimit`` takes (the caller checked that the next one fits with `first`).
  private func writeBatch(from first: Frame, _ state: ConnectionState) -> Int32 {
    let batch = self.batch ?? WriteBatch(headroom: Int(shim_lws_pre()))
    self.batch = batch
    batch.reset()
    batch.append(first)
    while let next = peekNext(state), batch.fits(next) {
      batch.append(next)
      _ = takeNext(state)
    }
    // Sent as it stands: the frames' headers are in it. lws sends what the socket takes and
    // keeps the rest, ahead of any later write (the batch's buffer is free again at once).
    let written = batch.withBytes { bytes, length in
      lws_write(state.wsi, bytes, length, LWS_WRITE_HTTP)
    }
    if written < 0 { return -1 }
    metrics?.framesWritten(batch.frames, bytes: batch.payloadBytes)
    afterWrite(state)
    return 0
  }

  /// After a write: its own frames still waiting ask for the next write at once; its crowd's
  /// wait for its next turn (``serveCrowds()``); a close asks for the write of its frame. What
  /// lws could not send (the peer's window is shut) puts it on the drain watch.
  private func afterWrite(_ state: ConnectionState) {
    if state.crowd != nil && lws_partial_buffered(state.wsi) != 0 { watchDrain(state) }
    if !state.outbound.isEmpty {
      requestWrite(state)
    } else if !state.hasPendingOutput && !state.close.isOpen {
      lws_callback_on_writable(state.wsi)
    }
  }
}
