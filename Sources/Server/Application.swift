import Foundation
import Lobby
import Logging
import Metrics
import Protocol
import Store

/// The running server: metrics, journal, lobby and transport, run until SIGTERM or SIGINT.
///
/// They are stopped gracefully in the reverse of their start (``ServerRun``): first the
/// transport (no new WebSockets, every client closed with 1001), then the lobby executors (which
/// handle what is still queued), then the journal (its writer writes what is still queued and
/// closes the store), then the metrics; then ``run()`` returns and the command exits 0.
struct Application {
  let configuration: ServerConfiguration

  /// Longest the transport's stop is waited for before the rest stops all the same: its own
  /// grace period for closing clients (5 s) and then some.
  static let shutdownLimit: Duration = .seconds(15)

  /// Starts listening and serves until SIGINT/SIGTERM.
  func run() async throws {
    LoggingSystem.bootstrap { [configuration] label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = configuration.logLevel
      return handler
    }
    let logger = Logger(label: "matchismo")
    let metrics = ServerMetrics()
    // Metrics that libraries make through swift-metrics land in the same registry.
    MetricsSystem.bootstrap(metrics.factory)

    var state = LobbyState(
      configuration: configuration.lobbyConfiguration, entropy: .system,
      shards: max(1, configuration.executors))
    // The journal: what it kept is opened again before anyone connects.
    let store: (any JournalStore)?
    if configuration.journal {
      let (opened, contents) = try openJournal(logger: logger)
      try state.restore(contents, now: MonotonicClock.now())
      store = opened
    } else {
      store = nil
    }
    state.openComputerTables(now: MonotonicClock.now())
    state.openScheduledArenas(now: MonotonicClock.now())
    // The writer reports written tickets to the transport, which then lets the held frames go.
    let release = ReleaseRelay()
    let journal = store.map { store in
      JournalWriter(
        store: store, logger: logger, interval: configuration.journalCommitInterval,
        stallLimit: configuration.journalStallLimit, metrics: metrics.makeJournalMetrics(),
        lost: { tables in
          // The lobby gives the tables up (their members closed at once) before the writer
          // goes on: nothing held behind the refused batch ever reaches them.
          let done = DispatchSemaphore(value: 0)
          release.hear(.lost(tables)) { done.signal() }
          _ = done.wait(timeout: .now() + 5)
        }
      ) { ticket in release.release(ticket) }
    }
    // Questions about finished games are answered from the store on a thread of their own.
    let records = store.map {
      RecordReader(
        store: $0, journal: journal, logger: logger,
        refused: metrics.makeRecordQuestionsRefused())
    }
    // Finished games older than the days kept are deleted on a thread of their own.
    var retention: FinishedGameRetention?
    if let store, let days = configuration.keepFinishedDays {
      retention = FinishedGameRetention(
        store: store, days: days, removed: metrics.makeFinishedGamesRemoved(), logger: logger)
    }
    // A node of a cluster publishes its tables and hears the others' through the database.
    var cluster: (link: PostgresClusterLink, relay: ClusterRelay)?
    if configuration.isClusterNode, let url = configuration.databaseURL {
      let heard = metrics.makeClusterMetrics()
      let link = PostgresClusterLink(
        location: try PostgresLocation(url: url), node: configuration.resolvedNodeID,
        url: configuration.advertisedURL, linkURL: configuration.linkURL, logger: logger,
        hear: { release.hear($0) },
        received: { heard.received($0, misses: $1, after: $2) })
      let shared = store as? PostgresJournalStore
      cluster = (
        link,
        ClusterRelay(
          link: link, lease: configuration.lease, scan: configuration.resolvedLeaseRenewal,
          journal: journal, logger: logger,
          tookOver: { takeover in
            shared?.hold(takeover.epochs)
            for taken in takeover.taken { heard.tookOver(after: taken.secondsSinceRenewal) }
          })
      )
      cluster?.relay.hear = { release.hear($0) }
      try link.join(state.takeAllPublications())
    }
    let outlets = LobbyOutlets(
      journal: journal, records: records, cluster: cluster?.relay, logger: logger)
    // With no executor the lobby decides on the transport's service thread (no hop per move);
    // otherwise the service thread hands each event to the executor of its table's shard.
    let handler: any ServiceThreadHandler
    let lobby: ShardedLobby?
    if configuration.executors == 0 {
      handler = InlineLobby(state: state, metrics: metrics.makeLobbyMetrics(), outlets: outlets)
      lobby = nil
    } else {
      lobby = ShardedLobby(
        state: state, now: MonotonicClock.now, metrics: metrics.makeLobbyMetrics(),
        journal: journal)
      handler = lobby!
    }
    let transport = WebSocketTransport(
      configuration: configuration.transportConfiguration(
        webRoot: Self.resolvedWebRoot(configuration.webRoot, logger: logger)),
      logger: logger, handler: handler, metrics: metrics.transport)
    release.transport = transport
    journal?.start()
    // An answer shows only what the store already has: it never waits behind held frames.
    records?.send = { [transport] frame, connection in
      transport.perform([.sendAtOnce(frame, to: [connection])])
    }
    records?.tell = { [release] news in release.hear(news) }
    records?.start()
    retention?.start()
    cluster?.relay.start()
    cluster?.link.startListening()
    let outbound = TransportOutbound(transport: transport, outlets: outlets)
    lobby?.attach(
      perform: { outbound.perform($0, movesReceivedAt: $1) },
      consumed: { [transport] in transport.acknowledge(bytes: $0) })
    // SIGTERM and SIGINT are trapped before the port opens: a client (or a test) that connects
    // may stop the server at once. (Trapped once the run had started on the concurrency pool,
    // as swift-service-lifecycle's group did, a signal that came first (seconds, on a busy
    // machine) killed the process: no close frames, nothing flushed, exit status 143.)
    let signals = await ShutdownSignals.trap([SIGTERM, SIGINT])
    // Started before the rest, so a port that cannot be bound stops the command at once.
    try transport.start()

    let scheme = configuration.tlsCertificatePath == nil ? "http" : "https"
    let shownHost = configuration.host == "0.0.0.0" ? "localhost" : configuration.host
    logger.notice(
      "Matchismo Live is listening on \(scheme)://\(shownHost):\(transport.listeningPort)/")

    await ServerRun(
      transport: transport, executor: lobby,
      journal: JournalShutdown(
        writer: journal, store: store, retention: retention, cluster: cluster?.link,
        logger: logger),
      metrics: metrics.transport, limit: Self.shutdownLimit, logger: logger
    ).run(until: signals)
    logger.notice("stopped")
  }

  /// Opens the journal's store (PostgreSQL with `--database`, else the embedded file), reads
  /// what it kept and starts its upkeep; logs which store it is and what it restored. Throws a
  /// `StoreError` naming the store and what is wrong, which stops the command.
  func openJournal(logger: Logger) throws -> (any JournalStore, JournalContents) {
    if let url = configuration.databaseURL {
      let location = try PostgresLocation(url: url)
      let store = try PostgresJournalStore(
        location: location, owner: configuration.resolvedNodeID, lease: configuration.lease,
        renewal: configuration.resolvedLeaseRenewal,
        durability: configuration.journalDurability, logger: logger)
      let contents = try store.load()
      try Self.checkGames(in: contents, of: "\(location)")
      store.startLeaseRenewal()
      logger.notice(
        "journal: PostgreSQL \(location) as \(store.owner) (--sync \(configuration.journalDurability.rawValue)): \(contents.tables.count) tables and \(contents.sessions.count) sessions restored"
      )
      return (store, contents)
    }
    let store = try SQLiteJournalStore(
      directory: configuration.dataDirectory, durability: configuration.journalDurability,
      walCheckpointBytes: configuration.walCheckpointMiB << 20)
    let contents = try store.load()
    try Self.checkGames(in: contents, of: store.path)
    try store.startCopyingAhead()
    logger.notice(
      "journal: SQLite \(store.path) (--sync \(configuration.journalDurability.rawValue)): \(contents.tables.count) tables and \(contents.sessions.count) sessions restored"
    )
    return (store, contents)
  }

  /// Stops the start when the journal at `place` holds a table of a game this server does not
  /// deal (``GameCatalog/check(_:)``), naming the journal, the table and the game.
  static func checkGames(in contents: JournalContents, of place: String) throws {
    do {
      try GameCatalog.check(contents)
    } catch {
      throw StoreError("the journal \(place) cannot be opened: \(error)")
    }
  }

  /// The web root as an absolute path, or nil (with a warning) when it has no index.html.
  static func resolvedWebRoot(_ path: String, logger: Logger) -> String? {
    let url = URL(fileURLWithPath: path).standardizedFileURL
    guard FileManager.default.fileExists(atPath: url.appendingPathComponent("index.html").path)
    else {
      logger.warning("no index.html in \(url.path): serving WebSocket only")
      return nil
    }
    return url.path
  }
}

/// Carries out the lobby's actions on the transport.
struct TransportOutbound: Sendable {
  let transport: WebSocketTransport
  var outlets = LobbyOutlets()

  /// Carries out `actions`; `movesReceivedAt` are when the moves they accepted were received
  /// (their latency ends when the frames before it leave).
  func perform(_ actions: [LobbyAction], movesReceivedAt: [Double] = []) {
    var commands: [TransportCommand] = []
    commands.append(actions: actions, to: outlets, movesReceivedAt: movesReceivedAt)
    // One lock and at most one wake of the service thread for the whole batch.
    transport.perform(commands)
  }
}
