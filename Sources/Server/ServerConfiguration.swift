import Foundation
import Lobby
import Logging
import Store

/// Everything the server is told at start, in one place.
///
/// The `matchismo` command's options are exactly these fields, and their defaults are read from
/// ``defaults``: a default is written once, here, or for the lobby's and its tables' settings in
/// `LobbyConfiguration`, which these fields read; each option's name and help are written once
/// in ``ServerOption``. ``validationProblem()`` is the command's validation (naming options by
/// ``ServerOption/flag``), and ``transportConfiguration(webRoot:)`` and ``lobbyConfiguration``
/// hand each component the part it needs, so the command and the components cannot disagree.
/// `ServerOptionTests` fails when the command writes a default of its own, when an option
/// reaches no field, or when the load generator's defaults are not the server's.
struct ServerConfiguration: Sendable, Equatable {
  /// The values used for every option that is not given.
  static let defaults = ServerConfiguration()

  /// Longest time any option may name: a day. More makes no sense for a game and would
  /// overflow the clocks' arithmetic.
  static let longestSeconds: Double = 86_400

  /// Interface to listen on (`0.0.0.0` for every IPv4 interface).
  var host = "127.0.0.1"
  /// Port for HTTP and WebSocket; `0` picks a free one.
  var port = 8080
  /// Folder of the web client, served at `/`.
  var webRoot = "web-client"
  /// Least severe log level printed.
  var logLevel: Logger.Level = .info
  /// PEM certificate: with ``tlsPrivateKeyPath``, the port speaks https and wss only.
  var tlsCertificatePath: String?
  /// PEM private key for ``tlsCertificatePath``.
  var tlsPrivateKeyPath: String?
  /// Largest message a client may send, in bytes (announced in `welcome`; more is 1009).
  var maxMessageBytes = LobbyConfiguration.defaults.maxMessageBytes
  /// Seconds a dropped player's session and seat are kept for a resume.
  var reconnectGrace = LobbyConfiguration.defaults.reconnectGrace
  /// Seconds between a table's start and its deal.
  var countdown = LobbyConfiguration.defaults.countdown
  /// Seconds a table with nobody seated stays open.
  var emptyTableGrace = LobbyConfiguration.defaults.emptyTableGrace
  /// Most spectators at one table.
  var spectatorLimit = LobbyConfiguration.defaults.spectatorLimit
  /// What computer players' times to move are multiplied by.
  var botPace = LobbyConfiguration.defaults.botPace
  /// Tables of four expert computers opened at start, for a benchmark.
  var computerTables = LobbyConfiguration.defaults.computerTables
  /// The arenas held for everyone (`EVERY/LENGTH/GAME`, or `off`).
  var arenaSchedule = LobbyConfiguration.defaults.arenaSchedule?.text ?? "off"
  /// Folder of the embedded journal (`journal.sqlite`), made if missing.
  var dataDirectory = "data"
  /// The PostgreSQL database of the journal (`postgres://user:password@host:port/name`), used
  /// instead of the embedded file in ``dataDirectory``; nil: the embedded file.
  var databaseURL: String?
  /// Whether tables and sessions are journaled (and restored at start). Off: memory only.
  var journal = true
  /// How hard a journal write tries to survive: a crash of the process, or a power loss (and,
  /// on PostgreSQL with a synchronous standby, the primary's death); nil: the store's own
  /// (``journalDurability``).
  var durability: Durability?
  /// The durability the journal keeps: the one given, or the store's own. The embedded journal:
  /// `process`. PostgreSQL: `full` (`synchronous_commit = on`), because a move shown to players
  /// must be on the standby before its frames go, or a primary that dies could take it along;
  /// on one server it costs 1 µs of CPU a move and +0.2 ms at the p50 (docs/BENCHMARKS.md).
  var journalDurability: Durability {
    durability ?? (databaseURL == nil ? .process : .full)
  }
  /// Seconds from the start of one journal commit to the start of the next (``JournalWriter``);
  /// nil: the store's own (``journalCommitInterval``).
  var commitInterval: Double?
  /// The interval between commits when none is given on PostgreSQL, where each commit costs the
  /// database some 190 µs of CPU whatever it holds, and a move about 17 more: at 5,000 moves a
  /// second, 99–111 µs a move with no interval, 28–32 with 3 ms, 25 with 4 ms, for a p50 of
  /// 3.4 ms instead of 1.0 (docs/BENCHMARKS.md, "PostgreSQL's cost per move"). Since a write
  /// waits for its commit (`runCommitted`: a second statement a commit) with `--sync full`,
  /// 32–33 µs with 4 ms and 28 with 5 ms, for a p50 of 4.8 ms. A move waits only
  /// while commits follow each other closer than that: under load. The embedded journal's
  /// commit is cheap (none).
  static let postgresCommitInterval = 0.005
  /// The interval the journal writer keeps: the one given, or the store's own.
  var journalCommitInterval: Double {
    commitInterval ?? (databaseURL == nil ? 0 : Self.postgresCommitInterval)
  }
  /// Seconds a journal write may take before moves are refused until it ends (``JournalWriter``).
  var journalStallLimit: Double = 1
  /// MiB of the embedded journal's log at which it is checkpointed (``WALCheckpoints``).
  var walCheckpointMiB = SQLiteJournalStore.defaultWALCheckpointBytes >> 20
  /// Days a finished game (high scores, replays) is kept after it ended; nil: for ever.
  var keepFinishedDays: Int?
  /// Threads that run the lobby and its tables: 0 decides every message on the transport's
  /// service thread (no hop per move); K ≥ 1 spreads the tables over K executor threads by
  /// table number (`ShardedLobby`). The default follows how many cores the process may use
  /// (``UsableCores``, ``defaultExecutors(cores:)``).
  var executors = Self.defaultExecutors(cores: UsableCores.count)
  /// Messages per second one connection may send; the burst is twice as many.
  var rateLimit: Double = 20
  /// Bytes of the kernel's send buffer per WebSocket connection (`SO_SNDBUF`); 0: the kernel's
  /// own sizing (up to 4 MiB a socket). Measured in docs/BENCHMARKS.md, "Clients that do not
  /// read".
  var sendBufferBytes = 64 << 10
  /// Socket events one pass of the service loop takes at most (`CEventPass`); 0: no bound. A
  /// crowd of 10,000 dropped at once made one pass of 10,000 closes (300 ms) without it;
  /// measured in docs/BENCHMARKS.md, "Bounded passes, players first".
  var eventsPerPass = 64
  /// Microseconds one pass of the service loop aims to last at most: while events cost more
  /// (a crowd's closes, each a walk of lws over every connection), the next pass takes fewer
  /// of them (``PassPacing``); 0: passes are bounded by count only. Measured in
  /// docs/BENCHMARKS.md, "Passes paced by their time".
  var passBudget = 500
  /// Percent of the service loop's time the spectators' fan-out may take at most
  /// (``CrowdShare``); 0: no bound. Measured in docs/BENCHMARKS.md, "The crowd's share of the
  /// service thread".
  var crowdShare = 55
  /// Seconds a connection may stay blocked (its client does not read) without progress before
  /// it is cut (4000 "too slow"); 0: never.
  var drainTimeout: Double = 5
  /// Most WebSocket connections open at once (`TransportConfiguration.maxConnections`). The
  /// soft open-file limit follows it, and Debian's lws walks a table of that size on every
  /// close (``FileDescriptorLimit``): docs/BENCHMARKS.md, "What a connection limit costs each
  /// close".
  var maxConnections = 100_000
  /// Most WebSocket connections one address may hold at once; 0: no limit (the default: behind
  /// a proxy every player comes from the proxy's address).
  var maxConnectionsPerAddress = 0
  /// Proxies whose `X-Forwarded-For` names the client (``ClientAddress``).
  var trustedProxies: [String] = []
  /// The port of a listener of its own for `/metrics` (then the main port serves none), or nil:
  /// `/metrics` on the main port.
  var metricsPort: Int? = nil
  /// The interface of the metrics listener: loopback, the operator's.
  var metricsHost = "127.0.0.1"
  /// Browser origins allowed to open WebSockets besides the page's own (see
  /// `TransportConfiguration.allowedOrigins`).
  var allowedOrigins: [String] = []
  /// This server's id in a cluster, named in `welcome`; nil: ``resolvedNodeID``'s default.
  var nodeID: String?
  /// This node's own WebSocket URL, sent in redirects (a cluster); nil: the front door's path
  /// alone.
  var advertisedURL: String?
  /// Seconds a node's lease lasts without a renewal (renewed every quarter of it): a node that
  /// dies is taken over this long after its last renewal. The default is measured to bring a
  /// killed node's tables back within 5 s (docs/BENCHMARKS.md).
  var lease: Double = 2
  /// Seconds between two renewals of the lease, and between two looks for the tables of dead
  /// nodes; nil: a quarter of ``lease``.
  var leaseRenewal: Double?

  /// ``leaseRenewal``, or its default.
  var resolvedLeaseRenewal: Double { leaseRenewal ?? lease / 4 }

  /// Whether this server is a node of a cluster: its journal is a PostgreSQL database, which
  /// the nodes share.
  var isClusterNode: Bool { journal && databaseURL != nil }

  /// The defaults.
  init() {}

  /// Most days ``keepFinishedDays`` may name: a hundred years (more is for ever, the default).
  static let mostKeptDays = 36_500

  /// Most executor threads.
  static let maxExecutors = 64

  /// Longest node id: it travels in URLs and in every `welcome`.
  static let longestNodeID = 64

  /// The node id of a server that was given none: its host name and port, or its host name
  /// and process id when the port is picked at start (`--port 0`), so that two servers on one
  /// machine differ.
  static func defaultNodeID(hostName: String, port: Int, processID: Int32) -> String {
    let host = String(hostName.filter(isNodeIDCharacter).prefix(longestNodeID - 12))
    return "\(host.isEmpty ? "node" : host)\(port == 0 ? "-\(processID)" : ":\(port)")"
  }

  /// What a node id may hold: it travels in URLs, unescaped.
  static func isNodeIDCharacter(_ character: Character) -> Bool {
    character.isASCII && (character.isLetter || character.isNumber || "-_.:".contains(character))
  }

  /// ``nodeID``, or the default for this machine and port.
  var resolvedNodeID: String {
    nodeID
      ?? Self.defaultNodeID(
        hostName: ProcessInfo.processInfo.hostName, port: port,
        processID: ProcessInfo.processInfo.processIdentifier)
  }

  /// Executors for a machine with `cores` cores: none up to two cores, where the transport's
  /// thread and the kernel's network work fill both and a thread hop only costs (measured in
  /// docs/BENCHMARKS.md); otherwise one per core beside the transport's thread.
  static func defaultExecutors(cores: Int) -> Int {
    cores <= 2 ? 0 : min(maxExecutors, cores - 1)
  }

  /// Why the values cannot be used, naming the command-line option; `nil` when they can.
  func validationProblem() -> String? {
    if (tlsCertificatePath == nil) != (tlsPrivateKeyPath == nil) {
      return "\(ServerOption.tlsCert.flag) and \(ServerOption.tlsKey.flag) go together."
    }
    if !(0...65535).contains(port) { return "\(ServerOption.port.flag) must be 0...65535." }
    if !(256...(16 << 20)).contains(maxMessageBytes) {
      return "\(ServerOption.maxMessageBytes.flag) must be 256...16777216."
    }
    if let problem = Self.secondsProblem(
      reconnectGrace, ServerOption.reconnectGrace.flag, allowsZero: false)
      ?? Self.secondsProblem(countdown, ServerOption.countdown.flag, allowsZero: true)
      ?? Self.secondsProblem(emptyTableGrace, ServerOption.emptyTableGrace.flag, allowsZero: false)
    {
      return problem
    }
    if spectatorLimit < 1 { return "\(ServerOption.spectatorLimit.flag) must be at least 1." }
    if !(botPace.isFinite && botPace > 0 && botPace <= 100) {
      return "\(ServerOption.botPace.flag) must be more than 0 and at most 100."
    }
    if !(0...20_000).contains(computerTables) {
      return "\(ServerOption.computerTables.flag) must be 0...20000."
    }
    do {
      if let schedule = try ArenaSchedule.parse(arenaSchedule),
        !GameCatalog.games.contains(schedule.game)
      {
        return "\(ServerOption.arenaSchedule.flag): this server deals no game '\(schedule.game)'."
      }
    } catch {
      return "\(ServerOption.arenaSchedule.flag): \(error)."
    }
    if let commitInterval, !(0...1).contains(commitInterval) {
      return "\(ServerOption.commitInterval.flag) must be 0...1000 ms."
    }
    if !(1...1024).contains(walCheckpointMiB) {
      return "\(ServerOption.walCheckpoint.flag) must be 1...1024 MiB."
    }
    if !(0.01...60).contains(journalStallLimit) {
      return "\(ServerOption.journalStallLimit.flag) must be 10...60000 ms."
    }
    if durability == .replica && databaseURL == nil {
      return
        "\(ServerOption.sync.flag) replica is for a PostgreSQL journal with a standby: it needs \(ServerOption.database.flag)."
    }
    if let databaseURL {
      guard journal else {
        return
          "\(ServerOption.database.flag) and \(ServerOption.noJournal.flag) do not go together."
      }
      do {
        _ = try PostgresLocation(url: databaseURL)
      } catch {
        return "\(ServerOption.database.flag): \(error.message)."
      }
    } else if journal && dataDirectory.isEmpty {
      return "\(ServerOption.dataDirectory.flag) must name a folder."
    }
    if let keepFinishedDays {
      guard journal else {
        return
          "\(ServerOption.keepFinishedDays.flag) and \(ServerOption.noJournal.flag) do not go together."
      }
      guard (1...Self.mostKeptDays).contains(keepFinishedDays) else {
        return "\(ServerOption.keepFinishedDays.flag) must be 1...\(Self.mostKeptDays)."
      }
    }
    if let nodeID,
      nodeID.isEmpty || nodeID.count > Self.longestNodeID
        || !nodeID.allSatisfy(Self.isNodeIDCharacter)
    {
      return
        "\(ServerOption.nodeID.flag) must be 1...\(Self.longestNodeID) characters: letters, digits, '-', '_', '.', ':'."
    }
    if !(lease.isFinite && (0.5...300).contains(lease)) {
      return "\(ServerOption.lease.flag) must be 500...300000 ms."
    }
    if let leaseRenewal,
      !(leaseRenewal.isFinite && leaseRenewal >= 0.05 && leaseRenewal <= lease / 2)
    {
      return
        "\(ServerOption.leaseRenewal.flag) must be at least 50 ms and at most half of \(ServerOption.lease.flag)."
    }
    if let advertisedURL {
      guard databaseURL != nil else {
        return
          "\(ServerOption.advertiseURL.flag) is for the nodes of a cluster: it needs \(ServerOption.database.flag)."
      }
      guard let url = URL(string: advertisedURL), ["ws", "wss"].contains(url.scheme),
        url.host != nil, advertisedURL.count <= 512
      else {
        return
          "\(ServerOption.advertiseURL.flag) must be a ws:// or wss:// URL of at most 512 characters."
      }
    }
    if !(0...Self.maxExecutors).contains(executors) {
      return "\(ServerOption.executors.flag) must be 0...\(Self.maxExecutors)."
    }
    if !(0...(16 << 20)).contains(sendBufferBytes) || (1..<4096).contains(sendBufferBytes) {
      return
        "\(ServerOption.sendBuffer.flag) must be 0 (the kernel's sizing) or 4096...16777216 bytes."
    }
    if !(0...65536).contains(eventsPerPass) {
      return "\(ServerOption.eventsPerPass.flag) must be 0 (no bound) or 1...65536."
    }
    if !(0...1_000_000).contains(passBudget) {
      return "\(ServerOption.passBudget.flag) must be 0 (count only) or 1...1000000 microseconds."
    }
    if !(0...100).contains(crowdShare) {
      return "\(ServerOption.crowdShare.flag) must be 0 (no bound) or 1...100 percent."
    }
    if let problem = Self.secondsProblem(
      drainTimeout, ServerOption.drainTimeout.flag, allowsZero: true)
    {
      return problem
    }
    if drainTimeout > 0 && drainTimeout < 0.5 {
      return "\(ServerOption.drainTimeout.flag) must be 0 (never) or at least 0.5 seconds."
    }
    if let metricsPort, !(1...65535).contains(metricsPort) {
      return "\(ServerOption.metricsPort.flag) must be 1...65535."
    }
    if metricsPort != nil && metricsPort == port {
      return "\(ServerOption.metricsPort.flag) must differ from \(ServerOption.port.flag)."
    }
    if !(1...1_000_000).contains(maxConnections) {
      return "\(ServerOption.maxConnections.flag) must be 1...1000000."
    }
    if !(0...1_000_000).contains(maxConnectionsPerAddress) {
      return "\(ServerOption.maxConnectionsPerAddress.flag) must be 0...1000000 (0: no limit)."
    }
    // No upper bound: benchmarks lift the limit with a huge value (a closed loop).
    guard rateLimit.isFinite, rateLimit > 0 else {
      return "\(ServerOption.rateLimit.flag) must be a positive number of messages per second."
    }
    for proxy in trustedProxies where !ClientAddress.isAddress(proxy) {
      return "\(ServerOption.trustedProxy.flag): '\(proxy)' is not an IP address."
    }
    for origin in allowedOrigins {
      if let problem = OriginPolicy.problem(withAllowedOrigin: origin) {
        return "\(ServerOption.allowedOrigin.flag): \(problem)."
      }
    }
    return nil
  }

  /// Refuses a number of seconds that is not finite, negative, zero (unless `allowsZero`), or
  /// longer than ``longestSeconds``.
  private static func secondsProblem(_ seconds: Double, _ name: String, allowsZero: Bool)
    -> String?
  {
    let lowest = allowsZero ? "0" : "more than 0"
    guard seconds.isFinite, allowsZero ? seconds >= 0 : seconds > 0, seconds <= longestSeconds
    else {
      return "\(name) must be a number of seconds, \(lowest) and at most \(Int(longestSeconds))."
    }
    return nil
  }

  /// The transport's settings. `webRoot` is ``webRoot`` as checked and resolved by the caller
  /// (`nil` serves no files); everything this type does not name keeps the transport's default.
  func transportConfiguration(webRoot: String?) -> TransportConfiguration {
    var configuration = TransportConfiguration()
    configuration.host = host
    configuration.port = port
    configuration.webRoot = webRoot
    configuration.tlsCertificatePath = tlsCertificatePath
    configuration.tlsPrivateKeyPath = tlsPrivateKeyPath
    configuration.maxMessageBytes = maxMessageBytes
    configuration.rateRefillPerSecond = rateLimit
    configuration.rateBurst = Self.rateBurst(forRateLimit: rateLimit)
    configuration.allowedOrigins = allowedOrigins
    configuration.trustedProxies = Set(trustedProxies)
    configuration.sendBufferBytes = sendBufferBytes
    configuration.eventsPerPass = eventsPerPass
    configuration.passBudget = Double(passBudget) / 1_000_000
    configuration.crowdShare = Double(crowdShare) / 100
    configuration.drainTimeoutSeconds = drainTimeout
    configuration.maxConnections = maxConnections
    configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
    configuration.metricsPort = metricsPort
    configuration.metricsHost = metricsHost
    // With a journal a shutdown is a restart for the players: their games are kept.
    if journal { configuration.shutdownCloseReason = "server restarting; your game is kept" }
    return configuration
  }

  /// The lobby's settings; everything this type does not name keeps the lobby's default.
  var lobbyConfiguration: LobbyConfiguration {
    var configuration = LobbyConfiguration()
    configuration.maxMessageBytes = maxMessageBytes
    configuration.reconnectGrace = reconnectGrace
    configuration.countdown = countdown
    configuration.emptyTableGrace = emptyTableGrace
    configuration.spectatorLimit = spectatorLimit
    configuration.botPace = botPace
    configuration.computerTables = computerTables
    configuration.arenaSchedule = (try? ArenaSchedule.parse(arenaSchedule)) ?? nil
    configuration.journal = journal
    configuration.nodeID = resolvedNodeID
    configuration.cluster = isClusterNode
    // What only the nodes share: the database's URL (give every node the same one).
    if isClusterNode, let databaseURL {
      configuration.linkKey = TokenDigest.hex("matchismo link key\n" + databaseURL)
    }
    return configuration
  }

  /// The token bucket's size for a rate limit: bursts of twice the rate, and at least one
  /// message (a bucket smaller than one token would refuse everything).
  static func rateBurst(forRateLimit rateLimit: Double) -> Double {
    max(1, 2 * rateLimit)
  }
}
