import Synchronization

/// The timeline every event loop follows, fixed once all of them have seated their tables.
public struct Timeline: Equatable, Sendable {
  /// When load starts (warm-up begins), monotonic ns.
  public var start: UInt64
  /// When the measured window opens.
  public var windowStart: UInt64
  /// When it closes: no new move is scheduled after it (idle: the liveness moves go out then).
  public var windowEnd: UInt64

  /// The timeline of `configuration` starting at `start`.
  public init(start: UInt64, configuration: LoadConfiguration) {
    self.start = start
    if configuration.mode == .idle {
      // Idle holds the connections through the whole duration: that is its window.
      windowStart = start
    } else {
      windowStart = start + UInt64(configuration.warmup * 1e9)
    }
    windowEnd = windowStart + UInt64(configuration.duration * 1e9)
  }
}

/// What the loops share with the thread that runs them: how many are ready, the timeline once
/// it is set, and their results.
final class Coordinator: Sendable {
  /// The shared state.
  private struct State {
    /// Loops that have seated everything they could.
    var readyLoops = 0
    /// The timeline, once the runner set it.
    var timeline: Timeline?
    /// Finished loops' statistics.
    var results: [LoopStatistics] = []
    /// Each table's invite code, by global table number, once its host has it (for the crowd's
    /// loops).
    var codes: [Int: String] = [:]
    var codesKnownAt: [Int: UInt64] = [:]
  }

  /// The shared state, under a lock (touched a few times per loop iteration at most).
  private let state = Mutex(State())

  /// A loop has seated everything it could.
  func loopReady() { state.withLock { $0.readyLoops += 1 } }

  /// How many loops are ready.
  var readyLoops: Int { state.withLock { $0.readyLoops } }

  /// Sets the timeline (once).
  func begin(_ timeline: Timeline) { state.withLock { $0.timeline = $0.timeline ?? timeline } }

  /// The timeline, once set.
  var timeline: Timeline? { state.withLock { $0.timeline } }

  /// A loop's final statistics.
  func finish(_ statistics: LoopStatistics) { state.withLock { $0.results.append(statistics) } }

  /// Every finished loop's statistics.
  var results: [LoopStatistics] { state.withLock { $0.results } }

  /// Table `table`'s host has its invite code.
  func publish(code: String, table: Int) {
    let now = monotonicNanoseconds()
    state.withLock {
      $0.codes[table] = code
      $0.codesKnownAt[table] = now
    }
  }

  /// The invite codes known of `tables`, for at least `age` nanoseconds by `now`.
  func codes(of tables: [Int], knownFor age: UInt64 = 0, now: UInt64 = 0) -> [Int: String] {
    state.withLock { state in
      var found: [Int: String] = [:]
      for table in tables {
        guard let code = state.codes[table], let at = state.codesKnownAt[table] else { continue }
        if age == 0 || at + age <= now { found[table] = code }
      }
      return found
    }
  }

  /// Each table's versions against their moves, shared by the players' loop and the crowd's
  /// loops (``LoadConfiguration/crowdThreads``).
  private let deliveries = Mutex([Int: SpectatorDelivery]())

  /// ``SpectatorDelivery/made(version:sent:)`` of table `table`.
  func made(table: Int, version: Int, sent: UInt64) -> [UInt64] {
    deliveries.withLock {
      $0[table, default: SpectatorDelivery()].made(version: version, sent: sent)
    }
  }

  /// ``SpectatorDelivery/arrived(version:at:)`` of table `table`.
  func arrived(table: Int, version: Int, at now: UInt64) -> UInt64? {
    deliveries.withLock {
      $0[table, default: SpectatorDelivery()].arrived(version: version, at: now)
    }
  }
}
