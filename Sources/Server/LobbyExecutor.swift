import Foundation
import Lobby

/// The thin shell that runs the lobby's state machine on a thread of its own.
///
/// Any thread posts events; the executor thread takes everything queued in one go, feeds each
/// event to ``LobbyState`` in arrival order, moves time on to whatever deadline has come, and
/// hands all the resulting actions to `perform` as one batch (so the transport is woken once
/// per batch, not once per frame). Between batches it sleeps until the next event or the
/// state's next deadline. It never waits in the middle of a decision.
final class LobbyExecutor: ServiceThreadHandler, @unchecked Sendable {
  /// What reaches the lobby from the transport.
  enum Event: Sendable {
    /// A complete text message.
    case message(ConnectionID, [UInt8])
    /// The connection has gone.
    case closed(ConnectionID)
  }

  private let condition = NSCondition()
  // Guarded by `condition`.
  private var queued: [Event] = []
  private var stopping = false
  // Executor thread only.
  private var state: LobbyState
  private var perform: @Sendable ([LobbyAction]) -> Void = { _ in }
  private var consumed: @Sendable (Int) -> Void = { _ in }
  private let now: @Sendable () -> Double
  private var thread: Thread?
  private let finished = DispatchSemaphore(value: 0)

  /// An executor for `state`, idle until `start`.
  init(state: LobbyState, now: @escaping @Sendable () -> Double) {
    self.state = state
    self.now = now
  }

  /// Starts the executor thread: `perform` carries out each batch of actions, `consumed` is
  /// told how many message bytes a batch took off the queue (for the transport's back-pressure).
  func start(
    perform: @escaping @Sendable ([LobbyAction]) -> Void,
    consumed: @escaping @Sendable (Int) -> Void
  ) {
    self.perform = perform
    self.consumed = consumed
    let thread = Thread { [self] in run() }
    thread.name = "lobby"
    self.thread = thread
    thread.start()
  }

  /// Queues an event. Any thread.
  func post(_ event: Event) {
    condition.lock()
    queued.append(event)
    let wasEmpty = queued.count == 1
    condition.unlock()
    if wasEmpty { condition.signal() }
  }

  // As the transport's service-thread handler: every event is queued for the executor thread
  // at once, with nothing to carry out here.
  var decidesInline: Bool { false }

  func handle(_ event: TransportEvent, now: Double, commands: inout [TransportCommand]) {
    switch event {
    case .opened: break
    case .message(let connection, let bytes): post(.message(connection, bytes))
    case .closed(let connection): post(.closed(connection))
    }
  }

  func deadlineReached(now: Double, commands: inout [TransportCommand]) {}

  func nextDeadline() -> Double? { nil }

  /// Stops after the events already queued; returns when the thread has ended.
  func stop() {
    condition.lock()
    stopping = true
    condition.unlock()
    condition.signal()
    if thread != nil { finished.wait() }
  }

  private func run() {
    var batch: [Event] = []
    var deadline: Double?
    while true {
      condition.lock()
      while queued.isEmpty && !stopping {
        if let deadline {
          let wait = deadline - now()
          if wait <= 0 { break }
          if !condition.wait(until: Date(timeIntervalSinceNow: wait)) { break }
        } else {
          condition.wait()
        }
      }
      swap(&batch, &queued)
      let stop = stopping && batch.isEmpty
      condition.unlock()
      if stop { break }

      let time = now()
      var actions: [LobbyAction] = []
      var bytes = 0
      for event in batch {
        switch event {
        case .message(let connection, let message):
          bytes += message.count
          actions += state.receive(message, from: connection, now: time)
        case .closed(let connection):
          actions += state.disconnected(connection, now: time)
        }
      }
      actions += state.advance(to: time)
      deadline = state.nextDeadline()
      batch.removeAll(keepingCapacity: batch.capacity <= 4096)
      if !actions.isEmpty { perform(actions) }
      if bytes > 0 { consumed(bytes) }
    }
    finished.signal()
  }
}
