import Foundation
import Logging
import Synchronization

/// One connection to a PostgreSQL server, used synchronously: made when first needed, made
/// again after it is lost, every query bounded in time. The journal's store has one; a
/// cluster's link has its own, so that neither waits behind the other's queries.
///
/// Calls block their thread on libpq (``PostgresConnection``), one caller at a time:
/// ``perform(_:_:)``'s body (a transaction, say) runs whole before another caller's.
final class PostgresConnector: Sendable {
  /// The database.
  let location: PostgresLocation
  /// Run-time settings given to every connection at its start (`synchronous_commit`).
  let startup: [(String, String)]
  /// Where lost connections are reported.
  let logger: Logger
  /// What the log calls this connection's user ("journal", "cluster").
  let role: String
  /// The open connection, if any: made when first needed, forgotten when lost.
  private let connection = Mutex<PostgresConnection?>(nil)
  /// Held while a caller's ``perform(_:_:)`` runs: one caller's statements at a time.
  private let turn = NSRecursiveLock()
  /// The server tried first: the last one that was kept (the primary, with several).
  private let preferred = Atomic<Int>(0)
  /// The server last logged as the one kept, so that a switch is logged once.
  private let announced = Mutex<Int?>(nil)
  /// How many times a connection kept another server than the one kept before.
  let switches = Atomic<Int>(0)
  /// Longest a query may take before its connection is closed.
  static let queryTimeout: Duration = .seconds(10)

  /// A connector to `location` with `startup` settings (`synchronous_commit` and the like).
  init(
    location: PostgresLocation, startup: [(String, String)], role: String, logger: Logger
  ) {
    self.location = location
    self.startup = startup
    self.logger = logger
    self.role = role
  }

  deinit {
    if let open = connection.withLock({ $0 }) { open.close() }
  }

  /// Runs `body` on the connection (made first if there is none), once more on a new
  /// connection if the one it had was lost (the server restarted since), and turns whatever it
  /// throws into a ``StoreError`` that begins with `failure`. Callers take turns: `body` runs
  /// whole before another caller's.
  func perform<T>(_ failure: String, _ body: (PostgresConnection) throws -> T) throws -> T {
    turn.lock()
    defer { turn.unlock() }
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
  /// the location's `connectTimeout`, the server's startup answer included.
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
    let count = location.servers.count
    let first = preferred.load(ordering: .relaxed)
    var refusals: [String] = []
    for step in 0..<count {
      let index = (first + step) % count
      let server = location.servers[index]
      let made: PostgresConnection
      do {
        made = try PostgresConnection.connect(
          host: server.host, port: server.port, user: location.username,
          password: location.password, database: location.database,
          applicationName: "matchismo", settings: startup,
          within: .seconds(location.connectTimeout))
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
            made.close()
            refusals.append("\(server): read-only (a standby, or a primary not yet writable)")
            continue
          }
        } catch {
          made.close()
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
    lost.close()
  }

  /// Closes the connection, if one is open (once the query under way, if any, is answered).
  func close() {
    connection.withLock { $0.take() }?.close()
  }

  /// Runs `query` and waits for all its rows; closes the connection if no answer comes within
  /// ``queryTimeout``.
  func run(_ query: PostgresQuery, on connection: PostgresConnection) throws -> [PostgresRow] {
    try connection.query(query, within: Self.queryTimeout)
  }

  /// Runs `query` as a statement of its own and returns once it is committed. PostgreSQL
  /// answers a statement in the extended protocol (its rows and `CommandComplete`) before it
  /// commits it, at the `Sync` after it; libpq's answer is whole only at the `ReadyForQuery`
  /// that follows the commit, synchronous replication included, and a commit that fails then
  /// (a primary cut off from its standby, stopped while it waits for it, as pg_auto_failover
  /// demotes it) is the statement's error. So this is ``run(_:on:)``, named for what the caller
  /// relies on.
  func runCommitted(_ query: PostgresQuery, on connection: PostgresConnection) throws
    -> [PostgresRow]
  {
    try run(query, on: connection)
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
  let limit: Duration

  var description: String { "no answer within \(Self.spoken(limit))" }

  /// `limit` in words: "5 s", "300 ms".
  static func spoken(_ limit: Duration) -> String {
    let milliseconds = Int(limit / .milliseconds(1))
    return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
  }
}
