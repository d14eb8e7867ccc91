import CoreMetrics

/// What a node hears from the other nodes of its cluster: how many table changes, and how long
/// each notice took from the node that sent it (on the two nodes' clocks: one machine's, or
/// machines kept in time).
struct ClusterMetrics: Sendable {
  private let changesReceived: CoreMetrics.Counter
  private let missesReceived: CoreMetrics.Counter
  private let delay: CoreMetrics.Timer
  private let takeovers: CoreMetrics.Counter
  private let takeoverDelay: CoreMetrics.Timer

  init(factory: any MetricsFactory) {
    takeovers = CoreMetrics.Counter(label: MetricName.takeovers, factory: factory)
    takeoverDelay = CoreMetrics.Timer(label: MetricName.takeoverDelay, factory: factory)
    changesReceived = CoreMetrics.Counter(
      label: MetricName.clusterChangesReceived, factory: factory)
    missesReceived = CoreMetrics.Counter(
      label: MetricName.clusterMissesReceived, factory: factory)
    delay = CoreMetrics.Timer(label: MetricName.clusterChangeDelay, factory: factory)
  }

  /// A table was taken over, `seconds` after its node last renewed its lease (nil: unknown, a
  /// table nobody held).
  func tookOver(after seconds: Double?) {
    takeovers.increment()
    if let seconds { takeoverDelay.recordNanoseconds(Int64((max(0, seconds) * 1e9).rounded())) }
  }

  /// A notice of `changes` table changes and `misses` unknown invite codes arrived `seconds`
  /// after it was sent, and was handed to the lobby.
  func received(_ changes: Int, misses: Int, after seconds: Double) {
    changesReceived.increment(by: changes)
    if misses > 0 { missesReceived.increment(by: misses) }
    delay.recordNanoseconds(Int64((seconds * 1e9).rounded()))
  }
}
