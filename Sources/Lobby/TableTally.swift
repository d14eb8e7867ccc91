import Protocol

/// How many open tables there are of each game in each phase, kept as tables open, change and
/// close (``TableShard``), so that the metrics' tables gauge reads a few counts rather than
/// every table: at 10,000 tables a count table by table took 1.2-1.6 ms of the service thread
/// twice a second, under the sharded lobby's exclusive hold (docs/BENCHMARKS.md, "The tables
/// counted as they change").
///
/// Meant for few distinct kinds (the games times the phases): they are found by a linear
/// search, which costs less than hashing a game's name. A kind once seen stays, at 0 when no
/// table of it is left (the gauge then says 0).
public struct TableTally: Equatable, Sendable {
  /// A table's game and phase.
  public struct Kind: Hashable, Sendable {
    /// The game's wire name (``TableArbiter/gameName``).
    public var game: String
    /// The table's phase.
    public var phase: TablePhase

    public init(game: String, phase: TablePhase) {
      self.game = game
      self.phase = phase
    }

    /// The kind of `table` now.
    init(of table: any TableArbiter) {
      self.init(game: table.gameName, phase: table.phase)
    }
  }

  /// One kind and how many open tables are of it.
  public struct Count: Equatable, Sendable {
    public var kind: Kind
    public var tables: Int
  }

  /// Every kind seen, in the order first seen, with its tables (0 once none is left).
  public private(set) var counts: [Count] = []

  public init() {}

  /// The open tables of `kind`.
  public func tables(of kind: Kind) -> Int {
    counts.first { $0.kind == kind }?.tables ?? 0
  }

  /// All the open tables counted.
  public var total: Int { counts.reduce(0) { $0 + $1.tables } }

  /// A table of `kind` opened.
  mutating func add(_ kind: Kind, tables: Int = 1) {
    if let slot = counts.firstIndex(where: { $0.kind == kind }) {
      counts[slot].tables += tables
    } else {
      counts.append(Count(kind: kind, tables: tables))
    }
  }

  /// A table of `kind` closed.
  mutating func remove(_ kind: Kind) {
    add(kind, tables: -1)
  }

  /// A table went from `before` to `after` (nothing to do when they are the same, as they are
  /// for almost every change).
  mutating func change(from before: Kind, to after: Kind) {
    guard before != after else { return }
    remove(before)
    add(after)
  }

  /// These counts and `other`'s together (the shards' tallies into the lobby's).
  mutating func merge(_ other: TableTally) {
    for count in other.counts { add(count.kind, tables: count.tables) }
  }
}
