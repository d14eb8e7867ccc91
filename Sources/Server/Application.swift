import Foundation
import Lobby
import Logging
import Protocol

/// Everything the server needs to start, independent of how it was asked for.
struct ServerOptions: Sendable {
  var host = "127.0.0.1"
  var port = 8080
  var webRoot = "web-client"
  var logLevel: Logger.Level = .info
  var tlsCertificatePath: String?
  var tlsPrivateKeyPath: String?
  var maxMessageBytes = 8192
  var reconnectGrace: Double = 60
  var countdown: Double = 3
  var emptyTableGrace: Double = 10
  var spectatorLimit = 50
  /// Threads that run the lobby: 0 runs it on the transport's service thread.
  var executors = 0
  /// Messages per second per connection; the burst is twice as many.
  var rateLimit: Double = 20
  /// Origins allowed besides the page's own (see `TransportConfiguration.allowedOrigins`).
  var allowedOrigins: [String] = []
}

/// The running server: transport, lobby, and the loop that feeds one to the other.
struct Application {
  let options: ServerOptions

  /// Starts listening, serves until SIGINT/SIGTERM, then closes every client with 1001.
  func run() async throws {
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = options.logLevel
      return handler
    }
    let logger = Logger(label: "matchismo")

    var configuration = TransportConfiguration()
    configuration.host = options.host
    configuration.port = options.port
    configuration.webRoot = Self.resolvedWebRoot(options.webRoot, logger: logger)
    configuration.tlsCertificatePath = options.tlsCertificatePath
    configuration.tlsPrivateKeyPath = options.tlsPrivateKeyPath
    configuration.maxMessageBytes = options.maxMessageBytes
    configuration.rateRefillPerSecond = options.rateLimit
    configuration.rateBurst = max(1, 2 * options.rateLimit)
    configuration.allowedOrigins = options.allowedOrigins

    var lobbyConfiguration = LobbyConfiguration()
    lobbyConfiguration.maxMessageBytes = options.maxMessageBytes
    lobbyConfiguration.reconnectGrace = options.reconnectGrace
    lobbyConfiguration.countdown = options.countdown
    lobbyConfiguration.emptyTableGrace = options.emptyTableGrace
    lobbyConfiguration.spectatorLimit = options.spectatorLimit
    let state = LobbyState(configuration: lobbyConfiguration, entropy: .system)

    // The lobby runs on the transport's thread (no hop per move), or on a thread of its own.
    let executor =
      options.executors == 0 ? nil : LobbyExecutor(state: state, now: MonotonicClock.now)
    let transport = WebSocketTransport(
      configuration: configuration, logger: logger,
      handler: executor ?? InlineLobby(state: state))
    try transport.start()
    executor?.start(
      perform: { [transport] actions in
        var commands: [TransportCommand] = []
        commands.append(actions: actions)
        // One lock and at most one wake of the service thread for the whole batch.
        transport.perform(commands)
      },
      consumed: { [transport] in transport.acknowledge(bytes: $0) })

    let scheme = options.tlsCertificatePath == nil ? "http" : "https"
    let shownHost = options.host == "0.0.0.0" ? "localhost" : options.host
    logger.notice(
      "Matchismo Live is listening on \(scheme)://\(shownHost):\(transport.listeningPort)/")

    let (watcher, signals) = SignalWatcher.stream(signals: [SIGINT, SIGTERM])
    let shutdown = Task {
      for await signal in signals {
        logger.notice("received signal \(signal); closing every connection with 1001")
        await transport.shutdown()
        break
      }
    }
    // The events go to the lobby on the service thread; the stream only finishes at shutdown.
    for await _ in transport.events {}
    executor?.stop()
    shutdown.cancel()
    watcher.cancel()
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
