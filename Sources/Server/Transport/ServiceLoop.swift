import CWebSockets
import Lobby
import Logging
import Protocol

/// The transport's service thread: owns the lws context (an `LWSEventLoop`) and every
/// connection, takes commands from other threads, and hands events to the consumer. Lives on
/// that thread and is never touched from another.
///
/// Lifecycle (all on the service thread): `createContext()`, `run()` until a shutdown stops
/// the loop, `destroy()`. lws reaches this object through the context's user pointer
/// (`LWSCallbacks.swift`). The decisions are pure values (`HeldCommands`, `UpgradeFilter`,
/// `HTTPResponder`, `CloseHandshake`, `BackPressureGate`, `KeepaliveTimer`); this class and its
/// extensions (`+Connections`, `+Closing`, `+Keepalive`, `+Handler`, ...) carry them out. The
/// state those extensions share is internal for their sake only: nothing but the service thread
/// touches it.
final class ServiceLoop {
  /// The close code of a connection refused at the per-address limit.
  static let addressLimitCloseCode: UInt16 = 4002
  let configuration: TransportConfiguration
  let logger: Logger
  let inbox: TransportInbox
  /// Commands waiting behind a `hold` whose ticket is not released yet.
  var held = HeldCommands()
  let continuation: AsyncStream<TransportEvent>.Continuation
  /// The inbound byte counters shared with the consumer.
  let backPressure: InboundBackPressure
  /// Connections whose reading is paused by back-pressure.
  var gate: BackPressureGate
  /// Takes the events on this thread when set (the `events` stream then stays empty).
  let handler: (any ServiceThreadHandler)?
  var handlerCommands: [TransportCommand] = []
  var handlerTimerArmedAt: Double?
  /// Decides which upgrade requests go on.
  var upgradeFilter: UpgradeFilter
  /// Answers plain HTTP requests: static files and `/metrics`.
  private(set) var http: HTTPResponseWriter
  let metrics: TransportMetrics?

  /// The context and its loop, from `createContext` to `destroy`.
  private(set) var eventLoop: LWSEventLoop?
  /// Every established connection; holds its state alive until `LWS_CALLBACK_CLOSED`. Found by
  /// the slot its id names (``ConnectionTable``): no hashing on a move's way, and a crowd
  /// arriving never waits for a rehash of all of it (the slots grow as an array of references).
  var connections = ConnectionTable()
  /// The commands taken from the inbox by the drain under way (its storage kept between them).
  var commandBuffer: [TransportCommand] = []
  /// Whether ``drainInbox()`` runs (it hands news to the handler, whose call may ask again).
  var drainingInbox = false
  /// The connections served first in a busy pass (``FirstServed``).
  let firstServed = FirstServed()
  /// Whether writes asked for connections served first are gathered in ``firstWrites``.
  var servingFirst = false
  /// Connections to write at once (see ``writeFirst()``).
  var firstWrites: [ConnectionState] = []
  /// The connections of the `send`s carried out since the last other command, while few: a
  /// table's players, when a `sendToCrowd` comes next (see ``servePlayersFirst()``).
  var lastSent: [ConnectionID] = []
  /// Whether the current pass is busy (``passBegins()``): it serves the players first.
  var passIsBusy = false
  /// How many socket events the next pass takes (``PassPacing``).
  var passPacing: PassPacing
  /// The thread's CPU time when the current pass began (its first callback, after the wait).
  var passBeganAt: Double?
  private(set) var shuttingDown = false
  private(set) var stopRequested = false
  /// When each connection's keepalive is looked at next, and what it then needs.
  var keepalive: KeepaliveTimer
  /// The connections whose keepalive slot came up, reused from tick to tick.
  var keepaliveDue: [ConnectionID] = []
  /// When a connection whose output does not drain is cut.
  let drainClock: DrainClock
  /// The connections sent something since they last drained, looked at by every drain check.
  var drainWatch: [ConnectionID] = []
  /// Where the drain check's walk over ``drainWatch`` stands.
  var drainSweep = DrainSweep()
  /// Connections per peer address.
  var addressLimit: AddressLimit
  /// Every crowd, by the storage of the member list it was last sent to (``Crowd``).
  var crowds: [UInt: Crowd] = [:]
  /// The crowds with members that have frames to be sent, served in turn.
  var servedCrowds: [Crowd] = []
  /// How much of the thread the crowds' fan-out may still take (``CrowdShare``).
  var crowdShare: CrowdShare
  /// Whether the thread runs with the short scheduler slice, while it is pressed
  /// (``followLoopPressure()``).
  var hasShortSlice = false
  /// Whether the last pass left a large crowd behind after every turn (``serveCrowds()``).
  var crowdBehind = false
  /// Whether the thread is pressed, held a while after the last pass that pressed.
  var pressureHold = PressureHold()
  /// The next crowd frame's sequence number; every queued frame is tagged with it.
  var crowdSequence: UInt64 = 1
  /// Where several queued frames are gathered for one write; made at the first.
  var batch: WriteBatch?
  /// New connections let into lws a few a pass (``AcceptPacing``).
  var pacing: AcceptPacing
  /// Links asked for (`TransportCommand.connect`) and not yet open or failed.
  var linksOpening: Set<ConnectionID> = []

  /// A loop that reports to `continuation` and takes commands from `inbox`.
  init(
    configuration: TransportConfiguration, logger: Logger, inbox: TransportInbox,
    continuation: AsyncStream<TransportEvent>.Continuation, backPressure: InboundBackPressure,
    handler: (any ServiceThreadHandler)? = nil, metrics: TransportMetrics? = nil
  ) {
    self.handler = handler
    self.configuration = configuration
    self.logger = logger
    self.metrics = metrics
    self.inbox = inbox
    self.continuation = continuation
    self.backPressure = backPressure
    gate = BackPressureGate(backPressure)
    upgradeFilter = UpgradeFilter(configuration: configuration)
    http = HTTPResponseWriter(staticFiles: nil, metrics: metrics)
    drainClock = DrainClock(bound: configuration.drainTimeoutSeconds)
    addressLimit = AddressLimit(limit: configuration.maxConnectionsPerAddress)
    pacing = AcceptPacing(limit: configuration.maxConnections)
    passPacing = PassPacing(
      eventsAtMost: configuration.eventsPerPass, budget: configuration.passBudget)
    crowdShare = CrowdShare(share: configuration.crowdShare)
    keepalive = KeepaliveTimer(
      pingIdleSeconds: Double(configuration.pingIdleSeconds),
      hangupIdleSeconds: Double(configuration.hangupIdleSeconds), now: MonotonicClock.now())
  }

  // MARK: - Lifecycle

  /// Creates the libev loop and the lws context (which binds the port), then opens the inbox
  /// for commands.
  /// - Parameter webRoot: absolute path of the directory to serve, or `nil`.
  /// - Returns: the port actually listened on.
  func createContext(webRoot: String?) throws(TransportError) -> Int {
    http = HTTPResponseWriter(
      staticFiles: webRoot.map(StaticFiles.init(root:)), metrics: metrics,
      metricsApart: configuration.metricsPort != nil)
    let eventLoop = try LWSEventLoop(configuration: configuration, owner: self)
    self.eventLoop = eventLoop
    if keepalive.isOn { scheduleKeepaliveTimer() }
    let port = eventLoop.listeningPort
    logger.debug(
      "libwebsockets context created",
      metadata: [
        "port": "\(port)", "libevBackend": "\(eventLoop.backend)",
        "tls": "\(configuration.usesTLS)",
      ])
    inbox.markRunning(context: eventLoop.context, listeningPort: port)
    return port
  }

  /// Services the loop until a shutdown stops it.
  func run() {
    guard let eventLoop else { return }
    boundPasses()
    // What the handler has due before anything happens (tables opened again from the journal,
    // or opened at start) gets its timer now rather than at the first event: a restarted
    // server that nobody reaches still releases held seats, and its computers still play.
    if let handler { finishHandlerCall(handler) }
    while !stopRequested { eventLoop.service() }
    // The word is the process's, and said only when it changes: a loop that stopped pressed
    // does not leave it said.
    if hasShortSlice { LoopPressure.pressing.store(false, ordering: .relaxed) }
  }

  /// Destroys the context (dropping any connection still open, which reports `.closed`),
  /// frees everything, finishes the event stream and releases `shutdown()` waiters.
  func destroy() {
    closeWaitingConnections()
    // No wake may reach the context from now on (the inbox lock guards both).
    eventLoop?.destroy { inbox.detachContextForDestroy() }
    eventLoop = nil
    continuation.finish()
    inbox.finish()
  }

  func stopLoop() {
    guard !stopRequested else { return }
    stopRequested = true
    eventLoop?.breakLoop()
  }

  /// `LWS_CALLBACK_PROTOCOL_INIT` of the game protocol.
  func protocolInitialised() {
    logger.debug("protocol initialised", metadata: ["protocol": "\(configuration.subprotocol)"])
  }

  func beginShutdown(grace: Double) {
    guard !shuttingDown else { return }
    shuttingDown = true
    logger.info(
      "transport shutting down", metadata: ["connections": "\(connections.count)"])
    for state in connections.values {
      requestClose(
        state, code: 1001, reason: configuration.shutdownCloseReason, flushFirst: true)
    }
    guard !connections.isEmpty, let eventLoop else {
      stopLoop()
      return
    }
    eventLoop.schedule(.shutdownDeadline, in: lws_usec_t(max(0, grace) * 1_000_000))
  }

  /// Called by the shutdown deadline timer.
  func deadlineReached() {
    if !connections.isEmpty {
      logger.warning(
        "shutdown grace period over; dropping connections that did not close",
        metadata: ["remaining": "\(connections.count)"])
    }
    stopLoop()
  }
}
