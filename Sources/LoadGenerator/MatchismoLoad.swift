import ArgumentParser
import Glibc
import LoadKit

/// The `matchismo-load` command: a thin shell over LoadKit's runner. Each option's default is
/// ``LoadConfiguration/defaults``' (an optional one has none: nil), never written here again.
@main
struct MatchismoLoad: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "matchismo-load",
    abstract: "Load generator for a matchismo server on this machine (loopback only).")

  @Option(help: "Scenario: open, closed, idle or play.")
  var mode = LoadConfiguration.defaults.mode

  @Option(help: "Server address; must be loopback (127.0.0.0/8 or localhost).")
  var host = LoadConfiguration.defaults.host

  @Option(help: "Server port.")
  var port = LoadConfiguration.defaults.port

  @Option(help: "Tables.")
  var tables = LoadConfiguration.defaults.tables

  @Option(help: "Players per table (1-8).")
  var seats = LoadConfiguration.defaults.seats

  @Option(
    help: "Spectators per table (0-20000): each diff they read is timed from its move (spec_lat_*)."
  )
  var spectators = LoadConfiguration.defaults.spectators

  @Option(help: "Aggregate moves per second (open mode).")
  var rate = LoadConfiguration.defaults.rate

  @Option(help: "Seconds of load before the measured window.")
  var warmup = LoadConfiguration.defaults.warmup

  @Option(help: "Seconds measured (idle: seconds the connections are held; at most a day).")
  var duration = LoadConfiguration.defaults.duration

  @Option(help: "The server's process id: sample its CPU and memory from /proc.")
  var serverPID: Int32?

  @Option(help: "Event-loop threads.")
  var threads = LoadConfiguration.defaults.threads

  @Option(help: "Event-loop threads of their own for the spectators (0: with their players).")
  var crowdThreads = LoadConfiguration.defaults.crowdThreads

  @Option(
    help: "The crowd threads' nice value (0-19): above 0 they yield to the players and the server.")
  var crowdNice = LoadConfiguration.defaults.crowdNice

  @Option(
    help:
      "Ports of other nodes where the spectators connect, in turn, comma-separated (with --crowd-threads).",
    transform: { text in
      try text.split(separator: ",").map { part in
        guard let port = Int(part) else {
          throw ValidationError("--spectator-ports: \(part) is no port")
        }
        return port
      }
    })
  var spectatorPorts: [Int] = LoadConfiguration.defaults.spectatorPorts

  @Option(help: "Bots' mean reaction time in seconds (play mode).")
  var reaction = LoadConfiguration.defaults.reaction

  @Option(help: "Most seconds for connecting and seating everyone.")
  var setupTimeout = LoadConfiguration.defaults.setupTimeout

  @Option(help: "Most seconds to wait for the idle mode's liveness moves to be answered.")
  var livenessTimeout = LoadConfiguration.defaults.livenessTimeout

  @Option(
    help: ArgumentHelp(
      "Soak: sample the server's RSS every this many seconds of the window and report the "
        + "growth from the first sample to the end (needs --server-pid).",
      valueName: "seconds"))
  var sampleEvery: Double?

  @Option(help: "WebSocket subprotocol to ask for; an empty string asks for none.")
  var subprotocol = LoadConfiguration.defaults.subprotocol ?? ""

  @Option(
    help: ArgumentHelp(
      "The path of every connection's upgrade: /ws?node=N pins them to node N behind a cluster's front door.",
      valueName: "path"))
  var path = LoadConfiguration.defaults.path

  @Option(
    help: ArgumentHelp(
      "A client that stops reading: this many seconds into the window, the last seat of each of the first --stall-tables tables stops reading (with a 4 KiB receive buffer); the report compares its mates' latency before and after, and times its away and its cut.",
      valueName: "seconds"))
  var stallAt: Double?

  @Option(help: "Tables that get a stalled seat (with --stall-at).")
  var stallTables = LoadConfiguration.defaults.stallTables

  @Option(help: "Seconds between two tables' stalls (with --stall-at).")
  var stallEvery = LoadConfiguration.defaults.stallEvery

  @Option(help: "Seconds of each latency window compared around the stall (with --stall-at).")
  var stallWindow = LoadConfiguration.defaults.stallWindow

  @Option(
    help: ArgumentHelp(
      "A storm of the crowd (with --crowd-threads): at --storm-at seconds into the window every spectator joins (all of them connected and in the lobby since the start), leaves its table, or drops its connection and connects again (resuming its session), at once; the report compares the players' latency before and after, and times the spectators' return.",
      valueName: "join|leave|reconnect"))
  var storm: CrowdStorm?

  @Option(help: "Seconds into the window when the storm comes (with --storm).")
  var stormAt = LoadConfiguration.defaults.stormAt

  @Option(help: "Seconds of each latency window compared around the storm (with --storm).")
  var stormWindow = LoadConfiguration.defaults.stormWindow

  @Flag(
    help:
      "Add the players' latency histograms to the report (lat_hist_us; with --storm, storm_before_hist_us and storm_during_hist_us): counts by microseconds, to pool many runs."
  )
  var histograms = false

  @Flag(help: "Print the report as one JSON object instead of a table.")
  var json = false

  /// The options as a LoadKit configuration.
  var loadConfiguration: LoadConfiguration {
    var c = LoadConfiguration()
    c.mode = mode
    c.host = host
    c.port = port
    c.tables = tables
    c.seats = seats
    c.spectators = spectators
    c.rate = rate
    c.warmup = warmup
    c.duration = duration
    c.serverPID = serverPID
    c.threads = threads
    c.crowdThreads = crowdThreads
    c.spectatorPorts = spectatorPorts
    c.crowdNice = crowdNice
    c.reaction = reaction
    c.setupTimeout = setupTimeout
    c.livenessTimeout = livenessTimeout
    c.sampleEvery = sampleEvery
    c.subprotocol = subprotocol.isEmpty ? nil : subprotocol
    c.path = path
    c.stallAt = stallAt
    c.stallTables = stallTables
    c.stallWindow = stallWindow
    c.stallEvery = stallEvery
    c.storm = storm
    c.stormAt = stormAt
    c.stormWindow = stormWindow
    c.histograms = histograms
    return c
  }

  func validate() throws {
    if let problem = loadConfiguration.problem { throw ValidationError(problem) }
  }

  func run() throws {
    // Progress goes to stderr, unbuffered, so that it shows while stdout is piped.
    let report = LoadRunner.run(loadConfiguration) { line in
      let bytes = Array(("# " + line + "\n").utf8)
      _ = write(2, bytes, bytes.count)
    }
    if json {
      print(report.json)
    } else {
      print(report.table)
      print(report.keyValueLine)
    }
  }
}

extension LoadMode: ExpressibleByArgument {}
extension CrowdStorm: ExpressibleByArgument {}
