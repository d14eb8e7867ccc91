import CoreMetrics
import Lobby
import Metrics
import Prometheus
import Protocol

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
  static let longPasses = "matchismo_loop_long_passes_total"
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
