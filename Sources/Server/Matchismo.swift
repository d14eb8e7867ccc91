import ArgumentParser
import Logging
import Store

/// The `matchismo` command: parses options into a ``ServerConfiguration`` and runs the server
/// until SIGINT or SIGTERM. It writes nothing of an option but the property that holds it: its
/// name and help are ``ServerOption``'s, its default ``ServerConfiguration/defaults``'.
@main
struct Matchismo: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "matchismo",
    abstract: "Matchismo Live: a real-time multiplayer card-game server with a browser client.")

  // Each option's name and help are ServerOption's, its default ServerConfiguration.defaults'
  // (an optional one has none: nil).

  @Option(name: ServerOption.host.long, help: ServerOption.host.help)
  var host = ServerConfiguration.defaults.host

  @Option(name: ServerOption.port.long, help: ServerOption.port.help)
  var port = ServerConfiguration.defaults.port

  @Option(name: ServerOption.webRoot.long, help: ServerOption.webRoot.help)
  var webRoot = ServerConfiguration.defaults.webRoot

  @Option(name: ServerOption.logLevel.long, help: ServerOption.logLevel.help)
  var logLevel = ServerConfiguration.defaults.logLevel

  @Option(name: ServerOption.tlsCert.long, help: ServerOption.tlsCert.help)
  var tlsCert: String?

  @Option(name: ServerOption.tlsKey.long, help: ServerOption.tlsKey.help)
  var tlsKey: String?

  @Option(name: ServerOption.maxMessageBytes.long, help: ServerOption.maxMessageBytes.help)
  var maxMessageBytes = ServerConfiguration.defaults.maxMessageBytes

  @Option(name: ServerOption.reconnectGrace.long, help: ServerOption.reconnectGrace.help)
  var reconnectGrace = ServerConfiguration.defaults.reconnectGrace

  @Option(name: ServerOption.countdown.long, help: ServerOption.countdown.help)
  var countdown = ServerConfiguration.defaults.countdown

  @Option(name: ServerOption.emptyTableGrace.long, help: ServerOption.emptyTableGrace.help)
  var emptyTableGrace = ServerConfiguration.defaults.emptyTableGrace

  @Option(name: ServerOption.spectatorLimit.long, help: ServerOption.spectatorLimit.help)
  var spectatorLimit = ServerConfiguration.defaults.spectatorLimit

  @Option(name: ServerOption.botPace.long, help: ServerOption.botPace.help)
  var botPace = ServerConfiguration.defaults.botPace

  @Option(name: ServerOption.computerTables.long, help: ServerOption.computerTables.help)
  var computerTables = ServerConfiguration.defaults.computerTables

  @Option(name: ServerOption.arenaSchedule.long, help: ServerOption.arenaSchedule.help)
  var arenaSchedule = ServerConfiguration.defaults.arenaSchedule

  @Option(name: ServerOption.executors.long, help: ServerOption.executors.help)
  var executors = ServerConfiguration.defaults.executors

  @Option(name: ServerOption.dataDirectory.long, help: ServerOption.dataDirectory.help)
  var dataDirectory = ServerConfiguration.defaults.dataDirectory

  @Option(name: ServerOption.database.long, help: ServerOption.database.help)
  var databaseURL: String?

  @Flag(name: ServerOption.noJournal.long, help: ServerOption.noJournal.help)
  var noJournal = !ServerConfiguration.defaults.journal

  @Option(name: ServerOption.sync.long, help: ServerOption.sync.help)
  var durability: Durability?

  @Option(name: ServerOption.commitInterval.long, help: ServerOption.commitInterval.help)
  var commitInterval: Double?

  @Option(name: ServerOption.journalStallLimit.long, help: ServerOption.journalStallLimit.help)
  var journalStallLimit = ServerConfiguration.defaults.journalStallLimit * 1000

  @Option(name: ServerOption.walCheckpoint.long, help: ServerOption.walCheckpoint.help)
  var walCheckpointMiB = ServerConfiguration.defaults.walCheckpointMiB

  @Option(name: ServerOption.keepFinishedDays.long, help: ServerOption.keepFinishedDays.help)
  var keepFinishedDays: Int?

  @Option(name: ServerOption.rateLimit.long, help: ServerOption.rateLimit.help)
  var rateLimit = ServerConfiguration.defaults.rateLimit

  @Option(name: ServerOption.sendBuffer.long, help: ServerOption.sendBuffer.help)
  var sendBuffer = ServerConfiguration.defaults.sendBufferBytes

  @Option(name: ServerOption.eventsPerPass.long, help: ServerOption.eventsPerPass.help)
  var eventsPerPass = ServerConfiguration.defaults.eventsPerPass

  @Option(name: ServerOption.passBudget.long, help: ServerOption.passBudget.help)
  var passBudget = ServerConfiguration.defaults.passBudget

  @Option(name: ServerOption.crowdShare.long, help: ServerOption.crowdShare.help)
  var crowdShare = ServerConfiguration.defaults.crowdShare

  @Option(name: ServerOption.drainTimeout.long, help: ServerOption.drainTimeout.help)
  var drainTimeout = ServerConfiguration.defaults.drainTimeout

  @Option(name: ServerOption.maxConnections.long, help: ServerOption.maxConnections.help)
  var maxConnections = ServerConfiguration.defaults.maxConnections

  @Option(
    name: ServerOption.maxConnectionsPerAddress.long,
    help: ServerOption.maxConnectionsPerAddress.help)
  var maxConnectionsPerAddress = ServerConfiguration.defaults.maxConnectionsPerAddress

  @Option(name: ServerOption.metricsPort.long, help: ServerOption.metricsPort.help)
  var metricsPort: Int?

  @Option(name: ServerOption.metricsHost.long, help: ServerOption.metricsHost.help)
  var metricsHost = ServerConfiguration.defaults.metricsHost

  @Option(name: ServerOption.trustedProxy.long, help: ServerOption.trustedProxy.help)
  var trustedProxy = ServerConfiguration.defaults.trustedProxies

  @Option(name: ServerOption.allowedOrigin.long, help: ServerOption.allowedOrigin.help)
  var allowedOrigin = ServerConfiguration.defaults.allowedOrigins

  @Option(name: ServerOption.nodeID.long, help: ServerOption.nodeID.help)
  var nodeID: String?

  @Option(name: ServerOption.advertiseURL.long, help: ServerOption.advertiseURL.help)
  var advertisedURL: String?

  @Option(name: ServerOption.lease.long, help: ServerOption.lease.help)
  var lease = ServerConfiguration.defaults.lease * 1000

  @Option(name: ServerOption.leaseRenewal.long, help: ServerOption.leaseRenewal.help)
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
    configuration.botPace = botPace
    configuration.computerTables = computerTables
    configuration.arenaSchedule = arenaSchedule
    configuration.executors = executors
    configuration.rateLimit = rateLimit
    configuration.sendBufferBytes = sendBuffer
    configuration.eventsPerPass = eventsPerPass
    configuration.passBudget = passBudget
    configuration.crowdShare = crowdShare
    configuration.drainTimeout = drainTimeout
    configuration.maxConnections = maxConnections
    configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
    configuration.metricsPort = metricsPort
    configuration.metricsHost = metricsHost
    configuration.allowedOrigins = allowedOrigin
    configuration.trustedProxies = trustedProxy
    configuration.dataDirectory = dataDirectory
    configuration.databaseURL = databaseURL
    configuration.journal = !noJournal
    configuration.durability = durability
    configuration.commitInterval = commitInterval.map { $0 / 1000 }
    configuration.journalStallLimit = journalStallLimit / 1000
    configuration.walCheckpointMiB = walCheckpointMiB
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
