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
  /// Decides one of the messages that waited for a later pass, if one waits and this pass may
  /// decide it (true), or nothing (false). The loop calls it until it says false when the
  /// deadline comes, before ``deadlineReached(now:commands:)``, and carries out each one's
  /// commands before the next: frames held behind a journal batch written meanwhile leave
  /// between two, not after all of them (a crowd's pass of them takes milliseconds).
  func admitNext(now: Double, commands: inout [TransportCommand]) -> Bool
  /// The handler's next deadline came (or passed).
  func deadlineReached(now: Double, commands: inout [TransportCommand])
  /// When the handler next wants `deadlineReached`, on `MonotonicClock`'s scale, if ever.
  func nextDeadline() -> Double?
  /// The loop is about to wait for events: the pass that called ``handle(_:now:commands:)``
  /// is over (the inline lobby wakes the journal's writer here, once for the whole pass).
  func passEnded()
  /// The loop waits for events now. After ``passEnded()`` it takes steps of its own (new
  /// connections let in and read at once, a busy pass's players read between them), whose
  /// decisions must not wait for the next pass: the inline lobby pays the journal's writer the
  /// wake they owe here (a join storm's moves waited for it up to 8 ms while the loop slept).
  func loopWillWait()
}

extension ServiceThreadHandler {
  func passEnded() {}
  func loopWillWait() {}
  func admitNext(now: Double, commands: inout [TransportCommand]) -> Bool { false }
}

/// A handler handed to the service thread; only that thread calls it.
struct ServiceThreadHandlerBox: @unchecked Sendable {
  let handler: any ServiceThreadHandler
}
