import Foundation
import Lobby
import Logging
import Model
import Protocol
import Synchronization

/// The journal on a PostgreSQL server (`--database postgres://user:password@host:port/name`):
/// the records of the embedded store (a row per table, per move of a table's current deal, per
/// session), in a database that several server processes can share.
///
/// **Table ids.** A server numbers its tables itself, after ``JournalContents/lastTableNumber``.
/// Here every ``load()`` takes the next value of the sequence `table_block`, `b`, and returns
/// `b` × ``tableBlock`` (or the highest number stored, if that is higher): each start of a
/// server numbers its new tables in a range of a million million of its own
/// (`t1000000000001`, … for the first start, `t2000000000001`, … for the second), so ids never
/// clash across servers and restarts, with no round trip when a table opens.
///
/// **Leases.** A table belongs to one server at a time: its row names the ``owner``, and the
/// owner's one lease (its row of `cluster_node`, until `lease_until`, by the database's clock so
/// that servers' clocks do not matter; a test gives the store a ``LeaseClock`` of its own and
/// moves it on), renewed by ``startLeaseRenewal()`` off the write path, says whether it is still
/// alive. ``load()`` takes only the open tables that are nobody's, ``owner``'s own, or a node's
/// whose lease has run out. A write is fenced (``writeMigration``): one that touches a table
/// another server holds, or holds at a later epoch, is refused whole (``FencedTables``), so a
/// server that lost a table (it could not reach the database for longer than the lease, and
/// another took it) never overwrites the new owner's game. Sessions follow their tables:
/// ``load()`` takes the sessions at the tables it took, and those at no table whose last writer
/// holds no live lease. A clean ``close()`` frees the leases at once. The owner is a name stable
/// across restarts of the same server (the server uses its host name and port), so a restarted
/// server takes its own tables back at once, while others wait for the lease.
///
/// **Durability.** Set per connection with `synchronous_commit`. ``Durability/full``: `on`, a
/// commit is flushed to the database server's disk (and to its synchronous standbys, if any)
/// before it is acknowledged: it survives a power loss. ``Durability/process``: `off`, the
/// server acknowledges a commit once it is in its WAL buffers; an acknowledged commit is the
/// database server's, so it survives any crash of this process (the promise `process` makes),
/// and is lost only if the database server itself crashes within about 0.6 s
/// (3 × `wal_writer_delay`), never half applied.
///
/// **Round trips.** A ``write(_:)`` is one statement (`SELECT journal_write(…)`, a function of
/// the schema) and so one transaction and one round trip, whatever the number of entries: the
/// entries are folded into a ``JournalBatch`` and sent as one array per column. (A batch that
/// keeps a game longer than a table's move log first reads that deal's stored moves: one more
/// round trip, once per such game.) A batch applied
/// twice has the effect of applying it once, so the journal writer's retry after an uncertain
/// failure (a connection lost while a commit was under way) is safe.
///
/// **Threads.** The store is synchronous, as ``JournalStore`` is: each call waits on libpq
/// (``PostgresConnection``), blocking only its caller, and callers take turns. One connection,
/// made when first needed and made again after it is lost; every query has a time limit, after
/// which the connection is closed.
public final class PostgresJournalStore: JournalStore, @unchecked Sendable {
  /// The database.
  public let location: PostgresLocation
  /// The name this server holds its leases under.
  public let owner: String
  /// Seconds a lease lasts unless renewed.
  public let lease: Double
  /// Seconds between two renewals of the lease.
  public let renewal: Double
  /// What a commit waits for (see the type's documentation).
  public let durability: Durability
  /// The time leases are decided at: the database's clock, unless a test gives its own.
  public let clock: LeaseClock

  /// How many table numbers each ``load()`` reserves.
  public static let tableBlock = 1_000_000_000_000

  /// The journal's connection.
  let connector: PostgresConnector
  /// The epoch at which this node holds each of its tables (`game_table.epoch`): claimed at
  /// start, taken over (``hold(_:)``), or made here (1). Every write says them, and is refused
  /// for a table held at another epoch or by another node (``FencedTables``).
  let heldEpochs = Mutex<[String: Int]>([:])
  /// Where lost connections, failed renewals and schema changes are reported.
  let logger: Logger
  /// Whether ``close()`` ran: the leases are freed once, and their renewal stops.
  let closed = Atomic<Bool>(false)
  /// Encodes arenas and the rating changes of finished games for their rows.
  let encoder = JSONEncoder()
  /// Decodes the records read back.
  let decoder = JSONDecoder()

  /// Connects to the database at `location` and brings its schema up to date. Throws a
  /// ``StoreError`` saying what is wrong: a server that cannot be reached, a refused login, a
  /// missing database, a schema from a newer version.
  ///
  /// - Parameters:
  ///   - owner: the name leases are held under: the same for the same server across restarts,
  ///     different for every server sharing the database.
  ///   - lease: seconds a table stays this server's without a renewal.
  ///   - renewal: seconds between two renewals (``startLeaseRenewal()``); a quarter of the
  ///     lease unless given.
  ///   - clock: the time leases are decided at (``LeaseClock``).
  ///   - schema: the version to bring the schema up to: the last, unless a test makes a database
  ///     as an older server left it.
  public convenience init(
    location: PostgresLocation, owner: String, lease: Double = 30, renewal: Double? = nil,
    durability: Durability = .process, clock: LeaseClock = .database,
    logger: Logger = Logger(label: "journal.postgres")
  ) throws {
    try self.init(
      location: location, owner: owner, lease: lease, renewal: renewal, durability: durability,
      clock: clock, logger: logger, schema: nil)
  }

  /// The `synchronous_commit` each durability level sets on the journal's connection.
  static func synchronousCommit(_ durability: Durability) -> String {
    switch durability {
    case .process: "off"
    case .full: "on"
    case .replica: "remote_write"
    }
  }

  init(
    location: PostgresLocation, owner: String, lease: Double = 30, renewal: Double? = nil,
    durability: Durability = .process, clock: LeaseClock = .database,
    logger: Logger = Logger(label: "journal.postgres"), schema: Int?
  ) throws {
    precondition(lease > 0, "a lease must last")
    self.location = location
    self.owner = owner
    self.lease = lease
    self.renewal = renewal ?? lease / 4
    self.durability = durability
    self.clock = clock
    self.logger = logger
    connector = PostgresConnector(
      location: location, startup: [("synchronous_commit", Self.synchronousCommit(durability))],
      role: "journal", logger: logger)
    try perform("cannot use the journal at \(location)") { connection in
      try migrate(on: connection, through: schema)
    }
  }

  // MARK: - JournalStore

  public func load() throws -> JournalContents {
    try perform("cannot load the journal from \(location)") { connection in
      try transaction(on: connection) {
        var contents = JournalContents()
        let block =
          try run("SELECT nextval('table_block')", on: connection).first?
          .decode(Int.self) ?? 0
        // This node's lease first: from now on its tables are its own.
        try renewLease(on: connection)
        // Claimed and read in one statement: another server starting now skips these rows.
        var epochs: [String: Int] = [:]
        let now = clock.sql
        let claimed = try run(
          """
          UPDATE game_table g SET owner = \(owner), epoch = g.epoch + 1,
            lease_until = \(unescaped: now) + make_interval(secs => \(lease))
          WHERE g.open AND (g.owner IS NULL OR g.owner = \(owner) OR NOT EXISTS (
            SELECT 1 FROM cluster_node n WHERE n.id = g.owner AND n.lease_until > \(unescaped: now)))
          RETURNING g.number, g.record, g.epoch
          """, on: connection
        ).map { row in
          let (number, text, epoch) = try row.decode((Int, String, Int).self)
          let record = try decoder.decode(TableRecord.self, from: Data(text.utf8))
          epochs[record.id] = epoch
          return (number, record)
        }
        let moves = try connector.currentDealMoves(of: claimed.map(\.1.id), on: connection)
        contents.tables = claimed.sorted { $0.0 < $1.0 }.map { ($0.1, moves[$0.1.id] ?? []) }
        _ = try run(
          """
          UPDATE session s SET owner = \(owner)
          WHERE s.owner IS DISTINCT FROM \(owner)
            AND NOT EXISTS (SELECT 1 FROM game_table g JOIN cluster_node n ON n.id = g.owner
              WHERE g.id = s.table_id AND g.open AND g.owner <> \(owner)
                AND n.lease_until > \(unescaped: now))
            AND (s.owner IS NULL
              OR s.table_id IN (SELECT id FROM game_table WHERE owner = \(owner) AND open)
              OR NOT EXISTS (SELECT 1 FROM cluster_node n WHERE n.id = s.owner
                AND n.lease_until > \(unescaped: now)))
          """, on: connection)
        contents.sessions = try run(
          """
          SELECT token, name, table_id, seat, player FROM session WHERE owner = \(owner)
          ORDER BY token COLLATE "C"
          """, on: connection
        ).map { row in
          let (token, name, table, seat, player) = try row.decode(
            (String, String, String?, Int?, String?).self)
          return SessionRecord(
            token: token, name: name, tableID: table, seat: seat, player: player)
        }
        contents.arenas = Arena.kept(
          try run(
            """
            SELECT record FROM arena WHERE owner = \(owner) AND NOT closed
            UNION ALL
            (SELECT record FROM arena WHERE closed ORDER BY ends DESC LIMIT \(ArenaBook.finishedKept))
            """, on: connection
          ).map { row in
            try JSONDecoder().decode(Arena.self, from: Data(try row.decode(String.self).utf8))
          })
        let highest =
          try run("SELECT COALESCE(MAX(number), 0) FROM game_table", on: connection)
          .first?.decode(Int.self) ?? 0
        let (start, overflow) = block.multipliedReportingOverflow(by: Self.tableBlock)
        guard !overflow else { throw StoreError("the sequence table_block is exhausted") }
        contents.lastTableNumber = max(highest, start)
        heldEpochs.withLock { $0 = epochs }
        return contents
      }
    }
  }

  public func write(_ entries: [JournalEntry]) throws {
    guard !entries.isEmpty else { return }
    let batch = try perform("cannot write the journal to \(location)") { connection in
      let batch = JournalBatch(try withMovesFilledIn(entries, on: connection))
      do {
        let rated = batch.finished.filter { !$0.ratedPlayers.isEmpty }
        if batch.arenas.isEmpty && rated.isEmpty {
          // Answered once committed: only then may its frames go.
          _ = try connector.runCommitted(try writeQuery(batch), on: connection)
        } else {
          // Rare (a rated game's end, an arena's change): the ratings and the arena's row in
          // the same transaction as the batch, as durable as the batch alone would be.
          try transaction(on: connection, synchronous: durability == .full) {
            _ = try run(try writeQuery(batch), on: connection)
            try rate(rated, on: connection)
            try write(batch.arenas.values.sorted { $0.id < $1.id }, on: connection)
          }
        }
      } catch let error as PostgresServerError where error.sqlState == "MJ002" {
        let tables = (error.detail ?? "").split(separator: ",").map(String.init)
        heldEpochs.withLock { held in for id in tables { held[id] = nil } }
        throw FencedTables(tables: tables)
      }
      return batch
    }
    // Tables made by this batch are held at epoch 1; closed ones are no longer held.
    heldEpochs.withLock { held in
      for (id, table) in batch.tables where table.open && held[id] == nil { held[id] = 1 }
      for (id, table) in batch.tables where !table.open { held[id] = nil }
      for id in batch.closed { held[id] = nil }
    }
  }

  /// The epochs at which this node holds those of `ids` it holds.
  func epochs(of ids: Set<String>) -> [String: Int] {
    heldEpochs.withLock { held in held.filter { ids.contains($0.key) } }
  }

  /// This node now holds these tables at these epochs (it took them over).
  public func hold(_ epochs: [String: Int]) {
    heldEpochs.withLock { $0.merge(epochs) { _, new in new } }
  }

  /// This node no longer holds these tables (another took them over).
  public func release(tables: [String]) {
    heldEpochs.withLock { held in for id in tables { held[id] = nil } }
  }

  /// `entries` with each ``JournalEntry/finishedInJournal(_:table:deal:)`` made a
  /// ``JournalEntry/finished(_:)`` whose moves are the deal's: those stored, then those of
  /// `entries` before it. Rare (a game longer than a table's log), so it costs a read before the
  /// write only then; the rows it reads are this server's tables' (the lease), which nobody else
  /// writes, and a batch written twice reads its own moves back with the same result.
  private func withMovesFilledIn(_ entries: [JournalEntry], on connection: PostgresConnection)
    throws -> [JournalEntry]
  {
    guard
      entries.contains(where: { if case .finishedInJournal = $0 { true } else { false } })
    else { return entries }
    var filled = entries
    for (position, entry) in entries.enumerated() {
      guard case .finishedInJournal(let game, let table, let deal) = entry else { continue }
      var moves: [Int: JournalMove] = [:]
      for row in try run(
        """
        SELECT idx, kind, seat, card, at FROM move WHERE table_id = \(table) AND deal = \(deal)
        """, on: connection)
      {
        let (index, kind, seat, card, at) = try row.decode((Int, Int, Int, Int, Double).self)
        moves[index] = JournalMove(
          table: table, deal: deal, index: index, move: Move(kind: kind, seat: seat, card: card),
          at: at, version: 0)
      }
      for case .move(let move) in entries[..<position]
      where move.table == table && move.deal == deal {
        moves[move.index] = move
      }
      filled[position] = .finished(game.withMoves(moves.values))
    }
    return filled
  }

  /// Frees this server's leases, so that another server may take its tables at once, and
  /// closes the connection. Later calls do nothing.
  public func close() {
    guard !closed.exchange(true, ordering: .relaxed) else { return }
    do {
      try perform("cannot free the leases in \(location)") { connection in
        _ = try run(
          """
          WITH tables AS (
            UPDATE game_table SET owner = NULL, lease_until = NULL WHERE owner = \(owner)),
          node AS (UPDATE cluster_node SET lease_until = NULL WHERE id = \(owner))
          UPDATE session SET owner = NULL WHERE owner = \(owner)
          """, on: connection)
      }
    } catch {
      logger.warning("\(error)")
    }
    connector.close()
  }
}
