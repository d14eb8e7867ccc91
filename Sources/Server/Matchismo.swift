import ArgumentParser
import Logging
import Store

/// The `matchismo` command: parses options into a ``ServerConfiguration`` and runs the server
/// until SIGINT or SIGTERM.
@main
struct Matchismo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "matchismo",
    abstract: "Matchismo Live: a real-time multiplayer card-game server with a browser client.")

  @Option(help: "Interface to listen on (0.0.0.0 for every interface).")
  var host = ServerConfiguration.defaults.host

  @Option(help: "Port for HTTP and WebSocket (0 picks a free one).")
  var port = ServerConfiguration.defaults.port

  @Option(help: "Folder of the web client, served at /.")
  var webRoot = ServerConfiguration.defaults.webRoot

  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
  var logLevel = ServerConfiguration.defaults.logLevel

  @Option(help: "PEM certificate: serve https and wss (needs --tls-key).")
  var tlsCert: String?

  @Option(help: "PEM private key for --tls-cert.")
  var tlsKey: String?

  @Option(help: "Largest message a client may send, in bytes.")
  var maxMessageBytes = ServerConfiguration.defaults.maxMessageBytes

  @Option(help: "Seconds a dropped player's session is kept for a resume.")
  var reconnectGrace = ServerConfiguration.defaults.reconnectGrace

  @Option(help: "Seconds of countdown between a table's start and its deal.")
  var countdown = ServerConfiguration.defaults.countdown

  @Option(help: "Seconds a table with nobody seated stays open.")
  var emptyTableGrace = ServerConfiguration.defaults.emptyTableGrace

  @Option(help: "Most spectators at one table.")
  var spectatorLimit = ServerConfiguration.defaults.spectatorLimit

  @Option(
    help:
      "Threads that run the lobby and its tables: 0 decides every message on the transport's thread (no hop per move); K spreads the tables over K threads by table number. Default: 0 up to 2 cores, else one per core but one."
  )
  var executors = ServerConfiguration.defaults.executors

  @Option(name: .customLong("data-dir"), help: "Folder of the embedded journal (made if missing).")
  var dataDirectory = ServerConfiguration.defaults.dataDirectory

  @Option(
    name: .customLong("database"),
    help: ArgumentHelp(
      "A PostgreSQL database for the journal instead of the embedded file (--data-dir is then unused). The servers sharing one are the nodes of a cluster: each holds its own tables, and every node lists them all and sends players to the table's node.",
      valueName: "postgres://user:password@host:port/name"))
  var databaseURL: String?

  @Flag(
    name: .customLong("no-journal"),
    help: "Keep everything in memory only: nothing is written, nothing restored at start.")
  var noJournal = false

  @Option(
    name: .customLong("sync"),
    help:
      "Journal durability: 'process' (a write leaves the server before anyone sees it: reaches the OS, or PostgreSQL with synchronous_commit off; survives a crash of the server) or 'full' (on the disk: an fsync per commit, or synchronous_commit on; survives a power loss)."
  )
  var durability = ServerConfiguration.defaults.durability

  @Option(
    name: .customLong("commit-interval"),
    help:
      "Milliseconds from the start of one journal commit to the start of the next (0: commit as soon as the last one ends). Longer shares a commit among more moves (less CPU), shorter answers sooner."
  )
  var commitInterval = ServerConfiguration.defaults.commitInterval * 1000

  @Option(
    name: .customLong("journal-stall-limit"),
    help:
      "Milliseconds a journal write may take before moves are refused with 'unavailable' until it ends (a disk or database that hangs rather than fails)."
  )
  var journalStallLimit = ServerConfiguration.defaults.journalStallLimit * 1000

  @Option(
    name: .customLong("keep-finished-days"),
    help: ArgumentHelp(
      "Days a finished game (high scores, replays) is kept after it ended; older ones are deleted 50 at a time, off the move path. Default: kept for ever.",
      valueName: "days"))
  var keepFinishedDays: Int?

  @Option(help: "Messages per second one connection may send (bursts of twice as many).")
  var rateLimit = ServerConfiguration.defaults.rateLimit

  @Option(
    name: .customLong("send-buffer"),
    help: ArgumentHelp(
      "Bytes of the kernel's send buffer per WebSocket connection (0: the kernel's own sizing, up to 4 MiB).",
      valueName: "bytes"))
  var sendBuffer = ServerConfiguration.defaults.sendBufferBytes

  @Option(
    name: .customLong("drain-timeout"),
    help: ArgumentHelp(
      "Seconds a connection may stay blocked (the client does not read: its receive window is shut) without progress before it is cut with 4000 (0: never).",
      valueName: "seconds"))
  var drainTimeout = ServerConfiguration.defaults.drainTimeout

  @Option(
    name: .customLong("max-connections-per-address"),
    help:
      "Most WebSocket connections one address may hold; one more is closed with 4002 (0: no limit; behind a proxy, limit there)."
  )
  var maxConnectionsPerAddress = ServerConfiguration.defaults.maxConnectionsPerAddress

  @Option(
    help: ArgumentHelp(
      "A browser origin (scheme://host[:port]) allowed to open WebSockets besides the page's own; repeatable. '*' allows any.",
      valueName: "origin"))
  var allowedOrigin = ServerConfiguration.defaults.allowedOrigins

  @Option(
    name: .customLong("node-id"),
    help: "This server's id in a cluster, named in welcome (default: host name and port).")
  var nodeID: String?

  @Option(
    name: .customLong("advertise-url"),
    help: ArgumentHelp(
      "This node's own WebSocket URL, sent in redirects beside the front door's path (with --database), for clients that connect to nodes directly.",
      valueName: "ws://host:port/ws"))
  var advertisedURL: String?

  @Option(
    name: .customLong("lease"),
    help:
      "Milliseconds a node of a cluster holds its tables without renewing its lease (renewed every quarter of it); a node that dies is taken over once it runs out."
  )
  var lease = ServerConfiguration.defaults.lease * 1000

  @Option(
    name: .customLong("lease-renewal"),
    help:
      "Milliseconds between two renewals of a node's lease, and between two looks for the tables of dead nodes (default: a quarter of --lease; at most half of it)."
  )
  var leaseRenewal: Double?

  /// The options as the server's configuration.
  var serverConfiguration: ServerConfiguration {
    var configuration = ServerConfiguration()
    configuration.host = host
    configuration.port = port
    configuration.webRoot = webRoot
    configuration.logLevel = logLevel
    configuration.tlsCertificatePath = tlsCert
    configuration.tlsPrivateKeyPath = tlsKey
    configuration.maxMessageBytes = maxMessageBytes
    configuration.reconnectGrace = reconnectGrace
    configuration.countdown = countdown
    configuration.emptyTableGrace = emptyTableGrace
    configuration.spectatorLimit = spectatorLimit
    configuration.executors = executors
    configuration.rateLimit = rateLimit
    configuration.sendBufferBytes = sendBuffer
    configuration.drainTimeout = drainTimeout
    configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
    configuration.allowedOrigins = allowedOrigin
    configuration.dataDirectory = dataDirectory
    configuration.databaseURL = databaseURL
    configuration.journal = !noJournal
    configuration.durability = durability
    configuration.commitInterval = commitInterval / 1000
    configuration.journalStallLimit = journalStallLimit / 1000
    configuration.keepFinishedDays = keepFinishedDays
    configuration.nodeID = nodeID
    configuration.advertisedURL = advertisedURL
    configuration.lease = lease / 1000
    configuration.leaseRenewal = leaseRenewal.map { $0 / 1000 }
    return configuration
  }

  func validate() throws {
    if let problem = serverConfiguration.validationProblem() {
      throw ValidationError(problem)
    }
  }

  func run() async throws {
    try await Application(configuration: serverConfiguration).run()
  }
}

// ArgumentParser reads `--log-level` straight as swift-log's level; neither package declares it.
// swift-format-ignore: AvoidRetroactiveConformances
extension Logger.Level: @retroactive ExpressibleByArgument {}
extension Durability: ExpressibleByArgument {}
