/// Takes the transport's events on the service thread itself, instead of the `events` stream.
///
/// Whatever commands a call appends are carried out at once, without the inbox and without
/// waking anyone: this is how the lobby runs on the transport's thread, so that a move goes from
/// socket to every member's socket in one pass of the loop. A handler must not block.
protocol ServiceThreadHandler: AnyObject {
  /// Whether messages are decided during `handle` (nothing waits for a consumer, so there is no
  /// inbound queue to bound). A handler that queues messages for another thread says false,
  /// and acknowledges them (`WebSocketTransport.acknowledge(bytes:)`) for back-pressure.
  var decidesInline: Bool { get }
  /// One event, in the order of `TransportEvent`'s rules. `now` is `MonotonicClock.now()`.
  func handle(_ event: TransportEvent, now: Double, commands: inout [TransportCommand])
  /// The handler's next deadline came (or passed).
  func deadlineReached(now: Double, commands: inout [TransportCommand])
  /// When the handler next wants `deadlineReached`, on `MonotonicClock`'s scale, if ever.
  func nextDeadline() -> Double?
  /// The loop is about to wait for events: the pass that called ``handle(_:now:commands:)``
  /// is over (the inline lobby wakes the journal's writer here, once for the whole pass).
  func passEnded()
}

extension ServiceThreadHandler {
  func passEnded() {}
}

/// A handler handed to the service thread; only that thread calls it.
struct ServiceThreadHandlerBox: @unchecked Sendable {
  let handler: any ServiceThreadHandler
}
