import CoreMetrics
import Lobby
import Protocol

/// The lobby's metrics, exported by the executor thread after each batch: counters from the
/// deltas of ``LobbyState/Statistics`` and gauges from the state's counts. Executor thread
/// only. (A move's latency ends when its frames are let go: the transport records it,
/// ``TransportMetrics/moveShown(receivedAt:)``.)
struct LobbyMetrics: Sendable {
  /// Seconds between two exports of the tables by game and phase (the lobby keeps the counts,
  /// ``TableTally``; setting every gauge takes the metrics' locks, more than a batch of moves
  /// needs); a batch that comes sooner marks the export due at ``nextTableExport``, when the
  /// executor wakes for it.
  static let tableExportInterval = 0.5

  private let factory: any MetricsFactory
  private let sessions: CoreMetrics.Gauge
  private let movesAccepted: CoreMetrics.Counter
  private let movesRejected: [ErrorCode: CoreMetrics.Counter]
  private let redirects: CoreMetrics.Counter
  private var exportedRedirects = 0
  private let givenUp: CoreMetrics.Counter
  private var exportedGivenUp = 0
  private var tables: [TableTally.Kind: CoreMetrics.Gauge] = [:]
  private var exportedAccepted = 0
  private var exportedRejected: [ErrorCode: Int] = [:]
  private var exportedRefusals = -1
  private var lastTableExport = -Double.infinity
  /// When the table gauges are next due (`nil`: they are up to date).
  private(set) var nextTableExport: Double?

  init(factory: any MetricsFactory) {
    self.factory = factory
    sessions = CoreMetrics.Gauge(label: MetricName.sessions, factory: factory)
    movesAccepted = CoreMetrics.Counter(label: MetricName.movesAccepted, factory: factory)
    redirects = CoreMetrics.Counter(label: MetricName.redirects, factory: factory)
    givenUp = CoreMetrics.Counter(label: MetricName.tablesGivenUp, factory: factory)
    // Every reason from the start, so a scrape shows each at 0 rather than nothing.
    movesRejected = Dictionary(
      uniqueKeysWithValues: ErrorCode.allCases.map { code in
        (
          code,
          CoreMetrics.Counter(
            label: MetricName.movesRejected, dimensions: [("reason", code.rawValue)],
            factory: factory)
        )
      })
    sessions.record(0)
  }

  /// Exports what a batch changed; `now` is the executor's clock, for the throttle.
  mutating func export(_ state: LobbyState, now: Double) {
    // Most batches only accept moves: one count, without adding up every shard's refusals
    // (that was 6 % of real play's instructions when every batch did it, callgrind).
    let refusals = state.refusalStamp
    if refusals != exportedRefusals {
      exportedRefusals = refusals
      exportStatistics(state.statistics)
    } else {
      exportAccepted(state.movesAccepted)
    }
    sessions.record(state.sessionCount)
    if state.redirectsSent != exportedRedirects {
      redirects.increment(by: state.redirectsSent - exportedRedirects)
      exportedRedirects = state.redirectsSent
    }
    if state.tablesGivenUp != exportedGivenUp {
      givenUp.increment(by: state.tablesGivenUp - exportedGivenUp)
      exportedGivenUp = state.tablesGivenUp
    }
    if now >= lastTableExport + Self.tableExportInterval {
      exportTables(state.tableTally)
      lastTableExport = now
      nextTableExport = nil
    } else {
      nextTableExport = lastTableExport + Self.tableExportInterval
    }
  }

  /// Adds what the counters missed since the last export.
  private mutating func exportStatistics(_ statistics: LobbyState.Statistics) {
    exportAccepted(statistics.movesAccepted)
    guard statistics.movesRejected != exportedRejected else { return }
    for (code, count) in statistics.movesRejected {
      let delta = count - exportedRejected[code, default: 0]
      if delta > 0 { movesRejected[code]?.increment(by: delta) }
    }
    exportedRejected = statistics.movesRejected
  }

  /// Adds the moves accepted since the last export.
  private mutating func exportAccepted(_ accepted: Int) {
    guard accepted != exportedAccepted else { return }
    movesAccepted.increment(by: accepted - exportedAccepted)
    exportedAccepted = accepted
  }

  /// Sets the tables gauge of every game and phase seen so far (0 where none is left) from
  /// the lobby's `tally`, kept as tables change (``TableTally``).
  private mutating func exportTables(_ tally: TableTally) {
    for count in tally.counts where tables[count.kind] == nil {
      tables[count.kind] = CoreMetrics.Gauge(
        label: MetricName.tables,
        dimensions: [("game", count.kind.game), ("phase", count.kind.phase.rawValue)],
        factory: factory)
    }
    for (kind, gauge) in tables {
      gauge.record(tally.tables(of: kind))
    }
  }
}
