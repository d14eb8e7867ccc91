import Logging
import ServiceLifecycle

/// The transport as a service: it feeds the lobby executor every message and close until the
/// transport stops.
///
/// It comes last in the service group, so it is the first to hear of a graceful shutdown:
/// the transport then refuses new WebSockets and closes every client with 1001 "server
/// shutting down"; once every connection is gone (or the transport's grace period is over) its
/// event stream ends, and so does ``run()``, and only then does the group shut the lobby down.
struct TransportService: Service {
  /// The started transport.
  let transport: WebSocketTransport
  /// Where the transport's events go; nil when the lobby runs on the service thread, where the
  /// events stay (the stream then only ends).
  let lobby: LobbyExecutor?
  /// For the shutdown notice.
  let logger: Logger

  func run() async {
    await withGracefulShutdownHandler {
      for await event in transport.events {
        switch event {
        case .opened:
          break
        case .message(let id, let bytes, let receivedAt):
          lobby?.post(.message(id, bytes, receivedAt: receivedAt))
        case .closed(let id):
          lobby?.post(.closed(id))
        }
      }
    } onGracefulShutdown: { [transport, logger] in
      logger.notice("shutting down: closing every connection with 1001")
      // The handler may not wait; the loop above ends when the shutdown is complete.
      Task { await transport.shutdown() }
    }
  }
}

/// The lobby executor as a service: its thread runs from ``run()`` until a graceful shutdown,
/// which lets it finish every event already queued (the closes of the last connections
/// included) before ``run()`` returns.
struct LobbyService: Service {
  /// The executor, not started yet; nil when the lobby runs on the transport's thread.
  let executor: LobbyExecutor?

  func run() async {
    executor?.start()
    // Cancellation (a shutdown that took too long) ends the wait too: drain all the same.
    try? await gracefulShutdown()
    await executor?.drain()
  }
}

/// The metrics as a service: samples the transport's inbound back-pressure levels (atomics
/// the transport keeps for this) into their gauges every ``interval`` until a graceful
/// shutdown. First in the group, so it stops last, after the lobby has drained.
struct MetricsService: Service {
  /// The transport sampled.
  let transport: WebSocketTransport
  /// The gauges set.
  let metrics: TransportMetrics
  /// Time between two samples.
  var interval: Duration = .seconds(1)

  func run() async {
    while !Task.isShuttingDownGracefully && !Task.isCancelled {
      metrics.sampleInbound(
        queuedBytes: transport.queuedInboundBytes,
        pausedConnections: transport.pausedConnections)
      try? await cancelWhenGracefulShutdown { [interval] in
        try await Task.sleep(for: interval)
      }
    }
  }
}
