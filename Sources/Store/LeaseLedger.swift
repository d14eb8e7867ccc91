/// The shared database's rules for who holds a table, as a pure value: what
/// `journal_write`, ``PostgresClusterLink/takeOver(lease:limit:only:)`` and ``PostgresJournalStore/renewLeases()``
/// decide in SQL (the schema's version 5), so that tests can drive those decisions without a
/// database and the SQL can be read against them.
///
/// - A node holds a **lease** until it runs out (`lease` seconds after its last renewal).
/// - A table has an **owner** and an **epoch**. A table whose owner's lease ran out (or that
///   nobody owns) may be taken over by a live node: it becomes that node's at the next epoch.
/// - A **write** by a node names the epoch at which it holds each table it touches (none for a
///   table it makes). It is refused, whole, if any of them is another node's now, is held at
///   another epoch, or is gone; the refusal names those tables. An expired lease alone refuses
///   nothing: a node that nobody took over from (a short outage) writes on.
public struct LeaseLedger: Sendable, Hashable {
  /// A table's row: its owner (nil: nobody's) and epoch.
  public struct Table: Sendable, Hashable {
    public var owner: String?
    public var epoch: Int
  }

  /// Every table, by id.
  public private(set) var tables: [String: Table] = [:]
  /// Each node's lease: until when it holds its tables without renewing.
  public private(set) var leases: [String: Double] = [:]
  /// Since when each node has renewed without a gap (a renewal that finds its lease run out
  /// starts it again): `cluster_node.alive_since`.
  public private(set) var aliveSince: [String: Double] = [:]
  /// Seconds a lease lasts.
  public let lease: Double

  /// An empty ledger with leases of `lease` seconds.
  public init(lease: Double) {
    self.lease = lease
  }

  /// `node` renews its lease at `now`; after a gap (its lease had run out) its unbroken
  /// renewals start again.
  public mutating func renew(_ node: String, now: Double) {
    if aliveSince[node] == nil || (leases[node] ?? -.infinity) < now { aliveSince[node] = now }
    leases[node] = now + lease
  }

  /// Whether `node`'s lease is live at `now` (nobody's never is).
  public func isLive(_ node: String?, now: Double) -> Bool {
    guard let node, let until = leases[node] else { return false }
    return until > now
  }

  /// A write by `node` touching `touched`: for each table, the epoch at which the node holds it,
  /// or nil for a table it makes. Returns the tables refused (nothing is written then), or
  /// applies the write (new tables are the node's at epoch 1) and returns none.
  public mutating func write(by node: String, touched: [String: Int?]) -> [String] {
    var refused: [String] = []
    for (id, held) in touched {
      if let row = tables[id] {
        if row.owner != node || (held.map { $0 != row.epoch } ?? false) { refused.append(id) }
      } else if held != nil {
        refused.append(id)
      }
    }
    guard refused.isEmpty else { return refused.sorted() }
    for (id, _) in touched where tables[id] == nil { tables[id] = Table(owner: node, epoch: 1) }
    return []
  }

  /// `node` takes over, at `now`, every table (or only those of `only`) whose owner's lease ran
  /// out or that nobody owns: each becomes its own at the next epoch. Returns the epochs. With a
  /// `grace`, a lease counts as run out only once `node`'s latest renewal is past its end and
  /// at least `grace` after `node`'s unbroken renewals began
  /// (``PostgresClusterLink/takeOver(lease:grace:limit:only:games:)``).
  public mutating func takeOver(
    by node: String, now: Double, only: Set<String>? = nil, grace: Double? = nil
  ) -> [String: Int] {
    var taken: [String: Int] = [:]
    for (id, row) in tables where row.owner != node && (only?.contains(id) ?? true) {
      guard !isLive(row.owner, now: now) else { continue }
      if let grace, let owner = row.owner, let until = leases[owner] {
        guard let mine = leases[node], let since = aliveSince[node],
          mine - lease >= max(until, since + grace)
        else { continue }
      }
      tables[id] = Table(owner: node, epoch: row.epoch + 1)
      taken[id] = row.epoch + 1
    }
    return taken
  }

  /// `node` closes cleanly: its tables are nobody's, free at once, and its lease is gone.
  public mutating func free(_ node: String) {
    for (id, row) in tables where row.owner == node { tables[id]?.owner = nil }
    leases[node] = nil
  }

  /// Table `id` closed: its row is gone.
  public mutating func close(_ id: String) {
    tables[id] = nil
  }
}
