import CWebSockets

/// The service-thread handler (``ServiceThreadHandler``), how the lobby runs on this thread: it is
/// handed each event and its timer's deadlines, and its commands are carried out at once.
extension ServiceLoop {
  /// Hands an event to the handler (carrying out its commands at once), or to the stream.
  func deliver(_ event: TransportEvent) {
    guard let handler else {
      continuation.yield(event)
      return
    }
    handler.handle(event, now: MonotonicClock.now(), commands: &handlerCommands)
    finishHandlerCall(handler)
  }

  /// The handler's timer fired: what waited for this pass is decided one message at a time,
  /// each one's commands carried out and the written journal batches let go before the next
  /// (a pass of a crowd's `spectate`s took 1-3 ms, and the players' frames written meanwhile
  /// waited for all of it), then the handler's own clock.
  func handlerDeadlineReached() {
    guard let handler else { return }
    handlerTimerArmedAt = nil
    while handler.admitNext(now: MonotonicClock.now(), commands: &handlerCommands) {
      executeHandlerCommands()
      releaseWritten()
    }
    handler.deadlineReached(now: MonotonicClock.now(), commands: &handlerCommands)
    finishHandlerCall(handler)
  }

  private func executeHandlerCommands() {
    guard !handlerCommands.isEmpty else { return }
    execute(handlerCommands)
    handlerCommands.removeAll(keepingCapacity: handlerCommands.capacity <= 1024)
  }

  func finishHandlerCall(_ handler: any ServiceThreadHandler) {
    executeHandlerCommands()
    releaseWritten()
    // Re-arm the timer only when the deadline came earlier than the one armed: lws keeps timers
    // in a sorted list. A timer that fires before anything is due costs one empty call.
    guard let deadline = handler.nextDeadline(), let eventLoop,
      handlerTimerArmedAt.map({ deadline < $0 }) ?? true
    else { return }
    handlerTimerArmedAt = deadline
    let microseconds = lws_usec_t(
      max(0, (deadline - MonotonicClock.now()) * 1_000_000).rounded(.up))
    eventLoop.schedule(.handlerDeadline, in: microseconds)
  }
}
