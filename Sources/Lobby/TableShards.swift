import Protocol

/// The tables of one shard, and the moves decided on them: a value.
///
/// Table `tN` lives in shard `N % count`. A shell that decides moves on several threads at once
/// borrows the shards from the lobby (``LobbyState/lendShards()``), keeps each under a lock of
/// its own while it plays moves on it
/// (``LobbyState/choose(_:replyTo:from:ticket:in:now:)``), and gives them back
/// (``LobbyState/takeBack(_:)``) before anything else is decided.
public struct TableShard: Sendable {
  var hosts: [String: TableHost] = [:]
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
  /// host), or returns nil when the shard has no such table.
  mutating func withHost<Result>(_ id: String, _ body: (inout TableHost) -> Result) -> Result? {
    guard let index = hosts.index(forKey: id) else { return nil }
    return body(&hosts.values[index])
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

  /// The table with `id` and its members.
  subscript(id: String) -> TableHost? {
    get { shards[index(of: id)].hosts[id] }
    _modify { yield &shards[index(of: id)].hosts[id] }
  }

  /// Runs `body` on the host of table `id` where it is stored, or returns nil when no such
  /// table is open.
  mutating func withHost<Result>(_ id: String, _ body: (inout TableHost) -> Result) -> Result? {
    shards[index(of: id)].withHost(id, body)
  }

  /// How many open tables there are by `key` of each one's game, each host read where it is
  /// stored. `mutating` only for that in-place access (nothing changes): a host read out of its
  /// dictionary is a copy, a retain and a release of every map it holds (some 1,500
  /// instructions, callgrind), and the metrics count every table twice a second. Meant for few
  /// distinct keys (a game and a phase): they are found by a linear search, which costs less
  /// than hashing a game's name for each table.
  mutating func countTables<Key: Equatable>(by key: (any TableArbiter) -> Key) -> [(
    key: Key, count: Int
  )] {
    var counts: [(key: Key, count: Int)] = []
    func count(_ host: inout TableHost) {
      let key = key(host.table)
      if let seen = counts.firstIndex(where: { $0.key == key }) {
        counts[seen].count += 1
      } else {
        counts.append((key, 1))
      }
    }
    for shard in shards.indices {
      // Indices by hand: `hosts.indices` would hold a second reference to the storage, and the
      // access below would then copy it.
      var slot = shards[shard].hosts.startIndex
      while slot != shards[shard].hosts.endIndex {
        count(&shards[shard].hosts.values[slot])
        shards[shard].hosts.formIndex(after: &slot)
      }
    }
    return counts
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
    shards[index(of: id)].hosts.removeValue(forKey: id)
  }

  /// How many tables are open.
  var tableCount: Int { shards.reduce(0) { $0 + $1.hosts.count } }

  /// Every open table's id.
  var keys: [String] { shards.flatMap { $0.hosts.keys } }
}
