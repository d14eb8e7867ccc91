import CWebSockets
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
  private var held = HeldCommands()
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
  /// Every established connection; holds its state alive until `LWS_CALLBACK_CLOSED`.
  var connections: [ConnectionID: ConnectionState] = [:]
  private var commandBuffer: [TransportCommand] = []
  /// Whether ``drainInbox()`` runs (it hands news to the handler, whose call may ask again).
  private var drainingInbox = false
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

  private func beginShutdown(grace: Double) {
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

  // MARK: - Commands from other threads

  /// Before the loop waits: takes what was posted meanwhile (no one woke the thread for it),
  /// until nothing is left and the inbox counts it asleep.
  func aboutToWait() {
    paceNextPass()
    handler?.passEnded()
    while inbox.sleepUnlessPending() {
      drainInbox()
      // What the drain handed the handler (news from the cluster) ends its pass too.
      handler?.passEnded()
    }
    // The crowd's next few hundred sockets write in the coming pass (the loop does not sleep
    // while they are writable).
    serveCrowds()
    // And the next few new connections come in, and the drain check takes its next step.
    letWaitingConnectionsIn()
    continueDrainSweep()
    followLoopPressure()
    // What those steps decided is not kept from the journal's writer while the loop sleeps.
    handler?.loopWillWait()
  }

  func drainInbox() {
    // A drain that hands news to the handler may be asked for another (``releaseWritten()``):
    // that one waits, for the buffer is in use.
    guard !drainingInbox else { return }
    drainingInbox = true
    // Wakes collapse and may be spurious: always take everything there is.
    let drain = inbox.drain(into: &commandBuffer)
    writingFirst { execute(commandBuffer) }
    commandBuffer.removeAll(keepingCapacity: commandBuffer.capacity <= 1024)
    drainingInbox = false
    if drain.resumeReading { resumeReadingIfBelowLowWater() }
    if let grace = drain.shutdownGrace { beginShutdown(grace: grace) }
  }

  func execute(_ commands: [TransportCommand]) {
    for command in commands {
      if case .news(let news, let done) = command {
        // An event for the consumer, not something to send: nothing holds it.
        deliver(.news(news, done: done))
        continue
      }
      if case .connect(let id, let url) = command {
        connect(id, url: url)
        continue
      }
      held.take(command) { carryOut($0) }
    }
  }

  /// Lets go the frames held behind journal batches written since the last look (one atomic
  /// load when none was), after every event: under load a written batch's frames leave within
  /// an event, not at the end of the pass (a pass of a few hundred messages takes
  /// milliseconds), where the `release` command that the writer posts is taken.
  ///
  /// And takes what other threads posted meanwhile (the sharded lobby's executors' frames, one
  /// atomic load when nothing was): a busy thread is woken for nothing, so what an executor
  /// decided waited for the end of the pass, and a pass of 64 reconnecting spectators took
  /// several milliseconds.
  func releaseWritten() {
    if inbox.hasPosted { drainInbox() }
    let written = inbox.writtenTicket
    guard written > held.releasedTicket else { return }
    writingFirst { held.take(.release(written)) { carryOut($0) } }
  }

  private func carryOut(_ command: TransportCommand) {
    switch command {
    case .send(let frame, let ids), .sendAtOnce(let frame, let ids):
      for id in ids { enqueue(frame, for: id) }
      noteSend(to: ids)
    case .sendToCrowd(let frame, let ids):
      servePlayersFirst()
      send(frame, toCrowd: ids)
    case .close(let id, let code, let reason):
      lastSent.removeAll(keepingCapacity: true)
      guard let state = connections[id], state.close.isOpen else { return }
      requestClose(
        state, code: CloseHandshake.sendableCode(code), reason: reason, flushFirst: true)
    case .closeAtOnce(let id, let code, let reason):
      lastSent.removeAll(keepingCapacity: true)
      guard let state = connections[id], state.close.isOpen else { return }
      requestClose(
        state, code: CloseHandshake.sendableCode(code), reason: reason, flushFirst: false)
    case .moveShown(let receivedAt):
      metrics?.moveShown(receivedAt: receivedAt)
    case .hold, .release, .news, .connect:
      break
    }
  }
}
