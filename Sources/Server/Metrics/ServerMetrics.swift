import CoreMetrics
import Lobby
import Metrics
import Prometheus
import Protocol
import Synchronization

/// The names of the metrics the server exports (README.md, "Metrics", describes each).
///
/// Prometheus conventions: snake_case, a `matchismo_` prefix, counters end in `_total`, times
/// are in seconds.
enum MetricName {
  static let connectionsOpen = "matchismo_connections_open"
  static let connectionsOpened = "matchismo_connections_opened_total"
  static let framesOut = "matchismo_frames_out_total"
  static let bytesOut = "matchismo_bytes_out_total"
  static let closes = "matchismo_closes_total"
  static let rateLimitCloses = "matchismo_rate_limit_closes_total"
  static let tooSlowCloses = "matchismo_too_slow_closes_total"
  static let notReadingCuts = "matchismo_not_reading_cuts_total"
  static let outboundWaitingConnections = "matchismo_outbound_waiting_connections"
  static let outboundLargestWaitingBytes = "matchismo_outbound_largest_waiting_bytes"
  static let addressLimitRefusals = "matchismo_address_limit_refusals_total"
  static let outboundWaitSeconds = "matchismo_outbound_wait_seconds"
  static let queuedInboundBytes = "matchismo_inbound_queued_bytes"
  static let pausedConnections = "matchismo_inbound_paused_connections"
  static let sessions = "matchismo_sessions"
  static let tables = "matchismo_tables"
  static let movesAccepted = "matchismo_moves_accepted_total"
  static let movesRejected = "matchismo_moves_rejected_total"
  static let moveBroadcastLatency = "matchismo_move_broadcast_latency_seconds"
  static let recordQuestionsRefused = "matchismo_record_questions_refused_total"
  static let finishedGamesRemoved = "matchismo_finished_games_removed_total"
  static let journalBatches = "matchismo_journal_batches_total"
  static let journalEntries = "matchismo_journal_entries_total"
  static let journalFailedWrites = "matchismo_journal_failed_writes_total"
  static let journalStalls = "matchismo_journal_stalls_total"
  static let journalDown = "matchismo_journal_down"
  static let journalCheckpoints = "matchismo_journal_checkpoints_total"
  static let journalLogBytes = "matchismo_journal_log_bytes"
  static let journalCheckpointSeconds = "matchismo_journal_checkpoint_seconds"
  static let journalCommitSeconds = "matchismo_journal_commit_seconds"
  static let databaseServerSwitches = "matchismo_database_server_switches_total"
  static let redirects = "matchismo_redirects_total"
  static let journalFencedWrites = "matchismo_journal_fenced_writes_total"
  static let journalUrgentTurns = "matchismo_journal_urgent_turns_total"
  static let takeovers = "matchismo_takeovers_total"
  static let tablesGivenUp = "matchismo_tables_given_up_total"
  static let takeoverDelay = "matchismo_takeover_seconds"
  static let clusterChangesReceived = "matchismo_cluster_changes_received_total"
  static let clusterChangeDelay = "matchismo_cluster_change_delay_seconds"
  static let clusterMissesReceived = "matchismo_cluster_misses_received_total"
  static let connectionsPaced = "matchismo_connections_paced_total"
  static let crowdShareWaits = "matchismo_crowd_share_waits_total"
}

/// Every metric of the server, made through swift-metrics into one Prometheus registry, and
/// the registry's text rendering for `GET /metrics`.
///
/// The handles are made once here, never per event: making one takes the registry's lock and
/// a dictionary lookup, while using one is an atomic add (counters, gauges) or a short lock
/// (histograms). So the threads that count (the transport's service thread, the lobby
/// executor) never wait for anything slower than another thread's single update.
final class ServerMetrics: Sendable {
  /// Where every metric is registered.
  let registry: PrometheusCollectorRegistry
  /// The swift-metrics backend writing into ``registry``.
  let factory: PrometheusMetricsFactory
  /// What the transport counts, on its service thread.
  let transport: TransportMetrics

  /// Bounds of the move→broadcast latency histogram (from the service thread's read of a move to
  /// its frames let go by the journal): the lobby and the journal turn a move around in
  /// microseconds when idle, so the finest buckets are well below a millisecond; the coarsest
  /// catch a stalled executor or journal.
  static let latencyBuckets: [Duration] = [
    .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
    .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
    .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
  ]

  /// Metrics in `registry` (a fresh one by default, so tests do not share counts).
  init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
    self.registry = registry
    var factory = PrometheusMetricsFactory(registry: registry)
    factory.durationHistogramBuckets[MetricName.moveBroadcastLatency] = Self.latencyBuckets
    factory.durationHistogramBuckets[MetricName.journalCheckpointSeconds] = Self.latencyBuckets
    factory.durationHistogramBuckets[MetricName.journalCommitSeconds] = Self.latencyBuckets
    factory.durationHistogramBuckets[MetricName.clusterChangeDelay] = Self.latencyBuckets
    factory.durationHistogramBuckets[MetricName.takeoverDelay] = [
      .milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(4), .seconds(5),
      .seconds(10), .seconds(30), .seconds(60),
    ]
    // Drain checks come every 0.25 s: a wait is a whole number of them.
    factory.durationHistogramBuckets[MetricName.outboundWaitSeconds] = [
      .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(5),
      .seconds(10), .seconds(30),
    ]
    self.factory = factory
    transport = TransportMetrics(factory: factory) { buffer in
      registry.emit(into: &buffer)
    }
  }

  /// The lobby executor's metrics. Make one per executor: it remembers what it exported.
  func makeLobbyMetrics() -> LobbyMetrics {
    LobbyMetrics(factory: factory)
  }

  /// Counts questions about finished games refused because too many waited (``RecordQueue``).
  func makeRecordQuestionsRefused() -> CoreMetrics.Counter {
    CoreMetrics.Counter(label: MetricName.recordQuestionsRefused, factory: factory)
  }

  /// Counts finished games deleted for their age (``FinishedGameRetention``).
  func makeFinishedGamesRemoved() -> CoreMetrics.Counter {
    CoreMetrics.Counter(label: MetricName.finishedGamesRemoved, factory: factory)
  }

  /// What the journal's writer counts.
  func makeJournalMetrics() -> JournalMetrics {
    JournalMetrics(factory: factory)
  }

  /// What a node hears from the rest of its cluster.
  func makeClusterMetrics() -> ClusterMetrics {
    ClusterMetrics(factory: factory)
  }

  /// Every metric in the Prometheus text format (version 0.0.4).
  func render() -> String {
    var buffer: [UInt8] = []
    registry.emit(into: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }
}

/// What the journal's writer counts, on its own threads (``JournalWriter``).
final class JournalMetrics: Sendable {
  /// Commits (batches written).
  let batches: CoreMetrics.Counter
  /// Entries written.
  let entries: CoreMetrics.Counter
  /// Writes that failed (each retry counts).
  let failedWrites: CoreMetrics.Counter
  /// Journal writes refused because another node took over some of their tables.
  let fencedWrites: CoreMetrics.Counter
  /// Writes that took longer than the stall limit.
  let stalls: CoreMetrics.Counter
  /// 1 while the journal is down (moves refused), else 0.
  let down: CoreMetrics.Gauge
  /// Checkpoints of the store's log (SQLite's write-ahead log).
  let checkpoints: CoreMetrics.Counter
  /// The store's log after the latest commit, in bytes (SQLite's write-ahead log).
  let logBytes: CoreMetrics.Gauge
  /// How long each checkpoint took: the moves that came meanwhile waited that long.
  let checkpointTime: CoreMetrics.Timer
  /// How long each commit that succeeded took, from the store's start to its end: the moves in
  /// it, and those that came meanwhile, waited that long.
  let commitTime: CoreMetrics.Timer
  /// Times the journal's connection went to another server of its list: the database failed
  /// over (PostgreSQL with a standby).
  let serverSwitches: CoreMetrics.Counter
  /// Times the writer took the short slice because the service thread was pressed: a large
  /// crowd's fan-out, a storm of new connections (``JournalWriter/followLoopPressure()``).
  let urgentTurns: CoreMetrics.Counter

  init(factory: PrometheusMetricsFactory) {
    batches = CoreMetrics.Counter(label: MetricName.journalBatches, factory: factory)
    entries = CoreMetrics.Counter(label: MetricName.journalEntries, factory: factory)
    failedWrites = CoreMetrics.Counter(label: MetricName.journalFailedWrites, factory: factory)
    fencedWrites = CoreMetrics.Counter(label: MetricName.journalFencedWrites, factory: factory)
    stalls = CoreMetrics.Counter(label: MetricName.journalStalls, factory: factory)
    down = CoreMetrics.Gauge(label: MetricName.journalDown, factory: factory)
    checkpoints = CoreMetrics.Counter(label: MetricName.journalCheckpoints, factory: factory)
    logBytes = CoreMetrics.Gauge(label: MetricName.journalLogBytes, factory: factory)
    checkpointTime = CoreMetrics.Timer(
      label: MetricName.journalCheckpointSeconds, factory: factory)
    commitTime = CoreMetrics.Timer(label: MetricName.journalCommitSeconds, factory: factory)
    serverSwitches = CoreMetrics.Counter(
      label: MetricName.databaseServerSwitches, factory: factory)
    urgentTurns = CoreMetrics.Counter(label: MetricName.journalUrgentTurns, factory: factory)
    down.record(0)
  }
}

/// The transport's metrics. The counting methods are called on the service thread; the level
/// gauges are set by ``ServerRun`` from the transport's atomics.
final class TransportMetrics: Sendable {
  /// The HTTP path the transport serves the rendering at.
  static let path = "/metrics"
  /// The `Content-Type` of the rendering (the Prometheus text format).
  static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  /// Appends the rendering of every metric to a buffer. Safe on the service thread: it holds
  /// the registry's lock only to copy its list, then reads each metric's atomics or lock.
  let render: @Sendable (inout [UInt8]) -> Void

  private let factory: any MetricsFactory
  private let connectionsOpen: CoreMetrics.Gauge
  private let connectionsOpened: CoreMetrics.Counter
  private let connectionsPaced: CoreMetrics.Counter
  private let crowdShareWaits: CoreMetrics.Counter
  private let framesOut: CoreMetrics.Counter
  private let bytesOut: CoreMetrics.Counter
  private let rateLimitCloses: CoreMetrics.Counter
  private let tooSlowCloses: CoreMetrics.Counter
  private let notReadingCuts: CoreMetrics.Counter
  private let outboundWaitingConnections: CoreMetrics.Gauge
  private let outboundLargestWaitingBytes: CoreMetrics.Gauge
  private let addressLimitRefusals: CoreMetrics.Counter
  private let outboundWait: CoreMetrics.Timer
  private let queuedInboundBytes: CoreMetrics.Gauge
  private let pausedConnections: CoreMetrics.Gauge
  private let moveLatency: CoreMetrics.Timer
  /// Close counters by code, made on first use: lobby closes may use any code in 1000...4999.
  /// Only the service thread takes the lock, so it is never contended.
  private let closes = Mutex<[UInt16: CoreMetrics.Counter]>([:])

  /// Metrics made by `factory`; `render` produces the page for ``path``.
  init(factory: any MetricsFactory, render: @escaping @Sendable (inout [UInt8]) -> Void) {
    self.factory = factory
    self.render = render
    connectionsOpen = CoreMetrics.Gauge(label: MetricName.connectionsOpen, factory: factory)
    connectionsOpened = CoreMetrics.Counter(label: MetricName.connectionsOpened, factory: factory)
    connectionsPaced = CoreMetrics.Counter(label: MetricName.connectionsPaced, factory: factory)
    crowdShareWaits = CoreMetrics.Counter(label: MetricName.crowdShareWaits, factory: factory)
    framesOut = CoreMetrics.Counter(label: MetricName.framesOut, factory: factory)
    bytesOut = CoreMetrics.Counter(label: MetricName.bytesOut, factory: factory)
    rateLimitCloses = CoreMetrics.Counter(label: MetricName.rateLimitCloses, factory: factory)
    tooSlowCloses = CoreMetrics.Counter(label: MetricName.tooSlowCloses, factory: factory)
    notReadingCuts = CoreMetrics.Counter(label: MetricName.notReadingCuts, factory: factory)
    outboundWaitingConnections = CoreMetrics.Gauge(
      label: MetricName.outboundWaitingConnections, factory: factory)
    outboundLargestWaitingBytes = CoreMetrics.Gauge(
      label: MetricName.outboundLargestWaitingBytes, factory: factory)
    addressLimitRefusals = CoreMetrics.Counter(
      label: MetricName.addressLimitRefusals, factory: factory)
    outboundWait = CoreMetrics.Timer(label: MetricName.outboundWaitSeconds, factory: factory)
    queuedInboundBytes = CoreMetrics.Gauge(label: MetricName.queuedInboundBytes, factory: factory)
    pausedConnections = CoreMetrics.Gauge(label: MetricName.pausedConnections, factory: factory)
    moveLatency = CoreMetrics.Timer(label: MetricName.moveBroadcastLatency, factory: factory)
    // Present from the start, so a scrape shows 0 rather than nothing.
    connectionsOpen.record(0)
    queuedInboundBytes.record(0)
    pausedConnections.record(0)
    outboundWaitingConnections.record(0)
    outboundLargestWaitingBytes.record(0)
  }

  /// A WebSocket connection was established; `open` are open now.
  func connectionOpened(open: Int) {
    connectionsOpened.increment()
    connectionsOpen.record(open)
  }

  /// `count` new connections waited for a later pass to be let in (``AcceptPacing``).
  func connectionsWaited(_ count: Int) { connectionsPaced.increment(by: count) }

  /// The crowds had spent their share of the service thread (``CrowdShare``): a pass gave
  /// them no turns, and they waited for the share to come back.
  func crowdShareWaited() { crowdShareWaits.increment() }

  /// An established connection is gone; `open` are open now.
  func connectionClosed(open: Int) {
    connectionsOpen.record(open)
  }

  /// One message frame of `bytes` payload bytes was handed to lws.
  func frameWritten(bytes: Int) {
    framesOut.increment()
    bytesOut.increment(by: bytes)
  }

  /// `frames` frames were written in one go, `bytes` of payload in all.
  func framesWritten(_ frames: Int, bytes: Int) {
    framesOut.increment(by: frames)
    bytesOut.increment(by: bytes)
  }

  /// The server decided to close a connection with `code`.
  func closing(code: UInt16) {
    let counter = closes.withLock { closes in
      if let counter = closes[code] { return counter }
      let counter = CoreMetrics.Counter(
        label: MetricName.closes, dimensions: [("code", String(code))], factory: factory)
      closes[code] = counter
      return counter
    }
    counter.increment()
  }

  /// The frames of a move received at `receivedAt` are queued for their sockets at `now`
  /// (`MonotonicClock` both), let go by the journal: the move→broadcast latency, the journal's
  /// wait included.
  func moveShown(receivedAt: Double, at now: Double = MonotonicClock.now()) {
    moveLatency.recordNanoseconds(Int64(max(0, now - receivedAt) * 1e9))
  }

  /// A connection sent faster than its rate limit (closed with 1008).
  func rateLimited() { rateLimitCloses.increment() }

  /// A connection's outbound queue overflowed (closed with 4000).
  func tooSlow() { tooSlowCloses.increment() }

  /// A connection was blocked for the drain timeout without progress: it was cut (counted as a
  /// 4000 close too).
  func cutForNotReading() { notReadingCuts.increment() }

  /// A connection came free after it had been found blocked at a drain check, `seconds` after
  /// the first such check.
  func outputDrained(afterWaiting seconds: Double) {
    outboundWait.recordNanoseconds(Int64(seconds * 1e9))
  }

  /// A connection was refused at the per-address limit (closed with 4002).
  func refusedAtAddressLimit() { addressLimitRefusals.increment() }

  /// At the last drain check: the connections found blocked, and the most bytes waiting for one
  /// of them (its queue and what its kernel has not sent).
  func sampleOutbound(waitingConnections: Int, largestWaitingBytes: Int) {
    outboundWaitingConnections.record(waitingConnections)
    outboundLargestWaitingBytes.record(largestWaitingBytes)
  }

  /// The transport's inbound back-pressure levels, as sampled now.
  func sampleInbound(queuedBytes: Int, pausedConnections paused: Int) {
    queuedInboundBytes.record(queuedBytes)
    pausedConnections.record(paused)
  }
}
