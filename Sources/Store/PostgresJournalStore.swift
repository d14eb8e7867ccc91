import Foundation
import Lobby
import Logging
import Model
import PostgresNIO
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
/// **Leases.** A table belongs to one server at a time: its row names the ``owner`` and holds
/// the lease until `lease_until` (the database's clock, so servers' clocks do not matter).
/// ``load()`` takes only the open tables whose lease is free (nobody's, or ``owner``'s own) or
/// has run out, and claims them for ``lease`` seconds; writes renew the caller's leases once a
/// third of the time has gone, and ``startLeaseRenewal()`` renews them while no write comes. A
/// write that touches a table whose live lease is another server's fails: a server that lost a
/// table (it could not reach the database for longer than the lease, and another took it) never
/// overwrites the new owner's game. Sessions follow their tables: ``load()`` takes the sessions
/// at the tables it took, and those at no table whose last writer holds no live lease. A clean
/// ``close()`` frees the leases at once. The owner is a name stable across restarts of the same
/// server (the server uses its host name and port), so a restarted server takes its own tables
/// back at once, while others wait for the lease.
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
/// **Threads.** The store is synchronous, as ``JournalStore`` is: each call waits for
/// postgres-nio's futures, which complete on an event loop thread of NIO's own, never on Swift
/// concurrency's pool, so a call blocks only its caller, whatever thread that is (but never an
/// event loop thread). One connection, made when first needed and made again after it is lost;
/// every query has a time limit, after which the connection is closed.
public final class PostgresJournalStore: JournalStore, @unchecked Sendable {
  /// The database.
  public let location: PostgresLocation
  /// The name this server holds its leases under.
  public let owner: String
  /// Seconds a lease lasts unless renewed.
  public let lease: Double
  /// What a commit waits for (see the type's documentation).
  public let durability: Durability

  /// How many table numbers each ``load()`` reserves.
  public static let tableBlock = 1_000_000_000_000
  /// Longest a connection may take to open.
  static let connectTimeout: TimeAmount = .seconds(5)
  /// Longest a query may take before its connection is closed.
  static let queryTimeout: TimeAmount = .seconds(10)

  private let configuration: PostgresConnection.Configuration
  private let logger: Logger
  private let connection = Mutex<PostgresConnection?>(nil)
  private let connections = Atomic<Int>(0)
  private let closed = Atomic<Bool>(false)
  private let encoder = JSONEncoder()
  private let decoder = JSONDecoder()

  /// Connects to the database at `location` and brings its schema up to date. Throws a
  /// ``StoreError`` saying what is wrong: a server that cannot be reached, a refused login, a
  /// missing database, a schema from a newer version.
  ///
  /// - Parameters:
  ///   - owner: the name leases are held under: the same for the same server across restarts,
  ///     different for every server sharing the database.
  ///   - lease: seconds a table stays this server's without a renewal.
  public init(
    location: PostgresLocation, owner: String, lease: Double = 30,
    durability: Durability = .process, logger: Logger = Logger(label: "journal.postgres")
  ) throws {
    precondition(lease > 0, "a lease must last")
    self.location = location
    self.owner = owner
    self.lease = lease
    self.durability = durability
    self.logger = logger
    var configuration = PostgresConnection.Configuration(
      host: location.host, port: location.port, username: location.username,
      password: location.password, database: location.database, tls: .disable)
    configuration.options.connectTimeout = Self.connectTimeout
    configuration.options.additionalStartupParameters = [
      ("synchronous_commit", durability == .full ? "on" : "off"),
      ("application_name", "matchismo"),
    ]
    self.configuration = configuration
    try perform("cannot use the journal at \(location)") { connection in
      try migrate(on: connection)
    }
  }

  deinit {
    if let open = connection.withLock({ $0 }) { Self.closeSoon(open) }
  }

  // MARK: - JournalStore

  public func load() throws -> JournalContents {
    try perform("cannot load the journal from \(location)") { connection in
      try transaction(on: connection) {
        var contents = JournalContents()
        let block =
          try run("SELECT nextval('table_block')", on: connection).first?
          .decode(Int.self) ?? 0
        // Claimed and read in one statement: another server starting now skips these rows.
        let claimed = try run(
          """
          UPDATE game_table SET owner = \(owner), lease_until = now() + make_interval(secs => \(lease))
          WHERE open AND (owner IS NULL OR owner = \(owner) OR lease_until IS NULL
            OR lease_until < now())
          RETURNING number, record
          """, on: connection
        ).map { row in
          let (number, text) = try row.decode((Int, String).self)
          return (number, try decoder.decode(TableRecord.self, from: Data(text.utf8)))
        }
        var moves: [String: [JournalMove]] = [:]
        for row in try run(
          """
          SELECT m.table_id, m.deal, m.idx, m.kind, m.seat, m.card, m.at, m.version
          FROM move m JOIN game_table t ON t.id = m.table_id AND t.deal = m.deal
          WHERE t.owner = \(owner) AND t.open ORDER BY m.table_id, m.idx
          """, on: connection)
        {
          let (table, deal, index, kind, seat, card, at, version) = try row.decode(
            (String, Int, Int, Int, Int, Int, Double, Int).self)
          moves[table, default: []].append(
            JournalMove(
              table: table, deal: deal, index: index,
              move: Move(kind: kind, seat: seat, card: card), at: at, version: version))
        }
        contents.tables = claimed.sorted { $0.0 < $1.0 }.map { ($0.1, moves[$0.1.id] ?? []) }
        _ = try run(
          """
          UPDATE session s SET owner = \(owner)
          WHERE s.owner IS DISTINCT FROM \(owner)
            AND NOT EXISTS (SELECT 1 FROM game_table g WHERE g.id = s.table_id AND g.open
              AND g.owner <> \(owner) AND g.lease_until > now())
            AND (s.owner IS NULL
              OR s.table_id IN (SELECT id FROM game_table WHERE owner = \(owner) AND open)
              OR NOT EXISTS (SELECT 1 FROM game_table g WHERE g.owner = s.owner AND g.open
                AND g.lease_until > now()))
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
        let highest =
          try run("SELECT COALESCE(MAX(number), 0) FROM game_table", on: connection)
          .first?.decode(Int.self) ?? 0
        let (start, overflow) = block.multipliedReportingOverflow(by: Self.tableBlock)
        guard !overflow else { throw StoreError("the sequence table_block is exhausted") }
        contents.lastTableNumber = max(highest, start)
        return contents
      }
    }
  }

  public func write(_ entries: [JournalEntry]) throws {
    guard !entries.isEmpty else { return }
    try perform("cannot write the journal to \(location)") { connection in
      let query = try writeQuery(JournalBatch(try withMovesFilledIn(entries, on: connection)))
      _ = try run(query, on: connection)
    }
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
            UPDATE game_table SET owner = NULL, lease_until = NULL WHERE owner = \(owner))
          UPDATE session SET owner = NULL WHERE owner = \(owner)
          """, on: connection)
      }
    } catch {
      logger.warning("\(error)")
    }
    if let open = connection.withLock({ $0.take() }) {
      let closing: EventLoopFuture<Void> = open.close()
      _ = try? closing.wait()
    }
  }

  // MARK: - Finished games

  public func scores(_ query: ScoresQuery) throws -> ScoresPage {
    if query.mine && query.player == nil { return ScoresPage(total: 0, games: []) }
    let mine = query.mine ? query.player : nil
    let order = query.orderBy
    return try perform("cannot read the finished games from \(location)") { connection in
      func games(_ order: String, limit: Int, offset: Int = 0) throws -> [FinishedGame] {
        try run(
          """
          SELECT number, record FROM finished_game
          WHERE game = \(query.game) AND (\(mine)::TEXT IS NULL OR number IN
            (SELECT game_number FROM finished_player WHERE player = \(mine)))
          ORDER BY \(unescaped: order) LIMIT \(limit) OFFSET \(offset)
          """, on: connection
        ).map { row in try kept(row) }
      }
      let total =
        try run(
          """
          SELECT COUNT(*) FROM finished_game
          WHERE game = \(query.game) AND (\(mine)::TEXT IS NULL OR number IN
            (SELECT game_number FROM finished_player WHERE player = \(mine)))
          """, on: connection
        ).first?.decode(Int.self) ?? 0
      return ScoresPage(
        total: total,
        games: try games(order, limit: query.pageSize, offset: query.page * query.pageSize),
        best: try games("score DESC, ended_at ASC, number ASC", limit: 1).first,
        shortest: try games("seconds ASC, ended_at ASC, number ASC", limit: 1).first)
    }
  }

  public func finishedGame(id: String) throws -> FinishedGame? {
    guard let number = FinishedGame.number(ofID: id) else { return nil }
    return try perform("cannot read the finished games from \(location)") { connection in
      try run(
        "SELECT number, record FROM finished_game WHERE number = \(number)", on: connection
      ).first.map { row in try kept(row) }
    }
  }

  public func removeFinishedGames(endedBefore cutoff: Double, limit: Int) throws -> Int {
    // One statement, so one short transaction, on the writer's connection as lease renewals
    // are: a journal write queued behind it waits for one batch at most.
    try perform("cannot remove finished games from \(location)") { connection in
      try run(
        """
        WITH old AS (
          SELECT number FROM finished_game WHERE ended_at < \(cutoff)
          ORDER BY ended_at LIMIT \(max(0, limit))),
        players AS (
          DELETE FROM finished_player WHERE game_number IN (SELECT number FROM old))
        DELETE FROM finished_game WHERE number IN (SELECT number FROM old) RETURNING number
        """, on: connection
      ).reduce(0) { count, _ in count + 1 }
    }
  }

  /// A kept game from its row (number, record).
  private func kept(_ row: PostgresRow) throws -> FinishedGame {
    let (number, record) = try row.decode((Int, String).self)
    return try FinishedGame.kept(number: number, record: record, decoder: decoder)
  }

  // MARK: - Leases

  /// Renews the leases of every open table this server holds, for ``lease`` seconds from now.
  public func renewLeases() throws {
    try perform("cannot renew the leases in \(location)") { connection in
      _ = try run(
        """
        UPDATE game_table SET lease_until = now() + make_interval(secs => \(lease))
        WHERE owner = \(owner) AND open
        """, on: connection)
    }
  }

  /// Renews the leases every third of ``lease`` on a thread of its own, until ``close()``, so
  /// that a server with nothing to write keeps its tables. A failure is logged and the next
  /// renewal tried as usual.
  public func startLeaseRenewal() {
    let thread = Thread { [self] in
      while true {
        Thread.sleep(forTimeInterval: lease / 3)
        if closed.load(ordering: .relaxed) { return }
        do {
          try renewLeases()
        } catch {
          logger.warning("\(error)")
        }
      }
    }
    thread.name = "journal-leases"
    thread.start()
  }

  // MARK: - Statements

  /// The one statement that writes `batch` (see ``JournalBatch`` and `journal_write`).
  private func writeQuery(_ batch: JournalBatch) throws -> PostgresQuery {
    var tableIDs: [String] = []
    var numbers: [Int] = []
    var opens: [Bool] = []
    var deals: [Int] = []
    var records: [String] = []
    for id in batch.tables.keys.sorted() {
      guard let (record, open) = batch.tables[id] else { continue }
      tableIDs.append(id)
      numbers.append(JournalEntry.number(of: id))
      opens.append(open)
      deals.append(record.deal)
      records.append(String(decoding: try encoder.encode(record), as: UTF8.self))
    }
    let closedIDs = batch.closed.sorted()
    let cleared = batch.deleteBelow.keys.sorted()
    let below = cleared.map { batch.deleteBelow[$0] ?? 0 }
    let moves = batch.orderedMoves
    let rows = moves.map(\.move.row)
    var tokens: [String] = []
    var names: [String] = []
    var sessionTables: [String] = []
    var seats: [Int] = []
    var players: [String] = []
    var ended: [String] = []
    for token in batch.sessions.keys.sorted() {
      guard let session = batch.sessions[token] ?? nil else {
        ended.append(token)
        continue
      }
      // Arrays carry no NULLs here: '' and -1 stand for none (`journal_write` turns them back).
      tokens.append(token)
      names.append(session.name)
      sessionTables.append(session.tableID ?? "")
      seats.append(session.seat ?? -1)
      players.append(session.player ?? "")
    }
    let finished = batch.finished
    let finishedRecords = try finished.map {
      String(decoding: try encoder.encode($0), as: UTF8.self)
    }
    // A game's players' hashes (hex), separated by spaces.
    let finishedPlayers = finished.map { $0.players.compactMap(\.player).joined(separator: " ") }
    return """
      SELECT journal_write_v3(\(owner), \(lease),
        \(tableIDs), \(numbers), \(opens), \(deals), \(records),
        \(closedIDs),
        \(cleared), \(below),
        \(moves.map(\.table)), \(moves.map(\.deal)), \(moves.map(\.index)), \(rows.map { $0.kind }),
        \(moves.map(\.move.seat)), \(rows.map { $0.card }), \(moves.map(\.at)), \(moves.map(\.version)),
        \(tokens), \(names), \(sessionTables), \(seats), \(players),
        \(ended),
        \(finished.map(\.source)), \(finished.map(\.game)), \(finished.map(\.endedAt)),
        \(finished.map(\.seconds)), \(finished.map(\.score)), \(finishedRecords),
        \(finishedPlayers))
      """
  }

  /// Brings the schema up to the last of ``migrations``, each version in a transaction of its
  /// own; refuses a database of a newer version.
  private func migrate(on connection: PostgresConnection) throws {
    _ = try run(
      """
      CREATE TABLE IF NOT EXISTS schema_version (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied TIMESTAMPTZ NOT NULL DEFAULT now()
      )
      """, on: connection)
    let latest = Self.migrations.last?.version ?? 0
    for migration in Self.migrations {
      let applied = try transaction(on: connection) { () throws -> Bool in
        // One server migrates at a time; the others wait here, then find the work done.
        _ = try run("LOCK TABLE schema_version IN SHARE ROW EXCLUSIVE MODE", on: connection)
        let current =
          try run("SELECT COALESCE(MAX(version), 0) FROM schema_version", on: connection)
          .first?.decode(Int.self) ?? 0
        guard current <= latest else {
          throw StoreError(
            "the database's schema is version \(current), newer than this server's (\(latest))")
        }
        guard current < migration.version else { return false }
        for statement in migration.statements {
          _ = try run(PostgresQuery(unsafeSQL: statement), on: connection)
        }
        _ = try run(
          """
          INSERT INTO schema_version (version, name)
          VALUES (\(migration.version), \(migration.name))
          """, on: connection)
        return true
      }
      if applied {
        logger.notice("journal schema version \(migration.version): \(migration.name)")
      }
    }
  }

  // MARK: - Connection

  /// Runs `body` on the connection (made first if there is none), once more on a new
  /// connection if the one it had was lost (the server restarted since), and turns whatever it
  /// throws into a ``StoreError`` that begins with `failure`.
  private func perform<T>(_ failure: String, _ body: (PostgresConnection) throws -> T) throws
    -> T
  {
    var retried = false
    while true {
      let current: PostgresConnection
      let fresh: Bool
      do {
        (current, fresh) = try connected()
      } catch {
        throw StoreError("\(failure): \(Self.reason(error))")
      }
      do {
        return try body(current)
      } catch {
        let lost = current.isClosed || Self.losesConnection(error)
        if lost { drop(current) }
        if lost && !fresh && !retried {
          retried = true
          logger.warning(
            "journal: lost the connection to \(location) (\(Self.reason(error))); connecting again")
          continue
        }
        throw StoreError("\(failure): \(Self.reason(error))")
      }
    }
  }

  /// The open connection, or a new one; whether it is new. A new one must be ready within
  /// ``connectTimeout``, the server's startup answer included (postgres-nio bounds both).
  private func connected() throws -> (PostgresConnection, Bool) {
    try connection.withLock { current in
      if let open = current, !open.isClosed { return (open, false) }
      let made = try PostgresConnection.connect(
        on: PostgresConnection.defaultEventLoopGroup.next(), configuration: configuration,
        id: connections.add(1, ordering: .relaxed).newValue, logger: logger
      ).wait()
      current = made
      return (made, true)
    }
  }

  /// Forgets `lost` (if it is still the connection) and closes it.
  private func drop(_ lost: PostgresConnection) {
    connection.withLock { current in
      if current === lost { current = nil }
    }
    Self.closeSoon(lost)
  }

  /// Closes `connection` without waiting for it (but keeps it until it is closed, as
  /// postgres-nio requires).
  private static func closeSoon(_ connection: PostgresConnection) {
    let closing: EventLoopFuture<Void> = connection.close()
    closing.whenComplete { _ in withExtendedLifetime(connection) {} }
  }

  /// Runs `query` and waits for all its rows; closes the connection if no answer comes within
  /// ``queryTimeout``.
  private func run(_ query: PostgresQuery, on connection: PostgresConnection) throws
    -> PostgresQueryResult
  {
    let answer = connection.query(query, logger: logger)
    let expired = TimeoutFlag()
    let timer = connection.eventLoop.scheduleTask(in: Self.queryTimeout) {
      expired.value.store(true, ordering: .relaxed)
      Self.closeSoon(connection)
    }
    defer { timer.cancel() }
    do {
      return try answer.wait()
    } catch  where expired.value.load(ordering: .relaxed) {
      throw StoreError("no answer within \(Self.queryTimeout.nanoseconds / 1_000_000_000) s")
    }
  }

  /// Runs `body` between `BEGIN` and `COMMIT` (with `synchronous_commit` on: claims and schema
  /// changes are rare and must not be lost), or rolls back what it did and rethrows.
  private func transaction<T>(on connection: PostgresConnection, _ body: () throws -> T) throws
    -> T
  {
    _ = try run("BEGIN", on: connection)
    do {
      _ = try run("SET LOCAL synchronous_commit = on", on: connection)
      let value = try body()
      _ = try run("COMMIT", on: connection)
      return value
    } catch {
      _ = try? run("ROLLBACK", on: connection)
      throw error
    }
  }

  /// The value of the setting `name` on the store's connection (for tests).
  func setting(_ name: String) throws -> String {
    try perform("cannot read \(name)") { connection in
      try run("SELECT current_setting(\(name))", on: connection).first?.decode(String.self) ?? ""
    }
  }

  /// How many table rows and move rows the database holds (for tests).
  func rowCounts() throws -> (tables: Int, moves: Int) {
    try perform("cannot count rows") { connection in
      try run(
        "SELECT (SELECT COUNT(*) FROM game_table), (SELECT COUNT(*) FROM move)", on: connection
      ).first?.decode((Int, Int).self) ?? (0, 0)
    }
  }

  /// Runs `sql` as it is (for tests).
  func execute(_ sql: String) throws {
    try perform("cannot run \(sql)") { connection in
      _ = try run(PostgresQuery(unsafeSQL: sql), on: connection)
    }
  }

  // MARK: - Errors

  /// Whether `error` means the connection is gone (rather than a statement refused).
  static func losesConnection(_ error: any Error) -> Bool {
    switch error {
    case let error as PSQLError:
      guard error.code == .server else { return true }
      // Connection exceptions and the server shutting down.
      let state = error.serverInfo?[.sqlState] ?? ""
      return state.hasPrefix("08") || state.hasPrefix("57P")
    case is StoreError, is PostgresDecodingError, is DecodingError, is EncodingError:
      return false
    default:
      return true
    }
  }

  /// What went wrong, in words for an operator: the server's message, or why the connection
  /// failed. Never the query or its values.
  static func reason(_ error: any Error) -> String {
    switch error {
    case let error as StoreError:
      return error.message
    case let error as PSQLError:
      if let info = error.serverInfo {
        let message = info[.message] ?? "an error"
        return info[.sqlState].map { "\(message) (SQLSTATE \($0))" } ?? message
      }
      if let underlying = error.underlying { return reason(underlying) }
      switch error.code {
      case .serverClosedConnection, .uncleanShutdown: return "the server closed the connection"
      case .clientClosedConnection: return "the connection was closed"
      default: return "\(error.code)"
      }
    case let error as IOError:
      return String(cString: strerror(error.errnoCode))
    case let error as NIOConnectionError:
      if let failure = error.connectionErrors.first { return "\(failure.error)" }
      if let failure = error.dnsAAAAError ?? error.dnsAError {
        return "cannot resolve \(error.host): \(failure)"
      }
      return "cannot connect to \(error.host):\(error.port)"
    case let error as PostgresDecodingError:
      return "unexpected \(error.postgresType) in column \(error.columnName)"
    default:
      return "\(error)"
    }
  }
}

/// Whether a query's time ran out (set on the event loop, read by the waiting thread).
private final class TimeoutFlag: Sendable {
  let value = Atomic<Bool>(false)
}
