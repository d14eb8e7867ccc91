/// What a load run does.
public enum LoadMode: String, CaseIterable, Sendable {
  /// A fixed aggregate move rate, spread evenly over the players; latency from the scheduled
  /// send time, so a load generator that falls behind shows it as latency.
  case open
  /// Each player's next move as soon as its previous one is answered.
  case closed
  /// Seat every connection, hold them, then one move each as a liveness check.
  case idle
  /// Bots that really play Set from the board they rebuilt from diffs.
  case play
}

/// What a crowd does all at once, in the measured window (``LoadConfiguration/storm``).
public enum CrowdStorm: String, CaseIterable, Sendable {
  /// Every spectator, connected and in the lobby since the start, asks to watch at once.
  case join
  /// Every watching spectator leaves its table at once (and stays connected).
  case leave
  /// Every watching spectator's connection drops at once (as when their node dies) and each
  /// connects again at once, resumes its session (`hello` with the token its `welcome` gave, as
  /// the web client does) and asks to watch.
  case reconnect
}

/// Everything a run needs; validated before any socket is opened. The defaults are written once,
/// here: the `matchismo-load` command's options read them from ``defaults``.
public struct LoadConfiguration: Sendable, Equatable {
  /// The values of every option that is not given.
  public static let defaults = LoadConfiguration()

  /// The server's loopback address (IPv4 dotted form): the server's own default.
  public var host = "127.0.0.1"
  /// The server's port: the server's own default (a test holds the two together).
  public var port = 8080
  /// Which scenario.
  public var mode = LoadMode.open
  /// How many tables.
  public var tables = 250
  /// Players per table (1–8).
  public var seats = 4
  /// Spectators per table: up to a crowd (issue 36). Each reads its table's diffs, timed from
  /// the move that made them (``LoopStatistics/spectatorLatency``).
  public var spectators = 0
  /// Most spectators per table.
  public static let spectatorsMaximum = 20_000
  /// Most connections in all.
  public static let connectionsMaximum = 200_000
  /// Aggregate moves per second (open mode).
  public var rate = 5000.0
  /// Seconds of load before the measured window.
  public var warmup = 2.0
  /// Seconds of the measured window (idle: how long the connections are held).
  public var duration = 10.0
  /// The server's process id, for CPU and memory; nil to skip.
  public var serverPID: Int32?
  /// Event-loop threads.
  public var threads = 1
  /// Event-loop threads of their own for the spectators (0: each table's spectators share its
  /// players' loop). A loop that reads ten thousand spectators' frames would delay the moment it
  /// reads a player's, and time its own work as the server's: with crowd threads the players'
  /// latency is the server's alone.
  public var crowdThreads = 0
  /// The crowd's loops' nice value (0–19): above 0 they yield the machine to the players' loop
  /// and the server, so that what the players measure is the server's share, not the load
  /// generator's reading of ten thousand spectators.
  public var crowdNice = 0
  /// Ports of other nodes of a cluster where the spectators connect, in turn (empty: the
  /// players' `port`): they watch a table of the players' node from there (issue 36). Only with
  /// crowd threads; they ask a second after the table's code is known, once the other nodes
  /// list it.
  public var spectatorPorts: [Int] = []
  /// A storm of the crowd (with crowd threads): at ``stormAt`` seconds into the window every
  /// spectator joins, leaves or reconnects at once; the report compares the players' latency
  /// in the ``stormWindow`` seconds before with the ones after, and times the spectators'
  /// return (join, reconnect). Nil: no storm.
  public var storm: CrowdStorm?
  /// Seconds into the window when the storm comes.
  public var stormAt = 10.0
  /// Seconds of each latency window compared around the storm.
  public var stormWindow = 5.0
  /// The report also gives the players' latency histograms themselves (`lat_hist_us`, and with
  /// a storm `storm_before_hist_us` and `storm_during_hist_us`): counts by microseconds, each
  /// value the highest of its bucket, so that a script can pool the samples of many runs and take
  /// one percentile of them all (a p99 of a 5 s window at 40 moves a second is its third
  /// slowest move).
  public var histograms = false
  /// Mean reaction time of a bot in seconds (play mode); each wait is uniform in 0.5–1.5 × it.
  public var reaction = 1.0
  /// Most handshakes in flight per event loop, so the server's accept backlog never overflows.
  public var connectConcurrency = 128
  /// Most seconds for connecting and seating everyone.
  public var setupTimeout = 60.0
  /// Most seconds to wait for answers still outstanding after the window.
  public var drainTimeout = 3.0
  /// Most seconds for the idle mode's liveness moves.
  public var livenessTimeout = 10.0
  /// The WebSocket subprotocol asked for (today's server speaks `matchismo.v2` and refuses an
  /// upgrade that asks only for another); nil asks for none, which the server answers with its
  /// own.
  public var subprotocol: String? = "matchismo.v2"
  /// The path every connection asks for in its upgrade: "/" for a server on its own;
  /// `/ws?node=N` pins every connection to node N behind a cluster's front door.
  public var path = "/"
  /// Soak sampling: the server's RSS is read every this many seconds of the window (the first
  /// sample one interval after the window opens), and the report gives the growth from the
  /// first sample to the window's end. Nil: no sampling. Needs ``serverPID``.
  public var sampleEvery: Double?
  /// Clients that stop reading: the last seat of each of the first ``stallTables`` tables makes
  /// no moves and stops reading its socket, table k this many seconds into the measured window
  /// plus k × ``stallEvery``. Its socket asks for a 4 KiB receive buffer, so that its window shuts
  /// within a few frames. Nil: nobody stalls.
  public var stallAt: Double?
  /// How many tables get a stalled seat.
  public var stallTables = 1
  /// Seconds between two tables' stalls. Staggered stalls spread the windows compared over the
  /// whole run, so that the machine's own ups and downs fall on both sides alike.
  public var stallEvery = 0.0
  /// Seconds of each of the two latency windows compared around a table's stall: the one just
  /// before it and the one that starts with it (its mates' moves only).
  public var stallWindow = 5.0

  /// When table `table` stalls, in seconds into the window (nil: it does not).
  func stallSecond(ofTable table: Int) -> Double? {
    guard let stallAt, table < stallTables else { return nil }
    return stallAt + Double(table) * stallEvery
  }
  /// The receive buffer a stalled seat's socket asks for.
  static let stalledReceiveBuffer: Int32 = 4096

  /// The longest window: a day, for soak runs.
  public static let longestDuration = 86_400.0

  /// The defaults.
  public init() {}

  /// Total player connections.
  public var players: Int { tables * seats }
  /// Total connections, spectators included.
  public var connections: Int { tables * (seats + spectators) }

  /// Why the configuration cannot run, or nil.
  public var problem: String? {
    if !Self.isLoopback(host) {
      return "--host must be a loopback address (127.0.0.0/8); got \(host)"
    }
    if !(1...65535).contains(port) { return "--port must be 1...65535" }
    if tables < 1 || tables > 100_000 { return "--tables must be 1...100000" }
    if !(1...8).contains(seats) { return "--seats must be 1...8" }
    if spectators < 0 || spectators > Self.spectatorsMaximum {
      return "--spectators must be 0...\(Self.spectatorsMaximum)"
    }
    if spectatorPorts.contains(where: { !(1...65535).contains($0) }) {
      return "--spectator-ports must be ports 1...65535"
    }
    if !spectatorPorts.isEmpty && (crowdThreads == 0 || spectators == 0) {
      return "--spectator-ports needs --spectators and --crowd-threads"
    }
    if connections > Self.connectionsMaximum {
      return "--tables × (--seats + --spectators) must be at most \(Self.connectionsMaximum)"
    }
    if mode == .open && !(rate > 0 && rate <= 1_000_000) { return "--rate must be in (0, 1e6]" }
    if !(warmup >= 0 && warmup <= 600) { return "--warmup must be 0...600 seconds" }
    if !(duration > 0 && duration <= Self.longestDuration) {
      return "--duration must be in (0, 86400] seconds"
    }
    if let sampleEvery {
      if !(sampleEvery > 0 && sampleEvery <= duration) {
        return "--sample-every must be in (0, --duration] seconds"
      }
      if serverPID == nil { return "--sample-every needs --server-pid" }
    }
    if let stallAt {
      if seats < 2 { return "--stall-at needs at least 2 seats" }
      if mode == .idle { return "--stall-at needs moves: open, closed or play" }
      if !(1...tables).contains(stallTables) { return "--stall-tables must be 1...--tables" }
      if !(stallWindow > 0 && stallWindow <= 600) { return "--stall-window must be in (0, 600]" }
      if !(stallEvery >= 0 && stallEvery <= 600) { return "--stall-every must be 0...600" }
      let last = stallAt + Double(stallTables - 1) * stallEvery
      if !(stallAt >= stallWindow && last + stallWindow <= duration) {
        return
          "--stall-at must leave --stall-window seconds of the window before the first stall and after the last"
      }
    }
    if storm != nil {
      if crowdThreads == 0 { return "--storm needs --spectators and --crowd-threads" }
      if mode == .idle { return "--storm needs moves: open, closed or play" }
      if !(stormWindow > 0 && stormWindow <= 600) { return "--storm-window must be in (0, 600]" }
      if !(stormAt >= stormWindow && stormAt + stormWindow <= duration) {
        return "--storm-at must leave --storm-window seconds of the window before and after it"
      }
    }
    if !(1...64).contains(threads) { return "--threads must be 1...64" }
    if !(0...16).contains(crowdThreads) { return "--crowd-threads must be 0...16" }
    if crowdThreads > 0 && spectators == 0 { return "--crowd-threads needs --spectators" }
    if !(0...19).contains(crowdNice) { return "--crowd-nice must be 0...19" }
    if crowdNice > 0 && crowdThreads == 0 { return "--crowd-nice needs --crowd-threads" }
    if !path.hasPrefix("/") || path.utf8.count > 256
      || !path.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
    {
      return "--path must start with / and hold at most 256 printable characters, no spaces"
    }
    if !(reaction > 0 && reaction <= 60) { return "--reaction must be in (0, 60] seconds" }
    if !(setupTimeout > 0 && setupTimeout <= 600) { return "--setup-timeout must be in (0, 600]" }
    if !(livenessTimeout > 0 && livenessTimeout <= 600) {
      return "--liveness-timeout must be in (0, 600]"
    }
    return nil
  }

  /// Whether `host` is an IPv4 address in 127.0.0.0/8 (or `localhost`): the load generator never
  /// sends anywhere else.
  public static func isLoopback(_ host: String) -> Bool {
    if host == "localhost" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return false }
    let octets = parts.compactMap { UInt8($0) }
    return octets.count == 4 && octets[0] == 127
  }

  /// The dotted IPv4 address to connect to.
  var address: String { host == "localhost" ? "127.0.0.1" : host }
}
