import ArgumentParser

/// One option of the `matchismo` command, described once: its long name and what `--help` says
/// of it. The command's options read their name and help here and their default from
/// ``ServerConfiguration/defaults``; ``ServerConfiguration/validationProblem()`` names options
/// by these names.
struct ServerOption: Sendable {
  /// The long name, without its dashes ("send-buffer").
  let name: String
  /// What `--help` says of it (and the name of its value, where it shows one).
  let help: ArgumentHelp

  /// `--name`, as messages name it.
  var flag: String { "--" + name }

  /// The name as ArgumentParser takes it.
  var long: NameSpecification { .customLong(name) }

  private init(_ name: String, _ help: ArgumentHelp) {
    self.name = name
    self.help = help
  }

  static let host = Self("host", "Interface to listen on (0.0.0.0 for every interface).")
  static let port = Self("port", "Port for HTTP and WebSocket (0 picks a free one).")
  static let webRoot = Self("web-root", "Folder of the web client, served at /.")
  static let logLevel = Self(
    "log-level", "Log level: trace, debug, info, notice, warning, error, critical.")
  static let tlsCert = Self("tls-cert", "PEM certificate: serve https and wss (needs --tls-key).")
  static let tlsKey = Self("tls-key", "PEM private key for --tls-cert.")
  static let maxMessageBytes = Self(
    "max-message-bytes", "Largest message a client may send, in bytes.")
  static let reconnectGrace = Self(
    "reconnect-grace", "Seconds a dropped player's session is kept for a resume.")
  static let countdown = Self(
    "countdown", "Seconds of countdown between a table's start and its deal.")
  static let emptyTableGrace = Self(
    "empty-table-grace", "Seconds a table with nobody seated stays open.")
  static let spectatorLimit = Self("spectator-limit", "Most spectators at one table.")
  static let computerTables = Self(
    "computer-tables",
    "Opens this many private tables of four expert computers at start, which play on by themselves game after game: a benchmark of what computers cost (not kept across restarts)."
  )
  static let botPace = Self(
    "bot-pace",
    "What computer players' times to move are multiplied by (1: their levels' figures; 0.01 plays a game against the computer in seconds, for tests and demonstrations)."
  )
  static let arenaSchedule = Self(
    "arena-schedule",
    "The arenas this server holds for everyone: EVERY/LENGTH/GAME in minutes, one arena of GAME, LENGTH minutes long, every EVERY minutes on the clock (UTC; 60/10/set: a 10-minute Set arena every hour on the hour), or off for none."
  )
  static let executors = Self(
    "executors",
    "Threads that run the lobby and its tables: 0 decides every message on the transport's thread (no hop per move); K spreads the tables over K threads by table number. Default: 0 up to 2 cores, else one per core but one."
  )
  static let dataDirectory = Self(
    "data-dir", "Folder of the embedded journal (made if missing).")
  static let database = Self(
    "database",
    ArgumentHelp(
      "A PostgreSQL database for the journal instead of the embedded file (--data-dir is then unused). The servers sharing one are the nodes of a cluster: each holds its own tables, and every node lists them all and sends players to the table's node.",
      valueName: "postgres://user:password@host:port/name"))
  static let noJournal = Self(
    "no-journal",
    "Keep everything in memory only: nothing is written, nothing restored at start.")
  static let sync = Self(
    "sync",
    "Journal durability: 'process' (a write leaves the server before anyone sees it: reaches the OS, or PostgreSQL with synchronous_commit off; survives a crash of the server) or 'full' (on the disk: an fsync per commit, or synchronous_commit on: on the synchronous standby too, if the database has one; survives a power loss and a primary's death), or with --database 'replica' (synchronous_commit remote_write: on the primary's disk and in the standby's memory). Default: process with the embedded journal, full with --database."
  )
  static let commitInterval = Self(
    "commit-interval",
    "Milliseconds from the start of one journal commit to the start of the next (0: commit as soon as the last one ends). Longer shares a commit among more moves (less CPU), shorter answers sooner. Default: 0 with the embedded journal, 5 with --database (a PostgreSQL commit costs the database far more than a move)."
  )
  static let journalStallLimit = Self(
    "journal-stall-limit",
    "Milliseconds a journal write may take before moves are refused with 'unavailable' until it ends (a disk or database that hangs rather than fails)."
  )
  static let walCheckpoint = Self(
    "wal-checkpoint-mib",
    "MiB of the embedded journal's write-ahead log at which it is copied into the database file and starts again; its file stays under twice that. Longer: rarer checkpoints, more room while a disk pauses."
  )
  static let keepFinishedDays = Self(
    "keep-finished-days",
    ArgumentHelp(
      "Days a finished game (high scores, replays) is kept after it ended; older ones are deleted 50 at a time, off the move path. Default: kept for ever.",
      valueName: "days"))
  static let rateLimit = Self(
    "rate-limit", "Messages per second one connection may send (bursts of twice as many).")
  static let sendBuffer = Self(
    "send-buffer",
    ArgumentHelp(
      "Bytes of the kernel's send buffer per WebSocket connection (0: the kernel's own sizing, up to 4 MiB).",
      valueName: "bytes"))
  static let eventsPerPass = Self(
    "events-per-pass",
    ArgumentHelp(
      "Socket events one pass of the service loop takes at most; when a pass is busy, the players of watched tables are served before everything else (0: no bound).",
      valueName: "count"))
  static let passBudget = Self(
    "pass-budget",
    ArgumentHelp(
      "Microseconds one pass of the service loop aims to last at most: while socket events cost more (a crowd dropping at once), a pass takes fewer of them, so the players' moves wait less (0: bounded by --events-per-pass only).",
      valueName: "microseconds"))
  static let crowdShare = Self(
    "crowd-share",
    ArgumentHelp(
      "Percent of the service loop's time the spectators' fan-out may take at most: a large crowd is written less often, more frames a write, and the players' moves keep the rest (0: no bound).",
      valueName: "percent"))
  static let drainTimeout = Self(
    "drain-timeout",
    ArgumentHelp(
      "Seconds a connection may stay blocked (the client does not read: its receive window is shut) without progress before it is cut with 4000 (0: never).",
      valueName: "seconds"))
  static let maxConnections = Self(
    "max-connections",
    ArgumentHelp(
      "Most WebSocket connections open at once (players, spectators, other nodes); an upgrade beyond it is closed unanswered. The open-file limit is raised to it plus 1,024 (within the hard limit). Debian's libwebsockets walks a table of that many entries on every close: size it to what the node will hold.",
      valueName: "count"))
  static let maxConnectionsPerAddress = Self(
    "max-connections-per-address",
    "Most WebSocket connections one address may hold; one more is closed with 4002 (0: no limit; behind a proxy, name it with --trusted-proxy)."
  )
  static let trustedProxy = Self(
    "trusted-proxy",
    ArgumentHelp(
      "The address of a proxy in front of this server (the cluster's front door); repeatable. A connection from it counts as the address it put last in X-Forwarded-For (HAProxy's option forwardfor), for --max-connections-per-address and the invite-code guess limit.",
      valueName: "address"))
  static let allowedOrigin = Self(
    "allowed-origin",
    ArgumentHelp(
      "A browser origin (scheme://host[:port]) allowed to open WebSockets besides the page's own; repeatable. '*' allows any.",
      valueName: "origin"))
  static let nodeID = Self(
    "node-id", "This server's id in a cluster, named in welcome (default: host name and port).")
  static let advertiseURL = Self(
    "advertise-url",
    ArgumentHelp(
      "This node's own WebSocket URL, sent in redirects beside the front door's path (with --database), for clients that connect to nodes directly.",
      valueName: "ws://host:port/ws"))
  static let lease = Self(
    "lease",
    "Milliseconds a node of a cluster holds its tables without renewing its lease (renewed every quarter of it); a node that dies is taken over once it runs out."
  )
  static let leaseRenewal = Self(
    "lease-renewal",
    "Milliseconds between two renewals of a node's lease, and between two looks for the tables of dead nodes (default: a quarter of --lease; at most half of it)."
  )

  static let metricsPort = Self(
    "metrics-port",
    ArgumentHelp(
      "Serve /metrics on a listener of its own at this port (on --metrics-host), and not on --port; without it, /metrics is on --port.",
      valueName: "port"))
  static let metricsHost = Self(
    "metrics-host", "Interface of the --metrics-port listener (default: 127.0.0.1, loopback only).")

  /// Every option, in the order `--help` lists them.
  static let all: [ServerOption] = [
    host, port, webRoot, logLevel, tlsCert, tlsKey, maxMessageBytes, reconnectGrace, countdown,
    emptyTableGrace, spectatorLimit, botPace, computerTables, arenaSchedule, executors,
    dataDirectory, database,
    noJournal, sync,
    commitInterval, journalStallLimit, walCheckpoint, keepFinishedDays, rateLimit, sendBuffer,
    eventsPerPass, passBudget, crowdShare, drainTimeout,
    maxConnections, maxConnectionsPerAddress, trustedProxy, allowedOrigin, nodeID, advertiseURL,
    lease,
    leaseRenewal,
    metricsPort, metricsHost,
  ]
}
