import Protocol

/// The tables of one shard, and the moves decided on them.
///
/// Table `tN` lives in shard `N % count`. A shard is a reference, so that a concurrent shell can
/// let one thread decide a move on a table of one shard while another thread decides a move on
/// a table of another, each holding only its shard's lock (``LobbyState/moveTicket(of:)``,
/// ``LobbyState/choose(_:replyTo:from:ticket:now:)``): a value could not be changed in two
/// places at once without unsafe pointers.
///
/// Who owns it: the one ``LobbyState`` that made it (``TableShards/init(count:)`` is its only
/// maker). A copy of that state shares its shards, so the rule is one state per owner: each
/// shell keeps the one it was given and never copies it out (the inline shell works on it
/// through `inout`, the sharded one under its locks); a test that copies a state uses only the
/// copy from then on. Only ``LobbyState/choose(_:replyTo:from:ticket:now:)`` changes a shard
/// without a `mutating` call, under the lock its ticket names.
final class TableShard: @unchecked Sendable {
  var hosts: [String: TableHost] = [:]
  /// Moves this shard's tables accepted.
  var movesAccepted = 0
  /// Moves refused at this shard's tables, by the code of the error sent back.
  var movesRejected: [ErrorCode: Int] = [:] {
    didSet { movesDecided += 1 }
  }
  /// Moves decided here, accepted or refused (a cheap "did anything change" for metrics).
  var movesDecided = 0

  /// Runs `body` on the host of table `id` where it is stored (one look-up, no copy of the
  /// host), or returns nil when the shard has no such table.
  func withHost<Result>(_ id: String, _ body: (inout TableHost) -> Result) -> Result? {
    guard let index = hosts.index(forKey: id) else { return nil }
    return body(&hosts.values[index])
  }
}

/// Every open table, spread over a fixed number of shards by table number.
struct TableShards: Sendable {
  let shards: [TableShard]

  init(count: Int) {
    shards = (0..<max(1, count)).map { _ in TableShard() }
  }

  /// The shard that holds (or would hold) table `id`.
  func index(of id: String) -> Int {
    guard shards.count > 1 else { return 0 }
    var number = 0
    for byte in id.utf8 where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
      number = (number &* 10 &+ Int(byte - UInt8(ascii: "0"))) % shards.count
    }
    return number
  }

  /// The table with `id` and its members.
  subscript(id: String) -> TableHost? {
    get { shards[index(of: id)].hosts[id] }
    nonmutating _modify { yield &shards[index(of: id)].hosts[id] }
  }

  /// Runs `body` on the host of table `id` where it is stored, or returns nil when no such
  /// table is open.
  func withHost<Result>(_ id: String, _ body: (inout TableHost) -> Result) -> Result? {
    shards[index(of: id)].withHost(id, body)
  }

  /// Whether table `id` is open (without copying its host out).
  func contains(_ id: String) -> Bool {
    shards[index(of: id)].hosts.index(forKey: id) != nil
  }

  @discardableResult
  func removeValue(forKey id: String) -> TableHost? {
    shards[index(of: id)].hosts.removeValue(forKey: id)
  }

  /// How many tables are open.
  var count: Int { shards.reduce(0) { $0 + $1.hosts.count } }

  /// Every open table's id.
  var keys: [String] { shards.flatMap { $0.hosts.keys } }
}
