import Dispatch
import Logging
import PostgresNIO
import Synchronization

/// One connection to a PostgreSQL server, used synchronously: made when first needed, made
/// again after it is lost, every query bounded in time. The journal's store has one; a
/// cluster's link has its own, so that neither waits behind the other's queries.
///
/// Calls block their thread on postgres-nio's futures, which complete on NIO's own event loop
/// threads: a caller must not be one of those.
final class PostgresConnector: Sendable {
  /// The database.
  let location: PostgresLocation
  /// How to connect to each of the location's servers: the time limit to connect and the
  /// startup settings.
  let configurations: [PostgresConnection.Configuration]
  /// Where lost connections are reported.
  let logger: Logger
  /// What the log calls this connection's user ("journal", "cluster").
  let role: String
  /// The open connection, if any: made when first needed, forgotten when lost.
  private let connection = Mutex<PostgresConnection?>(nil)
  /// How many connections were made: the next one's id.
  private let connections = Atomic<Int>(0)
  /// The server tried first: the last one that was kept (the primary, with several).
  private let preferred = Atomic<Int>(0)
  /// The server last logged as the one kept, so that a switch is logged once.
  private let announced = Mutex<Int?>(nil)
  /// How many times a connection kept another server than the one kept before.
  let switches = Atomic<Int>(0)
  /// Longest a query may take before its connection is closed.
  static let queryTimeout: TimeAmount = .seconds(10)

  /// A connector to `location` with `startup` settings (`synchronous_commit` and the like).
  init(
    location: PostgresLocation, startup: [(String, String)], role: String, logger: Logger
  ) {
    self.location = location
    self.logger = logger
    self.role = role
    configurations = location.servers.map { server in
      var configuration = PostgresConnection.Configuration(
        host: server.host, port: server.port, username: location.username,
        password: location.password, database: location.database, tls: .disable)
      configuration.options.connectTimeout = .seconds(Int64(location.connectTimeout))
      configuration.options.additionalStartupParameters =
        startup + [("application_name", "matchismo")]
      return configuration
    }
  }

  deinit {
    if let open = connection.withLock({ $0 }) { Self.closeSoon(open) }
  }

  /// Runs `body` on the connection (made first if there is none), once more on a new
  /// connection if the one it had was lost (the server restarted since), and turns whatever it
  /// throws into a ``StoreError`` that begins with `failure`.
  func perform<T>(_ failure: String, _ body: (PostgresConnection) throws -> T) throws -> T {
    var retried = false
    while true {
      let current: PostgresConnection
      let fresh: Bool
      do {
        (current, fresh) = try connected()
      } catch {
        throw StoreError("\(failure): \(PostgresJournalStore.reason(error))")
      }
      do {
        return try body(current)
      } catch let fenced as FencedTables {
        // A refusal, not a failure: the connection is fine.
        throw fenced
      } catch {
        let lost = current.isClosed || PostgresJournalStore.losesConnection(error)
        if lost { drop(current) }
        if lost && !fresh && !retried {
          retried = true
          logger.warning(
            "\(role): lost the connection to \(location) (\(PostgresJournalStore.reason(error))); connecting again"
          )
          continue
        }
        throw StoreError("\(failure): \(PostgresJournalStore.reason(error))")
      }
    }
  }

  /// The open connection, or a new one; whether it is new. A new one must be ready within
  /// ``connectTimeout``, the server's startup answer included (postgres-nio bounds both).
  private func connected() throws -> (PostgresConnection, Bool) {
    try connection.withLock { current in
      if let open = current, !open.isClosed { return (open, false) }
      let made = try open()
      current = made
      return (made, true)
    }
  }

  /// A new connection to a server of the location that the location's target accepts: the
  /// servers are tried in turn, from the last one kept. Throws a ``StoreError`` naming what
  /// each server answered when none is kept. Logs which server is kept when it changes.
  func open() throws -> PostgresConnection {
    let count = configurations.count
    let first = preferred.load(ordering: .relaxed)
    var refusals: [String] = []
    for step in 0..<count {
      let index = (first + step) % count
      let server = location.servers[index]
      let made: PostgresConnection
      do {
        let connecting = PostgresConnection.connect(
          on: PostgresConnection.defaultEventLoopGroup.next(), configuration: configurations[index],
          id: connections.add(1, ordering: .relaxed).newValue, logger: logger)
        // postgres-nio bounds the connection and its startup; this bounds the wait for it.
        made = try Self.answer(
          of: connecting, within: configurations[index].options.connectTimeout + .seconds(1)
        ) {
          connecting.whenSuccess { Self.closeSoon($0) }
        }
      } catch {
        guard count > 1 else { throw error }
        refusals.append("\(server): \(PostgresJournalStore.reason(error))")
        continue
      }
      if location.target == .readWrite {
        do {
          let readOnly =
            try run("SHOW transaction_read_only", on: made).first?.decode(String.self) ?? "on"
          guard readOnly == "off" else {
            Self.closeSoon(made)
            refusals.append("\(server): read-only (a standby, or a primary not yet writable)")
            continue
          }
        } catch {
          Self.closeSoon(made)
          refusals.append("\(server): \(PostgresJournalStore.reason(error))")
          continue
        }
      }
      preferred.store(index, ordering: .relaxed)
      if count > 1 {
        let changed = announced.withLock { last in
          defer { last = index }
          if last != nil && last != index { switches.add(1, ordering: .relaxed) }
          return last != index
        }
        if changed {
          logger.notice("\(role): writing to \(server), the server that accepts writes")
        }
      }
      return made
    }
    // Next time, begin with the server after the one tried first (a frozen one costs its
    // connect timeout once, not on every try).
    preferred.store((first + 1) % count, ordering: .relaxed)
    let none = location.target == .readWrite ? "no server accepts writes" : "no server answers"
    throw StoreError("\(none) (\(refusals.joined(separator: "; ")))")
  }

  /// Forgets `lost` (if it is still the connection) and closes it.
  private func drop(_ lost: PostgresConnection) {
    connection.withLock { current in
      if current === lost { current = nil }
    }
    Self.closeSoon(lost)
  }

  /// Closes the connection, if one is open, and waits until it is closed (at most
  /// ``queryTimeout``).
  func close() {
    if let open = connection.withLock({ $0.take() }) {
      let closing: EventLoopFuture<Void> = open.close()
      _ = try? Self.answer(of: closing, within: Self.queryTimeout) {}
    }
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
    try Self.notClosed(connection)
    return try timed(connection.query(query, logger: logger), on: connection)
  }

  /// Runs `query` as a statement of its own and returns once it is committed. PostgreSQL
  /// answers a statement in the extended protocol (its rows and `CommandComplete`) before it
  /// commits it, at the `Sync` after it, and postgres-nio hands the answer over then: a commit
  /// that fails after it (a primary cut off from its standby, stopped while it waits for it, as
  /// pg_auto_failover demotes it) was taken for written. So a statement is queued behind it,
  /// whose answer comes only once that commit, synchronous replication included, is done.
  func runCommitted(_ query: PostgresQuery, on connection: PostgresConnection) throws
    -> PostgresQueryResult
  {
    try Self.notClosed(connection)
    let answer = connection.query(query, logger: logger)
    let committed = connection.query("SELECT 1", logger: logger)
    let both = EventLoopFuture.whenAllComplete([answer, committed], on: connection.eventLoop)
      .flatMapThrowing { results in
        // The statement's own error comes first; the barrier's is only its consequence.
        let result = try results[0].get()
        _ = try results[1].get()
        return result
      }
    return try timed(both, on: connection)
  }

  /// `answer`'s value; closes `connection` if it has not come within ``queryTimeout``, and
  /// then says so.
  private func timed<T: Sendable>(
    _ answer: EventLoopFuture<T>, on connection: PostgresConnection
  ) throws -> T {
    try Self.answer(of: answer, within: Self.queryTimeout) { Self.closeSoon(connection) }
  }

  /// Throws at once if `connection` is closed: postgres-nio never answers a query written to
  /// a connection whose channel has closed (its handler is gone from the pipeline, and the
  /// write fails with no promise to tell), so the wait would last until its time limit.
  private static func notClosed(_ connection: PostgresConnection) throws {
    if connection.isClosed { throw ConnectionClosed() }
  }

  /// `future`'s value, waited for on this thread for at most `limit`; past it, runs `expired`
  /// and throws ``QueryTimedOut``. The wait does not depend on `future` ever completing: a
  /// query written to a channel that closed at that moment is never answered.
  static func answer<T: Sendable>(
    of future: EventLoopFuture<T>, within limit: TimeAmount, expired: () -> Void
  ) throws -> T {
    let outcome = Outcome<T>()
    future.whenComplete { outcome.set($0) }
    let deadline = DispatchTime.now() + .nanoseconds(Int(limit.nanoseconds))
    guard let result = outcome.wait(until: deadline) else {
      expired()
      throw QueryTimedOut(limit: limit)
    }
    return try result.get()
  }

  /// Runs `body` between `BEGIN` and `COMMIT`, or rolls back what it did and rethrows. With
  /// `synchronous_commit` on unless told (claims and schema changes are rare and must not be
  /// lost); `synchronous: false` keeps the connection's own setting (a journal batch's).
  func transaction<T>(
    on connection: PostgresConnection, synchronous: Bool = true, _ body: () throws -> T
  ) throws -> T {
    _ = try run("BEGIN", on: connection)
    do {
      if synchronous { _ = try run("SET LOCAL synchronous_commit = on", on: connection) }
      let value = try body()
      _ = try run("COMMIT", on: connection)
      return value
    } catch {
      _ = try? run("ROLLBACK", on: connection)
      throw error
    }
  }
}

/// A query was not sent: its connection had closed.
struct ConnectionClosed: Error, CustomStringConvertible {
  var description: String { "the connection was closed" }
}

/// No answer came within a query's time limit; its connection is being closed.
struct QueryTimedOut: Error, CustomStringConvertible {
  /// The limit.
  let limit: TimeAmount

  var description: String {
    let milliseconds = limit.nanoseconds / 1_000_000
    return milliseconds % 1000 == 0
      ? "no answer within \(milliseconds / 1000) s" : "no answer within \(milliseconds) ms"
  }
}

/// A future's result, handed from the event loop to the thread that waits for it.
private final class Outcome<T: Sendable>: Sendable {
  private let result = Mutex<Result<T, any Error>?>(nil)
  private let done = DispatchSemaphore(value: 0)

  /// Called once, on the event loop.
  func set(_ outcome: Result<T, any Error>) {
    result.withLock { $0 = outcome }
    done.signal()
  }

  /// The result, or nil if it has not come by `deadline`.
  func wait(until deadline: DispatchTime) -> Result<T, any Error>? {
    guard done.wait(timeout: deadline) == .success else { return nil }
    return result.withLock { $0 }
  }
}
