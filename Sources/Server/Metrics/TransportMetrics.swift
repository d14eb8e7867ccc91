import CoreMetrics
import Metrics
import Synchronization

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
  /// Passes of the service loop whose events took over 1 ms and over 5 ms of its CPU.
  private let passesOver1ms: CoreMetrics.Counter
  private let passesOver5ms: CoreMetrics.Counter
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
    passesOver1ms = CoreMetrics.Counter(
      label: MetricName.longPasses, dimensions: [("over", "1ms")], factory: factory)
    passesOver5ms = CoreMetrics.Counter(
      label: MetricName.longPasses, dimensions: [("over", "5ms")], factory: factory)
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

  /// At the end of a drain check's sweep: the connections found blocked, and the most bytes waiting for one
  /// of them (its queue and what its kernel has not sent).
  func sampleOutbound(waitingConnections: Int, largestWaitingBytes: Int) {
    outboundWaitingConnections.record(waitingConnections)
    outboundLargestWaitingBytes.record(largestWaitingBytes)
  }

  /// A pass of the service loop took `seconds` of its thread's CPU for its socket events and
  /// timers (``PassPacing`` reads the clock): counted when over 1 ms (and over 5 ms), the time
  /// a player's move read after it waited behind it, whatever else the machine's cores did.
  func passTook(cpuSeconds seconds: Double) {
    guard seconds > 0.001 else { return }
    passesOver1ms.increment()
    if seconds > 0.005 { passesOver5ms.increment() }
  }

  /// The transport's inbound back-pressure levels, as sampled now.
  func sampleInbound(queuedBytes: Int, pausedConnections paused: Int) {
    queuedInboundBytes.record(queuedBytes)
    pausedConnections.record(paused)
  }
}
