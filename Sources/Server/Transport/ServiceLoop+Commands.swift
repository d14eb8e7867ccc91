import Protocol

/// Commands from other threads: what the lobby, the journal's writer and the cluster post to
/// the service thread, taken between events and before the loop waits.
extension ServiceLoop {
  /// Before the loop waits: takes what was posted meanwhile (no one woke the thread for it),
  /// until nothing is left and the inbox counts it asleep.
  func aboutToWait() {
    paceNextPass()
    handler?.passEnded()
    while inbox.sleepUnlessPending() {
      drainInbox()
      // What the drain handed the handler (news from the cluster) ends its pass too.
      handler?.passEnded()
    }
    // The crowd's next few hundred sockets write in the coming pass (the loop does not sleep
    // while they are writable).
    serveCrowds()
    // And the next few new connections come in, and the drain check takes its next step.
    letWaitingConnectionsIn()
    continueDrainSweep()
    followLoopPressure()
    // What those steps decided is not kept from the journal's writer while the loop sleeps.
    handler?.loopWillWait()
  }

  func drainInbox() {
    // A drain that hands news to the handler may be asked for another (``releaseWritten()``):
    // that one waits, for the buffer is in use.
    guard !drainingInbox else { return }
    drainingInbox = true
    // Wakes collapse and may be spurious: always take everything there is.
    let drain = inbox.drain(into: &commandBuffer)
    writingFirst { execute(commandBuffer) }
    commandBuffer.removeAll(keepingCapacity: commandBuffer.capacity <= 1024)
    drainingInbox = false
    if drain.resumeReading { resumeReadingIfBelowLowWater() }
    if let grace = drain.shutdownGrace { beginShutdown(grace: grace) }
  }

  func execute(_ commands: [TransportCommand]) {
    for command in commands {
      if case .news(let news, let done) = command {
        // An event for the consumer, not something to send: nothing holds it.
        deliver(.news(news, done: done))
        continue
      }
      if case .connect(let id, let url) = command {
        connect(id, url: url)
        continue
      }
      held.take(command) { carryOut($0) }
    }
  }

  /// Lets go the frames held behind journal batches written since the last look (one atomic
  /// load when none was), after every event: under load a written batch's frames leave within
  /// an event, not at the end of the pass (a pass of a few hundred messages takes
  /// milliseconds), where the `release` command that the writer posts is taken.
  ///
  /// And takes what other threads posted meanwhile (the sharded lobby's executors' frames, one
  /// atomic load when nothing was): a busy thread is woken for nothing, so what an executor
  /// decided waited for the end of the pass, and a pass of 64 reconnecting spectators took
  /// several milliseconds.
  func releaseWritten() {
    if inbox.hasPosted { drainInbox() }
    let written = inbox.writtenTicket
    guard written > held.releasedTicket else { return }
    writingFirst { held.take(.release(written)) { carryOut($0) } }
  }

  private func carryOut(_ command: TransportCommand) {
    switch command {
    case .send(let frame, let ids), .sendAtOnce(let frame, let ids):
      for id in ids { enqueue(frame, for: id) }
      noteSend(to: ids)
    case .sendToCrowd(let frame, let ids):
      servePlayersFirst()
      send(frame, toCrowd: ids)
    case .close(let id, let code, let reason):
      lastSent.removeAll(keepingCapacity: true)
      guard let state = connections[id], state.close.isOpen else { return }
      requestClose(
        state, code: CloseHandshake.sendableCode(code), reason: reason, flushFirst: true)
    case .closeAtOnce(let id, let code, let reason):
      lastSent.removeAll(keepingCapacity: true)
      guard let state = connections[id], state.close.isOpen else { return }
      requestClose(
        state, code: CloseHandshake.sendableCode(code), reason: reason, flushFirst: false)
    case .moveShown(let receivedAt):
      metrics?.moveShown(receivedAt: receivedAt)
    case .hold, .release, .news, .connect:
      break
    }
  }
}
