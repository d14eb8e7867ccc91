import CLoadSystem
import Glibc
import Model

/// One thread's share of the load: its tables' connections on one epoll set, a timerfd for
/// scheduled moves, and the scenario's behaviour. Everything here is touched by that thread only.
final class EventLoop {
  /// What to run.
  private let configuration: LoadConfiguration
  /// The timeline and results shared with the runner.
  private let coordinator: Coordinator
  /// Every connection of this loop, table by table (host first, then players, then spectators).
  private var connections: [Connection] = []
  /// Each table's invite code (once its host has it) and its members' connection indices.
  private var tables: [(code: String?, members: [Int])] = []
  /// What this loop counted.
  private var statistics = LoopStatistics()
  /// Masks, reaction times and set choices.
  private var random: SplitMix64
  /// Every connection's next scheduled action.
  private var timers = TimerHeap()
  /// Connections with bytes to write at the end of this iteration.
  private var dirty: [Int] = []
  /// The epoll set of every socket and the timerfd.
  private let epollFD: Int32
  /// A timerfd armed for the earliest timer: nanosecond wake-ups, where epoll_wait has ms.
  private let timerFD: Int32
  /// The deadline the timerfd is armed for.
  private var armedAt = UInt64.max
  /// One buffer for every read of this loop.
  private var readBuffer: UnsafeMutableRawBufferPointer
  /// The next connection to start.
  private var nextToConnect = 0
  /// Connections between `connect` and the end of their handshake.
  private var inFlight = 0
  /// Connections ready or failed.
  private var settledCount = 0
  /// Connections whose socket is closed.
  private var closedCount = 0
  /// Moves in flight on open sockets. Kept as a count because checking every connection on each
  /// iteration is quadratic with 20,000 connections.
  private var pendingCount = 0
  /// The shared timeline, once the runner has set it.
  private var timeline: Timeline?
  /// Whether the measured window is over (no new moves).
  private var windowEnded = false
  /// Whether the close handshakes have started.
  private var closing = false
  /// The epoll tag of the timerfd (connections use their index).
  private static let timerTag = UInt64.max
  /// Nanoseconds between one player's moves in the open loop.
  private let openInterval: UInt64
  /// Local addresses the connections are spread over (127.0.0.1, .2, ...), network order.
  private let sourceAddresses: [in_addr_t]
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
  init(
    configuration: LoadConfiguration, coordinator: Coordinator, tableNumbers: [Int], seed: UInt64
  ) {
    self.configuration = configuration
    self.coordinator = coordinator
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
      let perTable = configuration.seats + configuration.spectators
      for member in 0..<perTable {
        let role: Role = member == 0 ? .host : member < configuration.seats ? .player : .spectator
        let connection = Connection(
          index: connections.count, table: tables.count, role: role,
          globalPlayer: number * configuration.seats + min(member, configuration.seats - 1),
          handshake: ClientHandshake(using: &system))
        members.append(connection.index)
        connections.append(connection)
      }
      tables.append((nil, members))
    }
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
      if timeline == nil, let shared = coordinator.timeline {
        timeline = shared
        scheduleStart(shared)
      }
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

  /// Whether no move is waiting for an answer (idle: and every liveness move went out).
  private var isDrained: Bool {
    pendingCount == 0 && (configuration.mode != .idle || timers.earliest == nil)
  }

  /// Sets up every ready player's first timer once the shared timeline is known.
  private func scheduleStart(_ timeline: Timeline) {
    for connection in connections where connection.ready && connection.isPlayer {
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
  private func reactionDelay() -> UInt64 {
    UInt64(configuration.reaction * Double.random(in: 0.5..<1.5, using: &random) * 1e9)
  }

  /// Schedules `connection`'s next action at `deadline` (replacing any earlier one).
  private func setTimer(_ connection: Connection, _ deadline: UInt64) {
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
      guard connection.state == .open, !closing, let timeline else { continue }
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

  // MARK: - Moves

  /// Sends a `choose` of the board card at index `seat` (open, closed, idle): toggling one card
  /// selects and deselects it, so the board never changes.
  private func sendMove(
    _ connection: Connection, scheduled: UInt64, timeline: Timeline, forceMeasured: Bool = false
  ) {
    let board = connection.tracker.board
    guard let seat = connection.seat, !board.isEmpty else { return }
    send(
      choose: board[seat % board.count], from: connection, scheduled: scheduled, timeline: timeline,
      forceMeasured: forceMeasured)
  }

  /// Sends a `choose` of `card` as a move whose latency runs from `scheduled`.
  private func send(
    choose card: Int, from connection: Connection, scheduled: UInt64, timeline: Timeline,
    forceMeasured: Bool = false
  ) {
    let seq = connection.nextSeq
    connection.nextSeq += 1
    let inWindow = scheduled >= timeline.windowStart && scheduled < timeline.windowEnd
    connection.pending[seq] = Connection.Pending(
      sent: scheduled, measured: inWindow || forceMeasured)
    pendingCount += 1
    statistics.movesTotal += 1
    if inWindow { statistics.movesInWindow += 1 }
    sendText(#"{"type":"choose","id":\#(seq),"card":\#(card)}"#, on: connection)
  }

  /// A bot's turn: find a set on its board and choose its three cards (first letting go of any
  /// selected card that is not part of it).
  private func decide(_ connection: Connection, now: UInt64, timeline: Timeline) {
    guard connection.pending.isEmpty, now < timeline.windowEnd, let seat = connection.seat else {
      return
    }
    let tracker = connection.tracker
    let sets = tracker.sets
    guard !tracker.over, !tracker.awaitingSnapshot, let set = sets.randomElement(using: &random)
    else {
      // Nothing to claim (game over and waiting for the host's re-deal, or a resync): look again
      // after another reaction time.
      setTimer(connection, now + reactionDelay())
      return
    }
    let mine = tracker.selections[seat] ?? []
    for card in mine where !set.contains(card) {
      send(choose: card, from: connection, scheduled: now, timeline: timeline)
    }
    for card in set where !mine.contains(card) {
      send(choose: card, from: connection, scheduled: now, timeline: timeline)
    }
    if connection.pending.isEmpty { setTimer(connection, now + reactionDelay()) }
  }

  /// A move of `connection` was answered, by its diff or by an error with `code`.
  private func answered(_ connection: Connection, seq: Int, error code: String?, now: UInt64) {
    guard let pending = connection.pending.removeValue(forKey: seq) else { return }
    pendingCount -= 1
    if code == nil {
      statistics.answeredByDiff += 1
    } else {
      statistics.answeredByError += 1
    }
    if pending.measured {
      statistics.latency.record(max(1, (now &- pending.sent) / 1000))
    }
    guard let timeline, !closing else { return }
    switch configuration.mode {
    case .closed:
      if now < timeline.windowEnd { sendMove(connection, scheduled: now, timeline: timeline) }
    case .play:
      if code == "cardNotOnTable" { connection.lostRace = true }
      if connection.pending.isEmpty {
        // A lost race means the board moved under the bot: it picks again at once.
        setTimer(connection, connection.lostRace ? now : now + reactionDelay())
        connection.lostRace = false
      }
    case .idle:
      if code == nil { statistics.livenessAnswered += 1 }
    case .open:
      break
    }
  }

  // MARK: - Messages

  /// Handles one text message.
  private func receive(message bytes: [UInt8], on connection: Connection, now: UInt64) {
    statistics.framesTotal += 1
    guard let message = try? JSON.parse(bytes), let type = message["type"]?.string else {
      statistics.protocolErrors += 1
      return
    }
    switch type {
    case "diff":
      statistics.diffsTotal += 1
      if let timeline, now >= timeline.windowStart, now < timeline.windowEnd {
        statistics.diffsInWindow += 1
      }
      let wasOver = connection.tracker.over
      switch connection.tracker.applyDiff(message) {
      case .gap:
        statistics.resyncs += 1
        sendText(#"{"type":"resync","id":3}"#, on: connection)
      case .applied:
        if configuration.mode == .play { countClaims(message, connection) }
      case .duplicate, .waiting:
        break
      }
      if configuration.mode == .play, connection.role == .host, !wasOver, connection.tracker.over,
        !closing
      {
        statistics.gamesOver += 1
        statistics.redeals += 1
        let seq = connection.nextSeq
        connection.nextSeq += 1
        connection.pending[seq] = Connection.Pending(sent: now, measured: false)
        pendingCount += 1
        sendText(#"{"type":"redeal","id":\#(seq)}"#, on: connection)
      }
      checkReady(connection)
      if let seat = message["seat"]?.int, seat == connection.seat,
        let seq = message["replyTo"]?.int
      {
        answered(connection, seq: seq, error: nil, now: now)
      }
    case "status":
      statistics.statusFrames += 1
    case "snapshot":
      guard let table = message["table"] else { return }
      connection.tracker.applySnapshot(table: table)
      connection.seat = connection.role == .spectator ? nil : table["you"]?.int
      if connection.role == .host, tables[connection.table].code == nil,
        let code = table["code"]?.string
      {
        tables[connection.table].code = code
        for member in tables[connection.table].members { join(connections[member]) }
      }
      checkReady(connection)
    case "welcome":
      connection.welcomed = true
      if connection.role == .host {
        sendText(
          #"{"type":"createTable","id":2,"game":"set","seats":\#(configuration.seats),"private":true}"#,
          on: connection)
      } else {
        join(connection)
      }
    case "error":
      let code = message["code"]?.string ?? "unknown"
      statistics.errors[code, default: 0] += 1
      guard let seq = message["replyTo"]?.int else { return }
      if seq < 100 {
        // A setup message was refused: this connection will never be ready.
        settle(connection, ready: false)
      } else {
        answered(connection, seq: seq, error: code, now: now)
      }
    default:
      break
    }
  }

  /// Counts the sets this bot claimed in an applied diff.
  private func countClaims(_ diff: JSON, _ connection: Connection) {
    guard let seat = connection.seat else { return }
    for event in diff["events"]?.array ?? []
    where event["kind"]?.string == "match" && event["seat"]?.int == seat {
      statistics.setsClaimed += 1
    }
  }

  /// Sends `join` or `spectate` once the connection is welcomed and its table has a code.
  private func join(_ connection: Connection) {
    guard connection.role != .host, connection.welcomed, !connection.joinSent,
      let code = tables[connection.table].code
    else { return }
    connection.joinSent = true
    let type = connection.role == .spectator ? "spectate" : "join"
    sendText(#"{"type":"\#(type)","id":2,"code":"\#(code)"}"#, on: connection)
  }

  /// Marks the connection ready once its table plays and it can see the board.
  private func checkReady(_ connection: Connection) {
    guard !connection.settled else { return }
    let tracker = connection.tracker
    let playing = tracker.phase == nil || tracker.phase == "playing"
    guard playing, !tracker.board.isEmpty, connection.role == .spectator || connection.seat != nil
    else { return }
    settle(connection, ready: true)
  }

  /// Setup is over for `connection`: ready, or failed.
  private func settle(_ connection: Connection, ready: Bool) {
    guard !connection.settled else { return }
    connection.settled = true
    connection.ready = ready
    settledCount += 1
    if ready {
      statistics.ready += 1
    } else {
      statistics.setupFailures += 1
    }
  }

  // MARK: - Sockets

  /// 127.0.0.1, 127.0.0.2, ... (all of 127.0.0.0/8 is this machine's loopback): one per
  /// `connectionsPerSourceAddress` connections of the whole run, at most 250.
  static func sourceAddresses(connections: Int) -> [in_addr_t] {
    let count = min(
      250, max(1, (connections + connectionsPerSourceAddress - 1) / connectionsPerSourceAddress))
    return (1...count).map { in_addr_t((127 << 24) | UInt32($0)).bigEndian }
  }

  /// Binds `fd` to the local address for connection `index` (port chosen by `connect`).
  /// Failing that, `connect` picks the address as usual.
  private func bindSource(_ fd: Int32, index: Int) {
    guard sourceAddresses.count > 1 else { return }
    var one: Int32 = 1
    setsockopt(
      fd, Int32(IPPROTO_IP), load_ip_bind_address_no_port(), &one,
      socklen_t(MemoryLayout<Int32>.size))
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = sourceAddresses[index % sourceAddresses.count]
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if bound != 0 { statistics.errors["bind", default: 0] += 1 }
  }

  /// Opens a non-blocking socket to the server and starts connecting.
  private func startConnecting(_ connection: Connection) {
    let fd = socket(
      AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else {
      connection.state = .closed
      closedCount += 1
      settle(connection, ready: false)
      statistics.errors["socket", default: 0] += 1
      return
    }
    var one: Int32 = 1
    // Small frames must leave at once: Nagle would add tens of ms to every move.
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    bindSource(fd, index: connection.index)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(configuration.port).bigEndian)
    inet_pton(AF_INET, configuration.address, &address.sin_addr)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 || errno == EINPROGRESS else {
      statistics.errors["connect", default: 0] += 1
      close(fd)
      connection.state = .closed
      closedCount += 1
      settle(connection, ready: false)
      return
    }
    connection.fd = fd
    connection.state = .connecting
    inFlight += 1
    var event = epoll_event(
      events: EPOLLIN.rawValue | EPOLLOUT.rawValue,
      data: epoll_data_t(u64: UInt64(connection.index)))
    connection.watchingWrite = true
    epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event)
  }

  /// Handles what epoll reported for `connection`.
  private func handle(event: UInt32, connection: Connection, now: UInt64) {
    if connection.state == .connecting {
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(connection.fd, SOL_SOCKET, SO_ERROR, &error, &length)
      guard error == 0, event & (EPOLLERR.rawValue | EPOLLHUP.rawValue) == 0 else {
        lost(connection)
        return
      }
      guard event & EPOLLOUT.rawValue != 0 else { return }
      connection.state = .handshaking
      let request = connection.handshake.request(
        host: configuration.address, port: configuration.port,
        subprotocol: configuration.subprotocol)
      connection.out.append(contentsOf: request)
      markDirty(connection)
      return
    }
    if event & EPOLLOUT.rawValue != 0 { markDirty(connection) }
    if event & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
      readAll(connection, now: now)
    }
  }

  /// Reads until the socket would block.
  private func readAll(_ connection: Connection, now: UInt64) {
    while connection.state != .closed {
      let n = read(connection.fd, readBuffer.baseAddress, readBuffer.count)
      if n > 0 {
        received(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]), on: connection, now: now)
        if n < readBuffer.count { return }
      } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        return
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        lost(connection)
        return
      }
    }
  }

  /// Handles bytes from the socket: the handshake answer first, frames after it.
  private func received(_ bytes: UnsafeRawBufferPointer, on connection: Connection, now: UInt64) {
    if connection.state == .handshaking {
      connection.handshakeBytes.append(contentsOf: bytes)
      let used: Int?
      do {
        used = try connection.handshake.verify(response: connection.handshakeBytes)
      } catch {
        statistics.errors["handshake", default: 0] += 1
        lost(connection)
        return
      }
      guard let used else { return }
      connection.state = .open
      inFlight -= 1
      statistics.connected += 1
      connection.reader.append(Array(connection.handshakeBytes[used...]))
      connection.handshakeBytes = []
      sendText(#"{"type":"hello","id":1,"name":"bot\#(connection.globalPlayer)"}"#, on: connection)
    } else {
      connection.reader.append(bytes)
    }
    while connection.state == .open || connection.state == .closing {
      let frame: WebSocketFrame?
      do {
        frame = try connection.reader.next()
      } catch {
        statistics.protocolErrors += 1
        lost(connection)
        return
      }
      guard let frame else { return }
      switch frame.opcode {
      case .text, .continuation, .binary:
        if frame.fin && connection.fragments == nil {
          receive(message: frame.payload, on: connection, now: now)
        } else {
          connection.fragments = (connection.fragments ?? []) + frame.payload
          if frame.fin, let whole = connection.fragments {
            connection.fragments = nil
            receive(message: whole, on: connection, now: now)
          }
        }
      case .ping:
        sendFrame(WebSocketFrame(opcode: .pong, payload: frame.payload), on: connection)
      case .pong:
        break
      case .close:
        if !connection.closeSent {
          statistics.closes[frame.closeCode, default: 0] += 1
          sendFrame(
            WebSocketFrame(opcode: .close, payload: Array(frame.payload.prefix(2))), on: connection)
          connection.closeSent = true
        }
        flushOne(connection)
        closeSocket(connection)
        return
      }
    }
  }

  /// The connection broke without a close handshake (or never connected).
  private func lost(_ connection: Connection) {
    if connection.state != .closing {
      statistics.closes[1006, default: 0] += 1
    }
    closeSocket(connection)
  }

  /// Closes the socket; a connection that was not ready yet counts as a setup failure.
  private func closeSocket(_ connection: Connection) {
    guard connection.state != .closed else { return }
    if connection.state == .connecting || connection.state == .handshaking { inFlight -= 1 }
    if connection.fd >= 0 {
      epoll_ctl(epollFD, EPOLL_CTL_DEL, connection.fd, nil)
      close(connection.fd)
      connection.fd = -1
    }
    connection.state = .closed
    closedCount += 1
    // Its moves can no longer be answered; they stay in `pending` to be counted as unanswered.
    pendingCount -= connection.pending.count
    settle(connection, ready: false)
  }

  /// Starts the close handshake on every open connection.
  private func beginClosing() {
    closing = true
    for connection in connections {
      switch connection.state {
      case .open:
        // 1000: normal closure, as two big-endian bytes.
        sendFrame(WebSocketFrame(opcode: .close, payload: [0x03, 0xE8]), on: connection)
        connection.closeSent = true
        connection.state = .closing
      case .connecting, .handshaking, .notStarted:
        closeSocket(connection)
      case .closing, .closed:
        break
      }
    }
  }

  /// Queues a text frame.
  private func sendText(_ text: String, on connection: Connection) {
    sendFrame(WebSocketFrame(opcode: .text, payload: Array(text.utf8)), on: connection)
  }

  /// Queues a masked frame (a close also while closing).
  private func sendFrame(_ frame: WebSocketFrame, on connection: Connection) {
    guard connection.state == .open || (connection.state == .closing && frame.opcode == .close)
    else { return }
    let mask = random.next()
    frame.encode(
      into: &connection.out,
      mask: (
        UInt8(truncatingIfNeeded: mask), UInt8(truncatingIfNeeded: mask >> 8),
        UInt8(truncatingIfNeeded: mask >> 16), UInt8(truncatingIfNeeded: mask >> 24)
      ))
    markDirty(connection)
  }

  /// Puts the connection on the list to flush.
  private func markDirty(_ connection: Connection) {
    guard !connection.dirty else { return }
    connection.dirty = true
    dirty.append(connection.index)
  }

  /// Writes every dirty connection's bytes: one `send` per connection per loop iteration.
  private func flush() {
    let list = dirty
    dirty.removeAll(keepingCapacity: true)
    for index in list {
      let connection = connections[index]
      connection.dirty = false
      flushOne(connection)
    }
  }

  /// Writes what the socket takes now; watches for writability while bytes are left.
  private func flushOne(_ connection: Connection) {
    guard connection.fd >= 0 else { return }
    while connection.outOffset < connection.out.count {
      let n = connection.out.withUnsafeBytes { bytes in
        Glibc.send(
          connection.fd, bytes.baseAddress! + connection.outOffset,
          bytes.count - connection.outOffset, Int32(MSG_NOSIGNAL))
      }
      if n > 0 {
        connection.outOffset += n
      } else if n < 0 && errno == EINTR {
        continue
      } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        break
      } else {
        lost(connection)
        return
      }
    }
    let pendingBytes = connection.outOffset < connection.out.count
    if !pendingBytes {
      connection.out.removeAll(keepingCapacity: true)
      connection.outOffset = 0
    }
    if pendingBytes != connection.watchingWrite && connection.fd >= 0 {
      connection.watchingWrite = pendingBytes
      var event = epoll_event(
        events: EPOLLIN.rawValue | (pendingBytes ? EPOLLOUT.rawValue : 0),
        data: epoll_data_t(u64: UInt64(connection.index)))
      epoll_ctl(epollFD, EPOLL_CTL_MOD, connection.fd, &event)
    }
  }
}
