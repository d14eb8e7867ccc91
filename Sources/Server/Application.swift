import Foundation
import Lobby
import Logging
import Metrics
import Protocol
import ServiceLifecycle
import Store

/// The running server: metrics, lobby and transport, run as the services of one
/// `ServiceGroup` until SIGTERM or SIGINT.
///
/// The group shuts its services down gracefully in the reverse of their order: first the
/// transport (no new WebSockets, every client closed with 1001), then the lobby executors (which
/// handles what is still queued), then the metrics; then ``run()`` returns and the command
/// exits 0.
struct Application {
  let configuration: ServerConfiguration

  /// Longest a graceful shutdown may take before the group cancels what is left: the
  /// transport's own grace period for closing clients (5 s) and then some.
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
      let opened = try SQLiteJournalStore(
        directory: configuration.dataDirectory, durability: configuration.durability)
      let contents = try opened.load()
      opened.startCheckpoints()
      state.restore(contents, now: MonotonicClock.now())
      logger.notice(
        "journal \(opened.path): \(contents.tables.count) tables and \(contents.sessions.count) sessions restored"
      )
      store = opened
    } else {
      store = nil
    }
    // The writer reports written tickets to the transport, which then lets the held frames go.
    let release = ReleaseRelay()
    let journal = store.map { store in
      JournalWriter(store: store, logger: logger) { ticket in release.release(ticket) }
    }
    // With no executor the lobby decides on the transport's service thread (no hop per move);
    // otherwise the service thread hands each event to the executor of its table's shard.
    let handler: any ServiceThreadHandler
    let lobby: ShardedLobby?
    if configuration.executors == 0 {
      handler = InlineLobby(state: state, metrics: metrics.makeLobbyMetrics(), journal: journal)
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
    let outbound = TransportOutbound(transport: transport, journal: journal)
    lobby?.attach(
      perform: { outbound.perform($0) },
      consumed: { [transport] in transport.acknowledge(bytes: $0) })
    // Started before the group, so a port that cannot be bound stops the command at once.
    try transport.start()

    let scheme = configuration.tlsCertificatePath == nil ? "http" : "https"
    let shownHost = configuration.host == "0.0.0.0" ? "localhost" : configuration.host
    logger.notice(
      "Matchismo Live is listening on \(scheme)://\(shownHost):\(transport.listeningPort)/")

    // In dependency order: each service may use those before it, and is shut down before them.
    var group = ServiceGroupConfiguration(
      services: [
        .init(service: MetricsService(transport: transport, metrics: metrics.transport)),
        .init(service: JournalService(writer: journal, logger: logger)),
        .init(service: LobbyService(executor: lobby)),
        .init(service: TransportService(transport: transport, logger: logger)),
      ],
      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    group.maximumGracefulShutdownDuration = Self.shutdownLimit
    try await ServiceGroup(configuration: group).run()
    logger.notice("stopped")
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
  var journal: JournalWriter? = nil

  func perform(_ actions: [LobbyAction]) {
    var commands: [TransportCommand] = []
    commands.append(actions: actions, journal: journal)
    // One lock and at most one wake of the service thread for the whole batch.
    transport.perform(commands)
  }
}
