import Foundation
import Lobby

/// The thin shell that runs the lobby's state machine on a thread of its own.
///
/// Any thread posts events; the executor thread takes everything queued in one go, feeds each
/// event to ``LobbyState`` in arrival order, moves time on to whatever deadline has come, and
/// hands all the resulting actions to `perform` as one batch (so the transport is woken once
/// per batch, not once per frame). Between batches it sleeps until the next event or the
/// state's next deadline. It never waits in the middle of a decision.
///
/// With metrics, each batch is exported after it is handed over: the state's statistics and
/// counts, and for every move accepted, the time from its arrival on the transport's service
/// thread to its batch's handover.
final class LobbyExecutor: @unchecked Sendable {
  /// What reaches the lobby from the transport.
  enum Event: Sendable {
    /// A complete text message, and when the transport received it (`MonotonicClock`).
    case message(ConnectionID, [UInt8], receivedAt: Double)
    /// The connection has gone.
    case closed(ConnectionID)
  }

  private let condition = NSCondition()
  // Guarded by `condition`.
  private var queued: [Event] = []
  private var stopping = false
  // Executor thread only.
  private var state: LobbyState
  private let perform: @Sendable ([LobbyAction]) -> Void
  private let consumed: @Sendable (Int) -> Void
  private let now: @Sendable () -> Double
  private var metrics: LobbyMetrics?
  private var thread: Thread?
  private let finished = DispatchSemaphore(value: 0)

  /// An executor for `state`; `perform` carries out each batch of actions, `consumed` is told
  /// how many message bytes a batch took off the queue (for the transport's back-pressure),
  /// `metrics` gets every batch's results.
  init(
    state: LobbyState, now: @escaping @Sendable () -> Double,
    perform: @escaping @Sendable ([LobbyAction]) -> Void,
    consumed: @escaping @Sendable (Int) -> Void = { _ in }, metrics: LobbyMetrics? = nil
  ) {
    self.state = state
    self.now = now
    self.perform = perform
    self.consumed = consumed
    self.metrics = metrics
  }

  /// Starts the executor thread.
  func start() {
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

  /// Stops after the events already queued; returns when the thread has ended.
  func stop() {
    condition.lock()
    stopping = true
    condition.unlock()
    condition.signal()
    if thread != nil { finished.wait() }
  }

  /// ``stop()`` without holding a thread of the caller's executor while the queue drains.
  func drain() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread { [self] in
        stop()
        done.resume()
      }
    }
  }

  private func run() {
    var batch: [Event] = []
    var deadline: Double?
    var movesReceivedAt: [Double] = []
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
        case .message(let connection, let message, let receivedAt):
          bytes += message.count
          let accepted = state.statistics.movesAccepted
          actions += state.receive(message, from: connection, now: time)
          if metrics != nil && state.statistics.movesAccepted != accepted {
            movesReceivedAt.append(receivedAt)
          }
        case .closed(let connection):
          actions += state.disconnected(connection, now: time)
        }
      }
      actions += state.advance(to: time)
      batch.removeAll(keepingCapacity: batch.capacity <= 4096)
      let handedOverAt = MonotonicClock.now()
      if !actions.isEmpty { perform(actions) }
      if bytes > 0 { consumed(bytes) }
      deadline = state.nextDeadline()
      metrics?.export(
        state, movesReceivedAt: movesReceivedAt, handedOverAt: handedOverAt, now: time)
      movesReceivedAt.removeAll(keepingCapacity: true)
      // A throttled export of the table counts wakes the executor when it is due.
      if let due = metrics?.nextTableExport { deadline = min(deadline ?? due, due) }
    }
    finished.signal()
  }
}
