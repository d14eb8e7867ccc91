import Lobby
import Logging
import ServiceLifecycle
import Store

/// The transport as a service: it runs until the transport stops (its service thread hands every
/// event to the lobby's handler: inline or the executors' queues).
///
/// It comes last in the service group, so it is the first to hear of a graceful shutdown:
/// the transport then refuses new WebSockets and closes every client with 1001 "server
/// shutting down"; once every connection is gone (or the transport's grace period is over) its
/// event stream ends, and so does ``run()``, and only then does the group shut the lobby down.
struct TransportService: Service {
  /// The started transport.
  let transport: WebSocketTransport
  /// For the shutdown notice.
  let logger: Logger

  func run() async {
    await withGracefulShutdownHandler {
      // Every event goes to the service thread's handler; the stream only ends.
      for await _ in transport.events {}
    } onGracefulShutdown: { [transport, logger] in
      logger.notice("shutting down: closing every connection with 1001")
      // The handler may not wait; the loop above ends when the shutdown is complete.
      Task { await transport.shutdown() }
    }
  }
}

/// The lobby executors as a service: their threads run from ``run()`` until a graceful shutdown,
/// which lets them finish every event already queued (the closes of the last connections
/// included) before ``run()`` returns.
struct LobbyService: Service {
  /// The executors, not started yet; nil when the lobby runs on the transport's thread.
  let executor: ShardedLobby?

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

/// The journal writer as a service: it writes from start to a graceful shutdown, then writes
/// what is still queued (the lobby has drained before it, since it comes earlier in the group),
/// stops, and closes the store (a shared database's leases are then free at once).
struct JournalService: Service {
  /// The writer, started already; nil without a journal.
  let writer: JournalWriter?
  /// The writer's store, closed once everything is written.
  var store: (any JournalStore)? = nil
  /// Deletes old finished games; stopped before the store is closed.
  var retention: FinishedGameRetention? = nil
  /// The node's link to its cluster: it leaves (its tables off every list) once everything
  /// queued is written, before the store frees its leases: until then no other node may take
  /// its tables, so its last writes are never refused.
  var cluster: PostgresClusterLink? = nil
  /// For a shutdown that could not write everything.
  let logger: Logger

  func run() async {
    try? await gracefulShutdown()
    retention?.stop()
    guard let writer else {
      cluster?.leave()
      return
    }
    if writer.stop() {
      logger.notice("journal written: \(writer.entries) entries in \(writer.batches) batches")
      cluster?.leave()
      // Only now: the writer's thread is done with the store.
      store?.close()
    } else {
      logger.error("journal: not everything queued was written before the shutdown limit")
    }
  }
}

/// Tells the transport which journal tickets are written (from the writer's thread), once the
/// transport exists.
final class ReleaseRelay: @unchecked Sendable {
  /// Set once, before the writer starts.
  var transport: WebSocketTransport?

  func release(_ ticket: UInt64) {
    transport?.perform([.release(ticket)])
  }

  /// Hands news from the cluster to the lobby, through the transport's service thread; `done`
  /// is called once the lobby has handed over what it decided.
  func hear(_ news: ClusterNews, done: @escaping @Sendable () -> Void = {}) {
    transport?.perform([.news(news, done: done)])
  }
}
