import CoreMetrics

/// What a node hears from the other nodes of its cluster: how many table changes, and how long
/// each notice took from the node that sent it (on the two nodes' clocks: one machine's, or
/// machines kept in time).
struct ClusterMetrics: Sendable {
  private let changesReceived: CoreMetrics.Counter
  private let delay: CoreMetrics.Timer

  init(factory: any MetricsFactory) {
    changesReceived = CoreMetrics.Counter(
      label: MetricName.clusterChangesReceived, factory: factory)
    delay = CoreMetrics.Timer(label: MetricName.clusterChangeDelay, factory: factory)
  }

  /// A notice of `changes` table changes arrived `seconds` after it was sent.
  func received(_ changes: Int, after seconds: Double) {
    changesReceived.increment(by: changes)
    delay.recordNanoseconds(Int64((seconds * 1e9).rounded()))
  }
}
