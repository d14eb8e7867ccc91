import CLoadSystem
import Glibc
import Model

/// One thread's share of the load: its tables' connections on one epoll set, a timerfd for
/// scheduled moves, and the scenario's behaviour. Everything here is touched by that thread only.
///
/// This file holds its state and its timers; the rest is in extensions: the moves a bot makes
/// (`EventLoop+Moves`), what it does with each server message (`EventLoop+Messages`), its
/// sockets (`EventLoop+Sockets`) and the frames read from and written to them
/// (`EventLoop+Frames`).
final class EventLoop {
  /// What to run.
  let configuration: LoadConfiguration
  /// The timeline and results shared with the runner.
  let coordinator: Coordinator
  /// Every connection of this loop, table by table (host first, then players, then spectators).
  var connections: [Connection] = []
  /// Each table's invite code (once its host has it) and its members' connection indices.
  var tables: [(code: String?, members: [Int])] = []
  /// What this loop counted.
  var statistics = LoopStatistics()
  /// Each table's versions against their moves, to time its spectators (shared through the
  /// coordinator when the crowd has loops of its own).
  var deliveries: [SpectatorDelivery] = []
  /// The global number of each of this loop's tables.
  let tableNumbers: [Int]
  /// A crowd's loop: tables whose invite code it has not learnt yet, by local index.
  var tablesWithoutCode: [Int] = []
  /// Masks, reaction times and set choices.
  var random: SplitMix64
  /// Every connection's next scheduled action.
  private var timers = TimerHeap()
  /// Connections with bytes to write at the end of this iteration.
  var dirty: [Int] = []
  /// The epoll set of every socket and the timerfd.
  let epollFD: Int32
  /// A timerfd armed for the earliest timer: nanosecond wake-ups, where epoll_wait has ms.
  private let timerFD: Int32
  /// The deadline the timerfd is armed for.
  private var armedAt = UInt64.max
  /// One buffer for every read of this loop.
  var readBuffer: UnsafeMutableRawBufferPointer
  /// The next connection to start.
  private var nextToConnect = 0
  /// Connections between `connect` and the end of their handshake.
  var inFlight = 0
  /// Connections ready or failed.
  var settledCount = 0
  /// Connections whose socket is closed.
  var closedCount = 0
  /// Moves in flight on open sockets. Kept as a count because checking every connection on each
  /// iteration is quadratic with 20,000 connections.
  var pendingCount = 0
  /// The shared timeline, once the runner has set it.
  var timeline: Timeline?
  /// Whether the measured window is over (no new moves).
  private var windowEnded = false
  /// Whether the close handshakes have started.
  var closing = false
  /// When each table with a stalling seat stalled (``LoadConfiguration/stallAt``), monotonic
  /// ns; nil until then.
  var stallBegan: [UInt64?] = []
  /// When each table's stalled seat was seen cut, monotonic ns; nil until then.
  var stallCutAt: [UInt64?] = []
  /// Whether the crowd's storm has come (``LoadConfiguration/storm``).
  var stormCame = false
  /// The epoll tag of the timerfd (connections use their index).
  private static let timerTag = UInt64.max
  /// Nanoseconds between one player's moves in the open loop.
  private let openInterval: UInt64
  /// Local addresses the connections are spread over (127.0.0.1, .2, ...), network order.
  let sourceAddresses: [in_addr_t]
  /// Most connections from one local address.
  ///
  /// Linux picks a `connect`'s local port by trying the ports of one parity of
  /// `ip_local_port_range` (about 14,000 by default) in turn, checking each against the
  /// connections to the same destination, and only then the other parity. Once one address has
  /// that many connections to the server, every `connect` scans them all: seating 19,500 from
  /// one address spent 90 % of the load generator in `__inet_hash_connect` and slowed to a few
  /// dozen connections per second. A few thousand per address keep the search short.
  static let connectionsPerSourceAddress = 4096

  /// A loop for the global tables `tableNumbers`.
  ///
  /// `crowd` (`index` of `count`): a loop of spectators only, every table's spectators dealt
  /// out over the crowd's loops; nil: the tables' players (and, without crowd loops, their
  /// spectators).
  init(
    configuration: LoadConfiguration, coordinator: Coordinator, tableNumbers: [Int], seed: UInt64,
    crowd: (index: Int, count: Int)? = nil
  ) {
    self.configuration = configuration
    self.coordinator = coordinator
    self.tableNumbers = tableNumbers
    random = SplitMix64(seed: seed)
    epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
    timerFD = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
    readBuffer = .allocate(byteCount: 1 << 16, alignment: 16)
    openInterval = UInt64(Double(configuration.players) / configuration.rate * 1e9)
    sourceAddresses = Self.sourceAddresses(connections: configuration.connections)
    var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: Self.timerTag))
    epoll_ctl(epollFD, EPOLL_CTL_ADD, timerFD, &event)
    var system = SystemRandomNumberGenerator()
    for number in tableNumbers {
      var members = [Int]()
      let perTable =
        configuration.seats + (configuration.crowdThreads > 0 ? 0 : configuration.spectators)
      var seats = Array(0..<perTable)
      if let crowd {
        seats = (0..<configuration.spectators).filter { $0 % crowd.count == crowd.index }.map {
          configuration.seats + $0
        }
        tablesWithoutCode.append(tables.count)
      }
      for member in seats {
        let role: Role = member == 0 ? .host : member < configuration.seats ? .player : .spectator
        let connection = Connection(
          index: connections.count, table: tables.count, role: role,
          globalPlayer: number * configuration.seats + min(member, configuration.seats - 1),
          handshake: ClientHandshake(using: &system))
        members.append(connection.index)
        connections.append(connection)
      }
      tables.append((nil, members))
      deliveries.append(SpectatorDelivery())
    }
    markStallingSeats()
  }

  deinit {
    readBuffer.deallocate()
    close(epollFD)
    close(timerFD)
  }

  // MARK: - Running

  /// Runs the loop through setup, load, drain and close, and returns what it counted.
  func run() -> LoopStatistics {
    let setupDeadline = monotonicNanoseconds() + UInt64(configuration.setupTimeout * 1e9)
    var readyReported = false
    var closeDeadline = UInt64.max
    var endDeadline = UInt64.max
    // A hard stop no matter what the coordinator does: every phase's bound added up.
    let afterWindow =
      configuration.mode == .idle ? configuration.livenessTimeout : configuration.drainTimeout
    let hardStop =
      setupDeadline
      + UInt64((configuration.warmup + configuration.duration + afterWindow + 15) * 1e9)
    var events = [epoll_event](repeating: epoll_event(), count: 1024)

    while true {
      var now = monotonicNanoseconds()
      if now >= hardStop { break }
      while !closing && inFlight < configuration.connectConcurrency
        && nextToConnect < connections.count
      {
        startConnecting(connections[nextToConnect])
        nextToConnect += 1
      }
      if !readyReported && (settledCount == connections.count || now >= setupDeadline) {
        readyReported = true
        coordinator.loopReady()
      }
      if !tablesWithoutCode.isEmpty { learnCodes() }
      if timeline == nil, let shared = coordinator.timeline {
        timeline = shared
        scheduleStart(shared)
      }
      if let timeline, !stallBegan.isEmpty {
        beginDueStalls(now: now, timeline: timeline)
        watchStalledSockets(now: now)
      }
      if let timeline, configuration.storm != nil { bringStormIfDue(now: now, timeline: timeline) }
      if let timeline, !windowEnded, now >= timeline.windowEnd {
        windowEnded = true
        statistics.heldAtWindowEnd = connections.count(where: { $0.state == .open })
        let grace =
          configuration.mode == .idle ? configuration.livenessTimeout : configuration.drainTimeout
        endDeadline = timeline.windowEnd + UInt64(grace * 1e9)
      }
      if windowEnded && !closing && (now >= endDeadline || isDrained) {
        beginClosing()
        closeDeadline = now + 1_000_000_000
      }
      if closing && (now >= closeDeadline || closedCount == connections.count) {
        break
      }

      armTimer()
      // Wake at least every 10 ms to notice the coordinator's timeline and phase deadlines.
      let n = events.withUnsafeMutableBufferPointer { buffer in
        epoll_wait(epollFD, buffer.baseAddress, Int32(buffer.count), 10)
      }
      now = monotonicNanoseconds()
      if n > 0 {
        for i in 0..<Int(n) {
          let event = events[i]
          if event.data.u64 == Self.timerTag {
            var expirations: UInt64 = 0
            _ = read(timerFD, &expirations, 8)
            armedAt = .max
            continue
          }
          handle(event: event.events, connection: connections[Int(event.data.u64)], now: now)
        }
      }
      fireTimers(now: monotonicNanoseconds())
      flush()
    }

    for connection in connections where connection.state != .closed {
      closeSocket(connection)
    }
    statistics.unanswered = connections.reduce(0) { $0 + $1.pending.count }
    return statistics
  }

  /// A crowd's loop: the invite codes its tables' hosts have published; their spectators ask
  /// to watch.
  private func learnCodes() {
    // Spectators on other nodes ask once those nodes list the table (they learn it within
    // half a second): an unknown code would count against their address.
    let known = coordinator.codes(
      of: tablesWithoutCode.map { tableNumbers[$0] },
      knownFor: configuration.spectatorPorts.isEmpty ? 0 : 1_000_000_000,
      now: monotonicNanoseconds())
    guard !known.isEmpty else { return }
    tablesWithoutCode.removeAll { table in
      guard let code = known[tableNumbers[table]] else { return false }
      tables[table].code = code
      for member in tables[table].members { join(connections[member]) }
      return true
    }
  }

  /// The measured move scheduled at `sent` made `version` of local table `table`: the delays
  /// of the spectators' arrivals that came first.
  func deliveryMade(table: Int, version: Int, sent: UInt64) -> [UInt64] {
    guard configuration.crowdThreads > 0 else {
      return deliveries[table].made(version: version, sent: sent)
    }
    return coordinator.made(table: tableNumbers[table], version: version, sent: sent)
  }

  /// A spectator at local table `table` read `version` at `now`: its delay, once known.
  func deliveryArrived(table: Int, version: Int, at now: UInt64) -> UInt64? {
    guard configuration.crowdThreads > 0 else {
      return deliveries[table].arrived(version: version, at: now)
    }
    return coordinator.arrived(table: tableNumbers[table], version: version, at: now)
  }

  /// Whether no move is waiting for an answer (idle: and every liveness move went out).
  private var isDrained: Bool {
    pendingCount == 0 && (configuration.mode != .idle || timers.earliest == nil)
  }

  /// Sets up every ready player's first timer once the shared timeline is known.
  private func scheduleStart(_ timeline: Timeline) {
    // A seat that will stall only reads: its table's load is the same before and after.
    for connection in connections
    where connection.ready && connection.isPlayer && !connection.stalls {
      switch configuration.mode {
      case .open:
        // Spread the players evenly over one interval so the aggregate rate is smooth.
        let offset = UInt64(Double(connection.globalPlayer) / configuration.rate * 1e9)
        setTimer(connection, timeline.start + offset % max(1, openInterval))
      case .closed:
        setTimer(connection, timeline.start)
      case .play:
        setTimer(connection, timeline.start + reactionDelay())
      case .idle:
        setTimer(connection, timeline.windowEnd)
      }
    }
  }

  /// A bot's random reaction time: uniform in 0.5–1.5 × the mean.
  func reactionDelay() -> UInt64 {
    UInt64(configuration.reaction * Double.random(in: 0.5..<1.5, using: &random) * 1e9)
  }

  /// Schedules `connection`'s next action at `deadline` (replacing any earlier one).
  func setTimer(_ connection: Connection, _ deadline: UInt64) {
    connection.timerAt = deadline
    timers.push(deadline, connection.index)
  }

  /// Arms the timerfd for the earliest timer, when that changed.
  private func armTimer() {
    let earliest = timers.earliest ?? .max
    guard earliest != armedAt else { return }
    armedAt = earliest
    var spec = itimerspec()
    if earliest != .max {
      // A zero it_value disarms a timerfd: a deadline at 0 would never fire, so use 1 ns.
      let at = max(earliest, 1)
      spec.it_value = timespec(tv_sec: Int(at / 1_000_000_000), tv_nsec: Int(at % 1_000_000_000))
    }
    timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil)
  }

  /// Runs every timer that is due.
  private func fireTimers(now: UInt64) {
    while let deadline = timers.earliest, deadline <= now, let (due, index) = timers.pop() {
      let connection = connections[index]
      guard connection.timerAt == due else { continue }
      connection.timerAt = .max
      guard connection.state == .open, !connection.stalled, !closing, let timeline else {
        continue
      }
      switch configuration.mode {
      case .open:
        guard due < timeline.windowEnd else { continue }
        sendMove(connection, scheduled: due, timeline: timeline)
        setTimer(connection, due + openInterval)
      case .closed:
        sendMove(connection, scheduled: now, timeline: timeline)
      case .idle:
        statistics.livenessSent += 1
        sendMove(connection, scheduled: now, timeline: timeline, forceMeasured: true)
      case .play:
        decide(connection, now: now, timeline: timeline)
      }
    }
  }
}
