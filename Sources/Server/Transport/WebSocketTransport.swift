import CWebSockets
import Foundation
import Logging
import Protocol
import Synchronization

/// WebSocket and static-file server on one port, built on libwebsockets 4.1 with libev.
///
/// It moves complete text messages in and out of WebSocket connections and knows nothing of
/// the game. One service thread owns every lws object; the methods here may be called from any
/// thread and only queue a command and wake that thread (`lws_cancel_service`).
///
/// Limits enforced per connection (close code in brackets): message size [1009], binary
/// messages [1003], invalid UTF-8 [1007, by lws], message rate [1008 "rate limit"], outbound
/// queue [4000 "too slow"], keepalive (ping, then hang up without pong). Shutdown sends 1001.
///
/// Inbound back-pressure: the consumer calls `acknowledge(bytes:)` for every message it has
/// handled. While more than `inboundHighWaterBytes` are unacknowledged, connections that
/// deliver a message stop being read; they are read again once acknowledgements bring the
/// count below `inboundLowWaterBytes`. So the events buffered for the consumer stay bounded by
/// about the high-water mark plus one message per connection.
final class WebSocketTransport: Sendable {
  /// The configuration given at creation.
  let configuration: TransportConfiguration
  /// Inbound events; one consumer. The stream finishes after `shutdown()` completes.
  let events: AsyncStream<TransportEvent>

  private let logger: Logger
  private let metrics: TransportMetrics?
  private let continuation: AsyncStream<TransportEvent>.Continuation
  let inbox = TransportInbox()
  private let backPressure: InboundBackPressure

  private let handler: ServiceThreadHandlerBox?

  /// A transport that does nothing until `start()`. With a `handler`, events go to it on the
  /// service thread (and `events` only finishes); otherwise they go to `events`. With
  /// `metrics`, it counts what it does there and serves their rendering at `GET /metrics`
  /// (`TransportMetrics.path`).
  init(
    configuration: TransportConfiguration, logger: Logger,
    handler: (any ServiceThreadHandler)? = nil, metrics: TransportMetrics? = nil
  ) {
    self.configuration = configuration
    self.logger = logger
    self.handler = handler.map(ServiceThreadHandlerBox.init)
    self.metrics = metrics
    backPressure = InboundBackPressure(
      highWater: configuration.inboundHighWaterBytes, lowWater: configuration.inboundLowWaterBytes)
    (events, continuation) = AsyncStream.makeStream(
      of: TransportEvent.self, bufferingPolicy: .unbounded)
  }

  /// The port actually listened on (useful with `port: 0`); `0` before `start()` succeeded.
  var listeningPort: Int { inbox.listeningPort }

  /// Binds the port, creates the lws context and starts the service thread.
  ///
  /// Blocks the caller until the context exists (milliseconds).
  /// - Throws: `TransportError`, for example `.addressInUse` when the port is taken.
  func start() throws(TransportError) {
    if let problem = configuration.validationProblem() {
      throw .invalidConfiguration(problem)
    }
    // Frames are written in place, with the WebSocket header in their headroom.
    guard shim_lws_pre() <= Frame.headroom else {
      throw .insufficientFrameHeadroom(needed: shim_lws_pre(), available: Frame.headroom)
    }
    let webRoot = try configuration.webRoot.map { path throws(TransportError) in
      try Self.resolvedDirectory(path)
    }
    for path in [configuration.tlsCertificatePath, configuration.tlsPrivateKeyPath] {
      if let path, access(path, R_OK) != 0 { throw .tlsFileUnreadable(path) }
    }
    guard inbox.beginStart() else { throw .alreadyStarted }

    let softLimit = FileDescriptorLimit.adjust(forConnections: configuration.maxConnections)
    let wantedLimit =
      rlim_t(clamping: configuration.maxConnections) + rlim_t(FileDescriptorLimit.headroom)
    if softLimit < wantedLimit {
      logger.warning(
        "open file limit is below maxConnections; connections are capped by it",
        metadata: ["limit": "\(softLimit)", "maxConnections": "\(configuration.maxConnections)"])
    }
    LWSLogBridge.install(logger)

    let startup = StartupSignal()
    let thread = Thread(named: "lws-service") {
      [configuration, logger, inbox, continuation, backPressure, handler, metrics] in
      let loop = ServiceLoop(
        configuration: configuration, logger: logger, inbox: inbox, continuation: continuation,
        backPressure: backPressure, handler: handler?.handler, metrics: metrics)
      let port: Int
      do throws(TransportError) {
        port = try loop.createContext(webRoot: webRoot)
      } catch {
        startup.report(.failure(error))
        return
      }
      startup.report(.success(port))
      loop.run()
      loop.destroy()
    }
    thread.start()

    switch startup.wait() {
    case .success(let port):
      logger.info(
        "transport listening",
        metadata: [
          "host": "\(configuration.host)", "port": "\(port)",
          "scheme": "\(configuration.usesTLS ? "https/wss" : "http/ws")",
          "webRoot": "\(webRoot ?? "-")",
        ])
    case .failure(let error):
      inbox.abortStart()
      throw error
    }
  }

  /// Queues `frame` for one connection. Any thread; an unknown or closing id drops it.
  func send(_ frame: Frame, to id: ConnectionID) {
    inbox.post(.send(frame, to: [id]))
  }

  /// Queues `frame` for several connections: one lock and at most one wake for all of them.
  func send(_ frame: Frame, to ids: [ConnectionID]) {
    guard !ids.isEmpty else { return }
    inbox.post(.send(frame, to: ids))
  }

  /// Queues a whole batch of commands, in order, under one lock and with at most one
  /// `lws_cancel_service`. Any thread.
  func perform(_ commands: [TransportCommand]) {
    inbox.post(contentsOf: commands)
  }

  /// The journal's entries up to `ticket` are written: the frames held behind them may go.
  /// Any thread (the journal writer's). A busy service thread lets them go after the event it
  /// handles now; a waiting one is woken by the `release` command.
  func released(_ ticket: UInt64) {
    inbox.noteWritten(ticket)
    inbox.post(.release(ticket))
  }

  /// Tells the transport that the consumer has handled messages totalling `bytes` (the sum of
  /// their sizes). Any thread. Reading paused by back-pressure resumes once the
  /// unacknowledged bytes fall below `inboundLowWaterBytes`.
  func acknowledge(bytes: Int) {
    guard bytes > 0 else { return }
    if backPressure.acknowledge(bytes) { inbox.requestResumeReading() }
  }

  /// Inbound message bytes handed to the consumer and not yet acknowledged (for metrics).
  var queuedInboundBytes: Int { backPressure.queuedBytes.load(ordering: .relaxed) }

  /// Connections whose reading is paused by back-pressure right now (for metrics).
  var pausedConnections: Int { backPressure.pausedConnections.load(ordering: .relaxed) }

  /// Closes a connection after the frames already queued for it are sent. Any thread.
  ///
  /// Codes that may not appear in a close frame (1004-1006, 1015, outside 1000-4999) are sent
  /// as 1000. The reason is cut to 123 bytes.
  func close(_ id: ConnectionID, code: UInt16, reason: String) {
    inbox.post(.close(id, code: code, reason: reason))
  }

  /// Stops the transport: refuses new WebSocket upgrades, sends 1001 "server shutting down"
  /// to every client (after what is queued for it), keeps serving until all are closed or
  /// `graceSeconds` pass, then destroys the context (dropping whatever remains, which is still
  /// reported as `.closed`) and finishes `events`. Idempotent; every caller returns once the
  /// transport is stopped. Without a prior `start()` it just finishes `events`.
  func shutdown(graceSeconds: Double = 5) async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      inbox.requestShutdown(grace: graceSeconds, waiter: waiter)
    }
    // The service thread finished the stream already; this covers a transport never started.
    continuation.finish()
  }

  private static func resolvedDirectory(_ path: String) throws(TransportError) -> String {
    guard let resolved = realpath(path, nil) else { throw .webRootNotFound(path) }
    defer { free(resolved) }
    var info = stat()
    guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
      access(resolved, R_OK | X_OK) == 0
    else { throw .webRootNotFound(path) }
    return String(cString: resolved)
  }
}
