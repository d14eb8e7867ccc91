import Lobby
import Logging
import Model
import Protocol
import Store
import Testing

@testable import Server

/// One configuration: the command's defaults are `ServerConfiguration.defaults`, and the
/// transport's and the lobby's configurations are made from it.
@Suite struct ServerConfigurationTests {
  @Test func theCommandsDefaultsAreTheConfigurationsDefaults() throws {
    let command = try Matchismo.parse([])
    #expect(command.serverConfiguration == ServerConfiguration.defaults)
    #expect(ServerConfiguration.defaults.validationProblem() == nil)
  }

  @Test func everyOptionReachesTheConfiguration() throws {
    let command = try Matchismo.parse([
      "--host", "0.0.0.0", "--port", "9000", "--web-root", "/srv/web", "--log-level", "debug",
      "--tls-cert", "/c.pem", "--tls-key", "/k.pem", "--max-message-bytes", "4096",
      "--reconnect-grace", "30", "--countdown", "0", "--empty-table-grace", "5",
      "--spectator-limit", "7", "--bot-pace", "0.01", "--rate-limit", "5", "--allowed-origin",
      "https://a.example",
      "--send-buffer", "32768", "--drain-timeout", "2.5", "--max-connections", "500",
      "--max-connections-per-address", "40",
      "--trusted-proxy", "10.0.0.1", "--trusted-proxy", "::1", "--events-per-pass", "0",
      "--pass-budget", "250", "--crowd-share", "30",
    ])
    var expected = ServerConfiguration()
    expected.host = "0.0.0.0"
    expected.port = 9000
    expected.webRoot = "/srv/web"
    expected.logLevel = .debug
    expected.tlsCertificatePath = "/c.pem"
    expected.tlsPrivateKeyPath = "/k.pem"
    expected.maxMessageBytes = 4096
    expected.reconnectGrace = 30
    expected.countdown = 0
    expected.emptyTableGrace = 5
    expected.spectatorLimit = 7
    expected.botPace = 0.01
    expected.rateLimit = 5
    expected.allowedOrigins = ["https://a.example"]
    expected.sendBufferBytes = 32768
    expected.drainTimeout = 2.5
    expected.maxConnections = 500
    expected.maxConnectionsPerAddress = 40
    expected.trustedProxies = ["10.0.0.1", "::1"]
    expected.eventsPerPass = 0
    expected.passBudget = 250
    expected.crowdShare = 30
    #expect(command.serverConfiguration == expected)

    let transport = expected.transportConfiguration(webRoot: "/resolved")
    #expect(transport.host == "0.0.0.0" && transport.port == 9000)
    #expect(transport.webRoot == "/resolved")
    #expect(transport.tlsCertificatePath == "/c.pem" && transport.tlsPrivateKeyPath == "/k.pem")
    #expect(transport.maxMessageBytes == 4096)
    #expect(transport.rateRefillPerSecond == 5 && transport.rateBurst == 10)
    #expect(transport.allowedOrigins == ["https://a.example"])
    #expect(transport.sendBufferBytes == 32768 && transport.drainTimeoutSeconds == 2.5)
    #expect(transport.maxConnections == 500 && transport.maxConnectionsPerAddress == 40)
    #expect(transport.eventsPerPass == 0 && transport.passBudget == 0.000_25)
    #expect(transport.crowdShare == 0.3)
    #expect(transport.trustedProxies == ["10.0.0.1", "::1"])
    #expect(transport.validationProblem() == nil)

    let lobby = expected.lobbyConfiguration
    #expect(lobby.maxMessageBytes == 4096)
    #expect(lobby.reconnectGrace == 30 && lobby.countdown == 0 && lobby.emptyTableGrace == 5)
    #expect(lobby.spectatorLimit == 7)
    #expect(lobby.botPace == 0.01)
  }

  /// A component made with its own defaults (as in its tests) behaves as it does in the server:
  /// each default has one owner that the others read.
  @Test func theComponentsDefaultsAgreeWithTheServers() {
    let server = ServerConfiguration.defaults
    let transport = TransportConfiguration()
    let made = server.transportConfiguration(webRoot: nil)
    #expect(made.host == transport.host && made.port == transport.port)
    #expect(made.maxMessageBytes == transport.maxMessageBytes)
    #expect(made.rateBurst == transport.rateBurst)
    #expect(made.rateRefillPerSecond == transport.rateRefillPerSecond)
    #expect(made.sendBufferBytes == transport.sendBufferBytes)
    #expect(made.drainTimeoutSeconds == transport.drainTimeoutSeconds)
    #expect(made.maxConnectionsPerAddress == transport.maxConnectionsPerAddress)
    #expect(made.maxConnections == transport.maxConnections)
    #expect(made.passBudget == transport.passBudget && made.crowdShare == transport.crowdShare)

    let lobby = LobbyConfiguration()
    let madeLobby = server.lobbyConfiguration
    #expect(madeLobby.maxMessageBytes == lobby.maxMessageBytes)
    #expect(madeLobby.reconnectGrace == lobby.reconnectGrace)
    #expect(madeLobby.countdown == lobby.countdown)
    #expect(madeLobby.emptyTableGrace == lobby.emptyTableGrace)
    #expect(madeLobby.spectatorLimit == lobby.spectatorLimit)
    #expect(madeLobby.botPace == lobby.botPace)

    let rules = TableRules()
    #expect(rules.countdown == lobby.countdown)
    #expect(rules.reconnectGrace == lobby.reconnectGrace)
    #expect(rules.botPace == lobby.botPace)
  }

  @Test func theExecutorsFollowTheCoreCount() throws {
    #expect(ServerConfiguration.defaultExecutors(cores: 1) == 0)
    #expect(ServerConfiguration.defaultExecutors(cores: 2) == 0)
    #expect(ServerConfiguration.defaultExecutors(cores: 4) == 3)
    #expect(ServerConfiguration.defaultExecutors(cores: 500) == ServerConfiguration.maxExecutors)
    var configuration = ServerConfiguration()
    configuration.executors = 2
    #expect(configuration.validationProblem() == nil)
    #expect(try Matchismo.parse(["--executors", "3"]).serverConfiguration.executors == 3)
    configuration.executors = -1
    #expect(configuration.validationProblem() == "--executors must be 0...64.")
    configuration.executors = 65
    #expect(configuration.validationProblem() == "--executors must be 0...64.")
  }

  /// A node's id travels in every `welcome` and, in a cluster, in URLs: given or made from the
  /// host name and port (the process id when the port is picked at start), and only of
  /// characters a URL carries as they are.
  @Test func theNodeIDIsGivenOrTheHostNameAndPort() throws {
    #expect(ServerConfiguration.defaults.nodeID == nil)
    #expect(
      ServerConfiguration.defaultNodeID(hostName: "play1", port: 8080, processID: 42)
        == "play1:8080")
    #expect(
      ServerConfiguration.defaultNodeID(hostName: "play1", port: 0, processID: 42) == "play1-42")
    #expect(
      ServerConfiguration.defaultNodeID(hostName: "bad host/é", port: 9, processID: 1)
        == "badhost:9")
    #expect(ServerConfiguration.defaultNodeID(hostName: "", port: 9, processID: 1) == "node:9")
    let long = ServerConfiguration.defaultNodeID(
      hostName: String(repeating: "h", count: 200), port: 65535, processID: 1)
    #expect(long.count <= ServerConfiguration.longestNodeID)

    let given = try Matchismo.parse(["--node-id", "n2", "--port", "9002"]).serverConfiguration
    #expect(given.nodeID == "n2")
    #expect(given.lobbyConfiguration.nodeID == "n2")
    var configuration = ServerConfiguration()
    configuration.port = 9003
    #expect(configuration.lobbyConfiguration.nodeID.hasSuffix(":9003"))
    #expect(configuration.lobbyConfiguration.nodeID == configuration.resolvedNodeID)
    for wrong in ["", "a b", "n/1", "n?1", "é", String(repeating: "n", count: 65)] {
      configuration.nodeID = wrong
      #expect(
        configuration.validationProblem()
          == "--node-id must be 1...64 characters: letters, digits, '-', '_', '.', ':'.", "\(wrong)"
      )
    }
    configuration.nodeID = "eu-1.node_2:9001"
    #expect(configuration.validationProblem() == nil)
  }

  /// Given in milliseconds and bounded; when not given, none with the embedded journal and 5 ms
  /// on PostgreSQL, where each commit costs the database more than its moves do.
  @Test func theCommitIntervalIsGivenInMillisecondsAndBounded() throws {
    #expect(ServerConfiguration.defaults.journalCommitInterval == 0)
    let database = ["--database", "postgres://mlive@127.0.0.1:5432/matchismo"]
    #expect(try Matchismo.parse(database).serverConfiguration.journalCommitInterval == 0.005)
    #expect(
      try Matchismo.parse(["--commit-interval", "0.5"]).serverConfiguration.journalCommitInterval
        == 0.0005)
    #expect(
      try Matchismo.parse(database + ["--commit-interval", "0"]).serverConfiguration
        .journalCommitInterval == 0)
    var configuration = ServerConfiguration()
    configuration.commitInterval = -0.001
    #expect(configuration.validationProblem() == "--commit-interval must be 0...1000 ms.")
    configuration.commitInterval = 2
    #expect(configuration.validationProblem() == "--commit-interval must be 0...1000 ms.")
  }

  /// `process` with the embedded journal, `full` on PostgreSQL (a move players saw must be on
  /// the synchronous standby before its frames go); either when given.
  @Test func theDurabilityIsFullOnPostgresUnlessGiven() throws {
    #expect(ServerConfiguration.defaults.journalDurability == .process)
    let database = ["--database", "postgres://mlive@h1:5432,h2:5432/matchismo"]
    #expect(try Matchismo.parse(database).serverConfiguration.journalDurability == .full)
    #expect(
      try Matchismo.parse(database + ["--sync", "process"]).serverConfiguration.journalDurability
        == .process)
    #expect(
      try Matchismo.parse(["--sync", "full"]).serverConfiguration.journalDurability == .full)
    #expect(
      try Matchismo.parse(database + ["--sync", "replica"]).serverConfiguration.validationProblem()
        == nil)
    var embedded = ServerConfiguration()
    embedded.durability = .replica
    #expect(
      embedded.validationProblem()
        == "--sync replica is for a PostgreSQL journal with a standby: it needs --database.")
  }

  /// A bad server list stops the server at start, naming the option and the part.
  @Test func aBadServerListIsRefusedAtStart() throws {
    for (url, problem) in [
      ("postgres://u@h1:5432,h2:x/db", "--database: 'h2:x': the port must be 1...65535."),
      (
        "postgres://u@h1,h2/db?target_session_attrs=standby",
        "--database: unknown target_session_attrs 'standby' (this server takes read-write or any)."
      ),
    ] {
      var configuration = ServerConfiguration()
      configuration.databaseURL = url
      #expect(configuration.validationProblem() == problem)
    }
  }

  /// The embedded journal's log threshold: 32 MiB unless given, in MiB, bounded.
  @Test func theLogsThresholdIsGivenInMiBAndBounded() throws {
    #expect(ServerConfiguration.defaults.walCheckpointMiB == 32)
    #expect(
      try Matchismo.parse(["--wal-checkpoint-mib", "4"]).serverConfiguration.walCheckpointMiB == 4)
    var configuration = ServerConfiguration()
    for wrong in [0, 1025] {
      configuration.walCheckpointMiB = wrong
      #expect(configuration.validationProblem() == "--wal-checkpoint-mib must be 1...1024 MiB.")
    }
  }

  @Test func theLeaseAndItsRenewalAreGivenInMillisecondsAndBounded() throws {
    #expect(ServerConfiguration.defaults.lease == 2)
    #expect(ServerConfiguration.defaults.resolvedLeaseRenewal == 0.5)
    let given = try Matchismo.parse(["--lease", "6000", "--lease-renewal", "1000"])
      .serverConfiguration
    #expect(given.lease == 6 && given.resolvedLeaseRenewal == 1)
    #expect(
      try Matchismo.parse(["--lease", "6000"]).serverConfiguration.resolvedLeaseRenewal == 1.5)
    var configuration = ServerConfiguration()
    configuration.lease = 0.1
    #expect(configuration.validationProblem() == "--lease must be 500...300000 ms.")
    configuration.lease = 2
    configuration.leaseRenewal = 1.5
    #expect(
      configuration.validationProblem()
        == "--lease-renewal must be at least 50 ms and at most half of --lease.")
    configuration.leaseRenewal = 1
    #expect(configuration.validationProblem() == nil)
  }

  @Test func aServerOnPostgreSQLIsANodeOfAClusterAndMayAdvertiseItsURL() throws {
    let alone = try Matchismo.parse([]).serverConfiguration
    #expect(!alone.isClusterNode && !alone.lobbyConfiguration.cluster)
    let node = try Matchismo.parse([
      "--database", "postgres://u@127.0.0.1/db", "--advertise-url", "ws://10.0.0.2:9002/",
    ]).serverConfiguration
    #expect(node.isClusterNode && node.lobbyConfiguration.cluster)
    #expect(node.advertisedURL == "ws://10.0.0.2:9002/" && node.validationProblem() == nil)
    var configuration = ServerConfiguration()
    configuration.advertisedURL = "ws://10.0.0.2:9002/"
    #expect(
      configuration.validationProblem()
        == "--advertise-url is for the nodes of a cluster: it needs --database.")
    configuration.databaseURL = "postgres://u@127.0.0.1/db"
    configuration.advertisedURL = "http://10.0.0.2/"
    #expect(
      configuration.validationProblem()
        == "--advertise-url must be a ws:// or wss:// URL of at most 512 characters.")
  }

  @Test func aNodeNamesItsAddressToTheOtherNodesEvenWhenItAdvertisesNone() throws {
    func link(_ advertised: String?, _ host: String, _ port: Int) -> String? {
      ServerConfiguration.linkURL(advertised: advertised, host: host, port: port, hostName: "box7")
    }
    // The advertised URL, when the nodes can use it (a link speaks ws://).
    #expect(link("ws://10.0.0.2:9002/", "0.0.0.0", 8080) == "ws://10.0.0.2:9002/")
    #expect(link("wss://game.example/", "10.0.0.2", 8080) == "ws://10.0.0.2:8080/")
    // Otherwise the address it listens on, or the machine's name on every interface.
    #expect(link(nil, "127.0.0.1", 9001) == "ws://127.0.0.1:9001/")
    #expect(link(nil, "0.0.0.0", 8080) == "ws://box7:8080/")
    #expect(link(nil, "::", 8080) == "ws://box7:8080/")
    #expect(link(nil, "fd00::2", 8080) == "ws://[fd00::2]:8080/")
    // A port the system picks is not known before the bind.
    #expect(link(nil, "127.0.0.1", 0) == nil)
    let node = try Matchismo.parse([
      "--database", "postgres://u@127.0.0.1/db", "--host", "127.0.0.1", "--port", "9005",
    ]).serverConfiguration
    #expect(node.advertisedURL == nil && node.linkURL == "ws://127.0.0.1:9005/")
  }

  @Test func theJournalStallLimitIsGivenInMillisecondsAndBounded() throws {
    #expect(ServerConfiguration.defaults.journalStallLimit == 1)
    #expect(
      try Matchismo.parse(["--journal-stall-limit", "250"]).serverConfiguration.journalStallLimit
        == 0.25)
    var configuration = ServerConfiguration()
    for wrong in [0, 0.005, 61, -1, .nan, .infinity] {
      configuration.journalStallLimit = wrong
      #expect(
        configuration.validationProblem() == "--journal-stall-limit must be 10...60000 ms.")
    }
    configuration.journalStallLimit = 60
    #expect(configuration.validationProblem() == nil)
  }

  @Test func finishedGamesAreKeptForEverUnlessADayCountIsGiven() throws {
    #expect(ServerConfiguration.defaults.keepFinishedDays == nil)
    #expect(
      try Matchismo.parse(["--keep-finished-days", "30"]).serverConfiguration.keepFinishedDays
        == 30)
    var configuration = ServerConfiguration()
    for wrong in [0, -1, ServerConfiguration.mostKeptDays + 1] {
      configuration.keepFinishedDays = wrong
      #expect(configuration.validationProblem() == "--keep-finished-days must be 1...36500.")
    }
    configuration.keepFinishedDays = ServerConfiguration.mostKeptDays
    #expect(configuration.validationProblem() == nil)
    configuration.keepFinishedDays = 1
    configuration.journal = false
    #expect(
      configuration.validationProblem()
        == "--keep-finished-days and --no-journal do not go together.")
    #expect(throws: (any Error).self) {
      try Matchismo.parse(["--keep-finished-days", "0"]).validate()
    }
    #expect(throws: (any Error).self) { try Matchismo.parse(["--keep-finished-days", "a"]) }
  }

  @Test func oldFinishedGamesAreRemovedABatchAtATime() throws {
    let store = MemoryJournalStore()
    let day = 86_400.0
    let now = 1_800_000_000.0
    // Seven games ended 40 days ago, one yesterday.
    for index in 0..<8 {
      let ended = index < 7 ? now - 40 * day : now - day
      try store.write([
        .finished(
          FinishedGame(
            game: "set", settings: .set(), seed: 1,
            players: [
              FinishedPlayer(seat: 0, name: "A", score: 1, matches: 1, mistakes: 0, rank: 1)
            ],
            moves: [], seconds: 5, endedAt: ended, source: "t\(index)#1"))
      ])
    }
    let retention = FinishedGameRetention(
      store: store, days: 30, batchSize: 3, logger: Logger(label: "test"))
    #expect(retention.prune(now: now, pause: 0) == 7)
    #expect(try store.scores(ScoresQuery(game: "set")).total == 1)
    #expect(retention.prune(now: now, pause: 0) == 0)
    // Thirty days on, yesterday's game is old too.
    #expect(retention.prune(now: now + 30 * day, pause: 0) == 1)
  }

  @Test func aTinyRateLimitStillAllowsOneMessage() {
    #expect(ServerConfiguration.rateBurst(forRateLimit: 0.1) == 1)
    #expect(ServerConfiguration.rateBurst(forRateLimit: 20) == 40)
  }
}
