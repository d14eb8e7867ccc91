/// Settings for the lobby and its tables.
///
/// The owner of their defaults: each is written once, here. A table's ``TableRules`` and the
/// server's options (`ServerConfiguration`, and through it the transport's message limit) read
/// theirs from ``defaults``.
public struct LobbyConfiguration: Sendable {
  /// The values of a configuration nobody changed.
  public static let defaults = LobbyConfiguration()

  /// The largest message the transport accepts, announced in `welcome`.
  public var maxMessageBytes = 8192
  /// How long a dropped session (and its seat) is kept for a resume, in seconds.
  public var reconnectGrace: Double = 60
  /// Seconds between a table's start and its deal.
  public var countdown: Double = 3
  /// Seconds a table with nobody seated stays open.
  public var emptyTableGrace: Double = 10
  /// What every computer player's time to move is multiplied by (1: its level's figures;
  /// ``BotLevel``). Tests and demonstrations play whole games against the computer in seconds.
  public var botPace: Double = 1
  /// Tables of four expert computers opened at start that play on by themselves, game after
  /// game (``LobbyState/openComputerTables(now:)``): a benchmark of what computers cost.
  public var computerTables = 0
  /// The arenas the operator schedules (nil: none): `--arena-schedule`.
  public var arenaSchedule: ArenaSchedule? = .hourly
  /// Most arenas a node holds at once (upcoming, running and the latest finished).
  public var maxArenas = 1000
  /// Arenas to come one session may have created.
  static let arenasPerSession = 2
  /// Most spectators at one table: a crowd of 10,000 joining one table at once was measured
  /// (docs/BENCHMARKS.md, "A crowd at one table") to cut nobody and keep every spectator within
  /// 250 ms (issue 36); a node's connections are bounded apart from it (the transport's
  /// `maxConnections`).
  public var spectatorLimit = 10_000
  /// The key the nodes of a cluster share (derived from what they share: the database's URL),
  /// which a node's link gives with the count of the spectators it watches for (`watching`); nil
  /// where there is no cluster: such counts are refused.
  public var linkKey: String? = nil
  /// Most tables open at once on this server.
  public var maxTables = 20_000
  /// Most daily puzzle attempts of the day a node remembers (who may not start again). Past it,
  /// the node forgets them all and starts counting again: a player who then starts a second
  /// attempt plays it, and the store still keeps only their first result (~100 bytes each).
  public var dailyAttemptsKept = 100_000
  /// Most people whose ratings the lobby remembers, to show beside their names (read from the
  /// store when they say hello, and after each rated game). Past it, one is forgotten for each
  /// newcomer; a forgotten player's rating is read again at their next `hello`.
  public var ratingsKept = 100_000
  /// Most open tables one session may have opened.
  public var tablesPerSession = 4
  /// Characters in an invite code.
  public var inviteCodeLength = 10
  /// Unknown invite codes a session may try in a burst.
  public var inviteMissBurst = 10
  /// Seconds for one more unknown code to be allowed again.
  public var inviteMissRefillSeconds: Double = 6
  /// Unknown invite codes one client address may try in a burst, across its sessions (and, in
  /// a cluster, across nodes): a new session is no new allowance. Several players behind one
  /// address (a school, a café) share it, so it is three sessions' worth.
  public var inviteMissAddressBurst = 30
  /// Seconds for one more unknown code to be allowed again to an address.
  public var inviteMissAddressRefillSeconds: Double = 2
  /// The most client addresses whose unknown codes are counted at once.
  public var inviteMissAddresses = 100_000
  /// Lobby changes are published at most this often, in seconds (one `lobbyDiff` per interval).
  public var lobbyFlushInterval: Double = 0.25
  /// The id of the server this lobby runs on, which `welcome` names (`--node-id`): in a cluster
  /// each node has its own, so a client and a test can see where they are.
  public var nodeID = "local"
  /// Whether this lobby is a node of a cluster: its tables are published to the other nodes
  /// (``LobbyAction/publish(_:)``), their tables are listed beside its own, a request for one of
  /// theirs is answered with a `redirect`, and a session it does not know is looked up in the
  /// shared database (``LobbyAction/findSession(token:for:)``).
  public var cluster = false
  /// Whether the lobby asks for every change to be journaled (``LobbyAction/journal(_:)``)
  /// before the frames that show it.
  public var journal = false

  /// Creates the default configuration.
  public init() {}

  /// The timings every table gets.
  var tableRules: TableRules {
    var rules = TableRules()
    rules.countdown = countdown
    rules.reconnectGrace = reconnectGrace
    rules.botPace = botPace
    rules.journals = journal
    return rules
  }
}
