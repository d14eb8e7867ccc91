import PostgresNIO
import Synchronization

extension PostgresJournalStore {
  /// Runs `body` on the connection (made first if there is none), once more on a new
  /// connection if the one it had was lost (the server restarted since), and turns whatever it
  /// throws into a ``StoreError`` that begins with `failure`.
  func perform<T>(_ failure: String, _ body: (PostgresConnection) throws -> T) throws
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
  static func closeSoon(_ connection: PostgresConnection) {
    let closing: EventLoopFuture<Void> = connection.close()
    closing.whenComplete { _ in withExtendedLifetime(connection) {} }
  }

  /// Runs `query` and waits for all its rows; closes the connection if no answer comes within
  /// ``queryTimeout``.
  func run(_ query: PostgresQuery, on connection: PostgresConnection) throws
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
  func transaction<T>(on connection: PostgresConnection, _ body: () throws -> T) throws
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

  // MARK: - For tests

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
}

/// Whether a query's time ran out (set on the event loop, read by the waiting thread).
private final class TimeoutFlag: Sendable {
  let value = Atomic<Bool>(false)
}
