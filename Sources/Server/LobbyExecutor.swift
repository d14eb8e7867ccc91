import Foundation

/// One of the ``ShardedLobby``'s executor threads and its queue.
final class LobbyExecutor: @unchecked Sendable {
  let index: Int
  private let now: @Sendable () -> Double
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var queued: [ShardedLobby.Event] = []
  private var stopping = false
  /// Set by ``nudge()``: the executor runs a pass even with no new event.
  private var nudged = false
  private var wakeAt: Double?
  private var thread: Thread?
  private let finished = DispatchSemaphore(value: 0)

  init(index: Int, now: @escaping @Sendable () -> Double) {
    self.index = index
    self.now = now
  }

  /// Runs `body` on each batch of events (and whether the clock was due, and whether the
  /// executor is stopping); it returns whether to be called again at once, without waiting for
  /// an event or a ``nudge()``.
  func start(_ body: @escaping @Sendable ([ShardedLobby.Event], Bool, Bool) -> Bool) {
    let thread = Thread(named: "lobby-\(index)") { [self] in run(body) }
    self.thread = thread
    thread.start()
  }

  /// Queues an event. Any thread.
  func post(_ event: ShardedLobby.Event) {
    condition.lock()
    queued.append(event)
    let wasEmpty = queued.count == 1
    condition.unlock()
    if wasEmpty { condition.signal() }
  }

  /// Makes the executor run a pass even if no event comes (what waited may go on). Any thread.
  func nudge() {
    condition.lock()
    nudged = true
    condition.unlock()
    condition.signal()
  }

  /// Wakes the executor at `time` (nil: only for events). Any thread.
  func wake(at time: Double?) {
    condition.lock()
    let earlier = time.map { time in wakeAt.map { time < $0 } ?? true } ?? false
    wakeAt = time
    condition.unlock()
    if earlier { condition.signal() }
  }

  /// Stops after the events already queued; returns when the thread has ended. Again: at once.
  func stop() {
    condition.lock()
    let first = !stopping
    stopping = true
    condition.unlock()
    condition.signal()
    if first && thread != nil { finished.wait() }
  }

  private func run(_ body: @Sendable ([ShardedLobby.Event], Bool, Bool) -> Bool) {
    var batch: [ShardedLobby.Event] = []
    var again = false
    while true {
      condition.lock()
      while queued.isEmpty && !stopping && !nudged && !again {
        if let wakeAt {
          let wait = wakeAt - now()
          if wait <= 0 || !condition.wait(until: Date(timeIntervalSinceNow: wait)),
            wakeAt <= now()
          {
            break
          }
        } else {
          condition.wait()
        }
      }
      // Due even when events kept the executor busy.
      let timerDue = wakeAt.map { $0 <= now() } ?? false
      if timerDue { wakeAt = nil }
      nudged = false
      swap(&batch, &queued)
      let ending = stopping
      let stop = stopping && batch.isEmpty && !again
      condition.unlock()
      // Stopping with nothing queued: one more pass decides whatever still waits of its own,
      // and the executor ends once a pass leaves nothing waiting.
      again = body(batch, timerDue, ending)
      if stop && !again { break }
      batch.removeAll(keepingCapacity: batch.capacity <= 4096)
    }
    finished.signal()
  }
}
