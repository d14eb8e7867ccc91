import Protocol

/// The tables of one shard, and the moves decided on them: a value.
///
/// Table `tN` lives in shard `N % count`. A shell that decides moves on several threads at once
/// borrows the shards from the lobby (``LobbyState/lendShards()``), keeps each under a lock of
/// its own while it plays moves on it
/// (``LobbyState/choose(_:replyTo:from:ticket:in:now:)``), and gives them back
/// (``LobbyState/takeBack(_:)``) before anything else is decided.
public struct TableShard: Sendable {
  /// The tables, by id. Changed only through ``insert(_:)``, ``withHost(_:_:)`` and
  /// ``removeValue(forKey:)``, which keep ``tally``.
  private(set) var hosts: [String: TableHost] = [:]
  /// How many of these tables there are by game and phase, kept as they change.
  private(set) var tally = TableTally()
  /// Moves this shard's tables accepted.
  var movesAccepted = 0
  /// Moves refused at this shard's tables, by the code of the error sent back.
  var movesRejected: [ErrorCode: Int] = [:] {
    didSet { movesDecided += 1 }
  }
  /// Moves decided here, accepted or refused (a cheap "did anything change" for metrics).
  var movesDecided = 0

  /// An empty shard.
  public init() {}

  /// Runs `body` on the host of table `id` where it is stored (one look-up, no copy of the
  /// host), or returns nil when the shard has no such table. A change of the table's phase
  /// moves it in ``tally`` (its game never changes). Inlined: a move's one way to its table.
  @inline(__always)
  mutating func withHost<Result>(_ id: String, _ body: (inout TableHost) -> Result) -> Result? {
    guard let index = hosts.index(forKey: id) else { return nil }
    var phases: (before: TablePhase, after: TablePhase)?
    let result = Self.run(body, on: &hosts.values[index], phases: &phases)
    if let (before, after) = phases, before != after {
      let game = Self.gameName(of: &hosts.values[index])
      tally.change(
        from: TableTally.Kind(game: game, phase: before),
        to: TableTally.Kind(game: game, phase: after))
    }
    return result
  }

  /// `body` on `host`, where it is stored, noting the table's phase before and after. The
  /// phase alone is read on every move: the game's name costs a retain and a release more,
  /// and its result goes back untouched (a tuple of it and the kinds copied a move's outcome:
  /// callgrind).
  @inline(__always)
  private static func run<Result>(
    _ body: (inout TableHost) -> Result, on host: inout TableHost,
    phases: inout (before: TablePhase, after: TablePhase)?
  ) -> Result {
    let before = host.table.phase
    let result = body(&host)
    phases = (before, host.table.phase)
    return result
  }

  /// The game of the table `host` holds, read where it is stored.
  private static func gameName(of host: inout TableHost) -> String {
    host.table.gameName
  }

  /// Opens `host`'s table here (replacing a table of the same id, which nothing does).
  mutating func insert(_ host: TableHost) {
    let id = host.table.id
    if let replaced = hosts.updateValue(host, forKey: id) {
      tally.remove(TableTally.Kind(of: replaced.table))
    }
    tally.add(TableTally.Kind(of: host.table))
  }

  /// Closes table `id` here: its host, or nil when the shard has no such table.
  @discardableResult
  mutating func removeValue(forKey id: String) -> TableHost? {
    guard let host = hosts.removeValue(forKey: id) else { return nil }
    tally.remove(TableTally.Kind(of: host.table))
    return host
  }
}

/// Every open table, spread over a fixed number of shards by table number.
struct TableShards: Sendable {
  var shards: [TableShard]
  /// How many shards there are (``index(of:)`` needs only this, even while they are lent).
  let count: Int
  /// Whether the shards are lent to a shell (``LobbyState/lendShards()``): `shards` is then
  /// empty, and nothing but a move's ticket may be asked of the lobby until they are back.
  var lent = false

  init(count: Int) {
    self.count = max(1, count)
    shards = Array(repeating: TableShard(), count: self.count)
  }

  /// The shard that holds (or would hold) table `id`.
  func index(of id: String) -> Int {
    guard count > 1 else { return 0 }
    var number = 0
    for byte in id.utf8 where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
      number = (number &* 10 &+ Int(byte - UInt8(ascii: "0"))) % count
    }
    return number
  }

  /// The table with `id` and its members (a copy of its host: every map it holds).
  subscript(id: String) -> TableHost? {
    shards[index(of: id)].hosts[id]
  }

  /// Opens `host`'s table in its shard.
  mutating func insert(_ host: TableHost) {
    shards[index(of: host.table.id)].insert(host)
  }

  /// Runs `body` on the host of table `id` where it is stored, or returns nil when no such
  /// table is open.
  mutating func withHost<Result>(_ id: String, _ body: (inout TableHost) -> Result) -> Result? {
    shards[index(of: id)].withHost(id, body)
  }

  /// How many open tables there are by game and phase: the shards' tallies, kept as tables
  /// change, added up (a few counts a shard, whatever the number of tables).
  var tally: TableTally {
    var all = TableTally()
    for shard in shards { all.merge(shard.tally) }
    return all
  }

  /// What `body` reads of table `id`'s game, read where its host is stored, or nil when no
  /// such table is open. `mutating` only for that in-place access (nothing changes): `self[id]`
  /// copies the host out, every map it holds.
  mutating func readTable<Result>(_ id: String, _ body: (any TableArbiter) -> Result) -> Result? {
    withHost(id) { body($0.table) }
  }

  /// Whether table `id` is open (without copying its host out).
  func contains(_ id: String) -> Bool {
    shards[index(of: id)].hosts.index(forKey: id) != nil
  }

  @discardableResult
  mutating func removeValue(forKey id: String) -> TableHost? {
    shards[index(of: id)].removeValue(forKey: id)
  }

  /// How many tables are open.
  var tableCount: Int { shards.reduce(0) { $0 + $1.hosts.count } }

  /// Every open table's id.
  var keys: [String] { shards.flatMap { $0.hosts.keys } }
}
