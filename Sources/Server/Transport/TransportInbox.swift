import CWebSockets
import Synchronization

/// The only state shared between the service thread and everybody else: pending commands,
/// the lifecycle phase, and the lws context pointer used to wake the service thread.
///
/// Every `lws_cancel_service` happens while holding the lock, and the service thread takes the
/// context pointer out under the same lock before it destroys the context; so a wake can never
/// touch a destroyed context. Wakes collapse: while one is pending, further posts only append.
/// And a post wakes the service thread only while it waits for events: while it works, it
/// takes what was posted before it waits again (``sleepUnlessPending()``), so a journal
/// release that comes while it sends the last one's frames costs no wake (each wake is a
/// syscall on both threads and, on a virtual machine, an interrupt between cores).
final class TransportInbox: Sendable {
  /// Where the transport is in its life.
  enum Phase: Equatable {
    /// `start()` not called yet (or it failed).
    case idle
    /// `start()` is creating the context.
    case starting
    /// Serving; commands are accepted.
    case running
    /// The context is being destroyed; commands are dropped.
    case stopping
    /// The context is gone and `events` finished; commands are dropped.
    case stopped
  }

  /// What the service thread takes out of the inbox in one go.
  struct Drain {
    /// Grace period of a shutdown request not yet seen by the service thread.
    var shutdownGrace: Double?
    /// Whether acknowledgements asked for paused connections to be read again.
    var resumeReading = false
  }

  /// The lws context pointer, which is not `Sendable` by itself; only `lws_cancel_service` is
  /// ever called on it from outside the service thread.
  private struct ContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  private struct State {
    var phase: Phase = .idle
    var context: ContextHandle?
    var commands: [TransportCommand] = []
    var wakePending = false
    /// Whether the service thread waits for events (or is about to): only then does a post
    /// need to wake it.
    var asleep = false
    var shutdownGrace: Double?
    var shutdownSeen = false
    var resumeReading = false
    var waiters: [CheckedContinuation<Void, Never>] = []
    var listeningPort = 0
  }

  private let state = Mutex(State())
  /// The latest journal ticket written (``noteWritten(_:)``), for the service thread to let
  /// held frames go between two events of a pass rather than at its end.
  private let written = Atomic<UInt64>(0)
  /// Whether commands were posted since the last ``drain(into:)``, for the service thread to
  /// take them between two events of a pass (``hasPosted``); set and cleared under the lock.
  private let posted = Atomic<Bool>(false)

  /// An idle inbox.
  init() {}

  /// The port reported by `markRunning`, `0` before that.
  var listeningPort: Int { state.withLock { $0.listeningPort } }

  /// Moves from `.idle` to `.starting`; `false` if the transport was started before.
  func beginStart() -> Bool {
    state.withLock { state in
      guard state.phase == .idle else { return false }
      state.phase = .starting
      return true
    }
  }

  /// After a failed start: back to `.idle`, or to `.stopped` (resuming its waiters) if a
  /// shutdown was requested meanwhile.
  func abortStart() {
    let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
      guard state.shutdownGrace != nil else {
        state.phase = .idle
        return []
      }
      state.phase = .stopped
      let waiters = state.waiters
      state.waiters = []
      return waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Service thread: the context exists and may be woken; commands are accepted from now on.
  func markRunning(context: OpaquePointer, listeningPort: Int) {
    state.withLock { state in
      state.context = ContextHandle(pointer: context)
      state.listeningPort = listeningPort
      state.phase = .running
      if state.shutdownGrace != nil {
        state.wakePending = true
        lws_cancel_service(context)
      }
    }
  }

  /// Appends a command and wakes the service thread if no wake is pending.
  /// Dropped silently unless running.
  func post(_ command: TransportCommand) {
    state.withLock { state in
      guard state.phase == .running else { return }
      state.commands.append(command)
      posted.store(true, ordering: .releasing)
      Self.wake(&state)
    }
  }

  /// Appends a whole batch under one lock with at most one wake. Dropped silently unless
  /// running.
  func post(contentsOf batch: [TransportCommand]) {
    guard !batch.isEmpty else { return }
    state.withLock { state in
      guard state.phase == .running else { return }
      state.commands.append(contentsOf: batch)
      posted.store(true, ordering: .releasing)
      Self.wake(&state)
    }
  }

  /// Writer's thread: the journal's entries up to `ticket` are written. The service thread
  /// reads it after each event it handles (``writtenTicket``); the `release` command posted
  /// beside it wakes a service thread that waits for events.
  func noteWritten(_ ticket: UInt64) {
    written.store(ticket, ordering: .releasing)
  }

  /// The latest ticket of ``noteWritten(_:)``. Any thread; one atomic load.
  var writtenTicket: UInt64 { written.load(ordering: .acquiring) }

  /// Whether commands were posted since the last ``drain(into:)``: one atomic load, for the
  /// service thread to take the executors' frames between two events of a pass rather than
  /// at its end.
  var hasPosted: Bool { posted.load(ordering: .acquiring) }

  /// Asks the service thread to read paused connections again (back-pressure has eased).
  func requestResumeReading() {
    state.withLock { state in
      guard state.phase == .running, !state.resumeReading else { return }
      state.resumeReading = true
      Self.wake(&state)
    }
  }

  /// Service thread, right before its loop waits for events: whether something was posted that
  /// it must take first (then call ``drain(into:)`` and ask again); otherwise it counts as
  /// asleep from now on, and the next post wakes it.
  func sleepUnlessPending() -> Bool {
    state.withLock { state in
      let pending =
        !state.commands.isEmpty || state.resumeReading
        || (state.shutdownGrace != nil && !state.shutdownSeen)
      if !pending { state.asleep = true }
      return pending
    }
  }

  /// Service thread, right after its loop waited for events: it works now, and takes what is
  /// posted before it waits again.
  func markAwake() {
    state.withLock { $0.asleep = false }
  }

  /// Service thread: swaps the pending commands into `commands` (which must be empty) and
  /// clears the pending wake.
  func drain(into commands: inout [TransportCommand]) -> Drain {
    state.withLock { state in
      swap(&state.commands, &commands)
      posted.store(false, ordering: .relaxed)
      state.wakePending = false
      var drain = Drain(resumeReading: state.resumeReading)
      state.resumeReading = false
      if let grace = state.shutdownGrace, !state.shutdownSeen {
        state.shutdownSeen = true
        drain.shutdownGrace = grace
      }
      return drain
    }
  }

  /// Asks the service thread to shut down within `grace` seconds and registers `waiter`,
  /// which is resumed once the context is destroyed (at once if nothing runs). A second request
  /// keeps the first grace period.
  func requestShutdown(grace: Double, waiter: CheckedContinuation<Void, Never>) {
    let resumeNow: Bool = state.withLock { state in
      switch state.phase {
      case .idle:
        state.phase = .stopped
        return true
      case .stopped:
        return true
      case .starting, .running, .stopping:
        state.waiters.append(waiter)
        if state.shutdownGrace == nil { state.shutdownGrace = grace }
        if state.phase == .running { Self.wake(&state) }
        return false
      }
    }
    if resumeNow { waiter.resume() }
  }

  /// Service thread, right before `lws_context_destroy`: no wake may reach the context after
  /// this returns. Pending and future commands are dropped.
  func detachContextForDestroy() {
    state.withLock { state in
      state.phase = .stopping
      state.context = nil
      state.commands = []
    }
  }

  /// Service thread, after the context is destroyed: resumes everyone waiting in `shutdown`.
  func finish() {
    let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
      state.phase = .stopped
      let waiters = state.waiters
      state.waiters = []
      return waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Calls `lws_cancel_service` if the service thread waits for events and no wake is pending.
  /// Called with the lock held, which is what makes it safe against the destroy.
  private static func wake(_ state: inout State) {
    guard state.asleep, !state.wakePending, let context = state.context else { return }
    state.wakePending = true
    lws_cancel_service(context.pointer)
  }
}
