import Foundation
import Lobby
import Logging
import Store

/// The server's parts once its port is open, run until SIGTERM or SIGINT (or until the
/// transport stops by itself), then stopped in order, each once the one before it is done:
/// 1. the transport: no new WebSockets, every client closed with 1001 "server shutting down";
///    its event stream ends once every connection is gone or its grace period is over;
/// 2. the lobby executors, which handle every event already queued (the closes of the last
///    connections included);
/// 3. the journal: its writer writes what is still queued, the node leaves its cluster and the
///    store is closed (a shared database's leases are then free at once);
/// 4. the metrics' sampling.
/// A transport that has not stopped within ``limit`` is not waited for any longer: the rest
/// stops all the same.
struct ServerRun {
  /// The started transport.
  let transport: WebSocketTransport
  /// The executors, not started yet; nil when the lobby runs on the transport's thread.
  let executor: ShardedLobby?
  /// What stops the journal.
  let journal: JournalShutdown
  /// The gauges sampled from the transport's atomics.
  let metrics: TransportMetrics
  /// Time between two samples.
  var sampleEvery: Duration = .seconds(1)
  /// Longest the transport's stop is waited for.
  let limit: Duration
  let logger: Logger

  /// Why the run stops.
  private enum Stop: Sendable, Equatable {
    case signal(Int32)
    case transportStopped
    case limitPassed
  }

  /// Runs until a signal in `signals` (or the transport's own stop), then stops everything.
  func run(until signals: ShutdownSignals) async {
    executor?.start()
    let sampling = Task { [transport, metrics, sampleEvery] in
      while !Task.isCancelled {
        metrics.sampleInbound(
          queuedBytes: transport.queuedInboundBytes,
          pausedConnections: transport.pausedConnections)
        try? await Task.sleep(for: sampleEvery)
      }
    }
    let (stops, stop) = AsyncStream.makeStream(of: Stop.self)
    // Every event goes to the service thread's handler; the stream only ends.
    let serving = Task { [transport] in
      for await _ in transport.events {}
      stop.yield(.transportStopped)
    }
    let listening = Task {
      if let signal = await signals.next() { stop.yield(.signal(signal)) }
    }
    var reasons = stops.makeAsyncIterator()
    let reason = await reasons.next()
    listening.cancel()
    if case .signal(let signal) = reason {
      logger.notice("\(ShutdownSignals.name(of: signal)) received: shutting down")
      logger.notice("shutting down: closing every connection with 1001")
      Task { [transport] in await transport.shutdown() }
      let deadline = Task { [limit] in
        try? await Task.sleep(for: limit)
        stop.yield(.limitPassed)
      }
      if await reasons.next() == .limitPassed {
        logger.warning("the transport did not stop within \(limit): stopping the rest")
      }
      deadline.cancel()
    }
    serving.cancel()
    await executor?.drain()
    journal.stop()
    sampling.cancel()
  }
}

/// The journal's end, once the lobby has drained: the retention of finished games stops, the
/// writer writes what is still queued and stops, the node leaves its cluster and the store is
/// closed (a shared database's leases are then free at once).
struct JournalShutdown {
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

  func stop() {
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
    transport?.released(ticket)
  }

  /// Hands news from the cluster to the lobby, through the transport's service thread; `done`
  /// is called once the lobby has handed over what it decided.
  func hear(_ news: ClusterNews, done: @escaping @Sendable () -> Void = {}) {
    transport?.perform([.news(news, done: done)])
  }
}
