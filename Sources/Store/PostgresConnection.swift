import CPostgres
import Foundation
import Synchronization

/// One connection to a PostgreSQL server through libpq, driven without blocking so that
/// connecting and every query have a time limit: past it the connection is closed and the call
/// throws ``QueryTimedOut``. One exchange at a time: a query waits for the one under way on
/// another thread. A connection that is lost (the server gone, a time limit passed) is closed,
/// and every later query throws ``ConnectionClosed``.
final class PostgresConnection: @unchecked Sendable {
  /// Held for each exchange with the server (a connection carries one at a time).
  private let exchange = NSLock()
  /// libpq's connection, nil once closed; changed only under `handleLock` (and `exchange`,
  /// except by ``interrupt()``, which only reads it).
  private var handle: OpaquePointer?
  private let handleLock = NSLock()
  /// Whether the connection was closed (by a call, a loss or a time limit).
  private let closed = Atomic<Bool>(false)

  private init(_ handle: OpaquePointer) {
    self.handle = handle
  }

  deinit {
    if let handle { PQfinish(handle) }
  }

  /// Whether the connection is closed: no query will be sent on it.
  var isClosed: Bool { closed.load(ordering: .acquiring) }

  /// Connects to `host`:`port` as `user` to `database`, with `settings` (run-time parameters
  /// such as `synchronous_commit`, given at startup) and `applicationName`, within `limit`
  /// (the server's startup answer included). Throws a ``PostgresConnectionError`` with the
  /// reason.
  static func connect(
    host: String, port: Int, user: String, password: String?, database: String,
    applicationName: String, settings: [(String, String)], within limit: Duration
  ) throws -> PostgresConnection {
    var parameters: [(String, String)] = [
      ("host", host), ("port", String(port)), ("user", user), ("dbname", database),
      ("sslmode", "disable"), ("application_name", applicationName),
      ("client_encoding", "UTF8"),
    ]
    if let password { parameters.append(("password", password)) }
    if !settings.isEmpty {
      // `-c name=value` each; a space or a backslash in a value is escaped with a backslash.
      let options = settings.map { name, value in
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\")
          .replacingOccurrences(of: " ", with: "\\ ")
        return "-c \(name)=\(escaped)"
      }
      parameters.append(("options", options.joined(separator: " ")))
    }
    let started = Self.withCStrings(parameters.map(\.0)) { keywords in
      Self.withCStrings(parameters.map(\.1)) { values in
        PQconnectStartParams(keywords, values, 0)
      }
    }
    guard let started else { throw PostgresConnectionError("out of memory") }
    let connection = PostgresConnection(started)
    guard PQstatus(started) != CONNECTION_BAD else {
      throw connection.lost(PostgresConnectionError(libpq: started))
    }
    let deadline = ContinuousClock.now + limit
    var state = PGRES_POLLING_WRITING
    do {
      while true {
        switch state {
        case PGRES_POLLING_OK:
          guard PQsetnonblocking(started, 1) == 0 else {
            throw connection.lost(PostgresConnectionError(libpq: started))
          }
          return connection
        case PGRES_POLLING_FAILED:
          throw connection.lost(PostgresConnectionError(libpq: started))
        case PGRES_POLLING_READING:
          try connection.wait(for: Int16(POLLIN), until: deadline, limit: limit)
        default:
          try connection.wait(for: Int16(POLLOUT), until: deadline, limit: limit)
        }
        state = PQconnectPoll(started)
      }
    } catch let timedOut as QueryTimedOut {
      throw PostgresConnectionError("Connect timeout (\(QueryTimedOut.spoken(timedOut.limit)))")
    }
  }

  /// Runs `query` and returns its rows once the server is ready for the next one: for a
  /// statement outside a transaction, once it is committed (synchronous replication included),
  /// since PostgreSQL commits it before it says it is ready. Throws a ``PostgresServerError``
  /// when the server refused it, a ``PostgresConnectionError`` when the connection was lost,
  /// ``QueryTimedOut`` (and closes the connection) when the answer took longer than `limit`.
  func query(_ query: PostgresQuery, within limit: Duration) throws -> [PostgresRow] {
    exchange.lock()
    defer { exchange.unlock() }
    guard let connection = handle, !isClosed else { throw ConnectionClosed() }
    let deadline = ContinuousClock.now + limit
    try send(query, on: connection)
    // Written whole, however full the socket's buffer (the connection does not block).
    while true {
      let flushed = PQflush(connection)
      if flushed == 0 { break }
      if flushed < 0 { throw lost(PostgresConnectionError(libpq: connection)) }
      try wait(for: Int16(POLLIN | POLLOUT), until: deadline, limit: limit)
      guard PQconsumeInput(connection) != 0 else {
        throw lost(PostgresConnectionError(libpq: connection))
      }
    }
    var rows: [PostgresRow] = []
    var failure: (any Error)?
    while true {
      while PQisBusy(connection) != 0 {
        try wait(for: Int16(POLLIN), until: deadline, limit: limit)
        guard PQconsumeInput(connection) != 0 else {
          throw lost(failure ?? PostgresConnectionError(libpq: connection))
        }
      }
      guard let result = PQgetResult(connection) else { break }
      defer { PQclear(result) }
      switch PQresultStatus(result) {
      case PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE:
        rows = Self.rows(of: result)
      case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
        break
      case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH:
        // Never asked for; ended so that the connection stays usable.
        throw lost(PostgresConnectionError("a COPY was started"))
      default:
        if failure == nil { failure = Self.failure(of: result) }
      }
    }
    if PQstatus(connection) == CONNECTION_BAD {
      throw lost(failure ?? PostgresConnectionError(libpq: connection))
    }
    if let failure { throw failure }
    return rows
  }

  /// The payloads of the notifications (`LISTEN`) that arrived, in order: those already read,
  /// or, when there are none, those that arrive within `limit`. Throws when the connection is
  /// lost.
  func notifications(within limit: Duration) throws -> [String] {
    exchange.lock()
    defer { exchange.unlock() }
    guard let connection = handle, !isClosed else { throw ConnectionClosed() }
    var payloads = Self.notifications(of: connection)
    guard payloads.isEmpty else { return payloads }
    do {
      try wait(for: Int16(POLLIN), until: ContinuousClock.now + limit, limit: limit, closing: false)
    } catch is QueryTimedOut {
      return []
    }
    guard PQconsumeInput(connection) != 0 else {
      throw lost(PostgresConnectionError(libpq: connection))
    }
    payloads = Self.notifications(of: connection)
    return payloads
  }

  /// Closes the connection (after the exchange under way, if any). Later calls do nothing.
  func close() {
    exchange.lock()
    defer { exchange.unlock() }
    finish()
  }

  /// Cuts the connection's socket without waiting for the exchange under way, which then ends
  /// with the connection lost (another thread's wait for notifications, say). The connection is
  /// closed by that exchange, or by ``close()``.
  func interrupt() {
    handleLock.withLock {
      if let handle { _ = shutdown(PQsocket(handle), Int32(SHUT_RDWR)) }
    }
  }

  // MARK: - Inside

  /// Sends `query`: with its values apart (the extended protocol, one statement), or as it is
  /// when it has none (the simple protocol, which takes several).
  private func send(_ query: PostgresQuery, on connection: OpaquePointer) throws {
    let sent: Int32
    if query.values.isEmpty {
      sent = PQsendQuery(connection, query.sql)
    } else {
      sent = Self.withCStrings(query.values) { values in
        PQsendQueryParams(
          connection, query.sql, Int32(query.values.count), query.types, values, nil, nil, 0)
      }
    }
    guard sent != 0 else { throw lost(PostgresConnectionError(libpq: connection)) }
  }

  /// Waits until the socket is ready for `events`; closes the connection (unless told not to)
  /// and throws ``QueryTimedOut`` at `deadline`, a ``PostgresConnectionError`` if polling fails.
  private func wait(
    for events: Int16, until deadline: ContinuousClock.Instant, limit: Duration,
    closing: Bool = true
  ) throws {
    guard let connection = handle else { throw ConnectionClosed() }
    var descriptor = pollfd(fd: PQsocket(connection), events: events, revents: 0)
    while true {
      let left = deadline - ContinuousClock.now
      if left <= .zero {
        if closing { finish() }
        throw QueryTimedOut(limit: limit)
      }
      let ready = poll(&descriptor, 1, Int32(clamping: Int((left / .milliseconds(1)).rounded(.up))))
      if ready > 0 { return }
      if ready < 0 && errno != EINTR {
        throw lost(PostgresConnectionError(String(cString: strerror(errno))))
      }
    }
  }

  /// Closes the connection and returns `error`, to be thrown.
  private func lost(_ error: any Error) -> any Error {
    finish()
    return error
  }

  /// Closes the connection now (the caller holds `exchange`, or no exchange can be under way).
  private func finish() {
    handleLock.withLock {
      closed.store(true, ordering: .releasing)
      if let handle { PQfinish(handle) }
      handle = nil
    }
  }

  /// The rows of `result`, each column as text.
  private static func rows(of result: OpaquePointer) -> [PostgresRow] {
    let count = Int(PQntuples(result))
    let width = Int(PQnfields(result))
    let names = (0..<width).map { String(cString: PQfname(result, Int32($0))) }
    return (0..<count).map { row in
      PostgresRow(
        names: names,
        columns: (0..<width).map { column in
          PQgetisnull(result, Int32(row), Int32(column)) != 0
            ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
        })
    }
  }

  /// What a failed result says: the server's error, or libpq's when the server said none (the
  /// connection was lost).
  private static func failure(of result: OpaquePointer) -> any Error {
    func field(_ code: Int32) -> String? {
      PQresultErrorField(result, code).map { String(cString: $0) }
    }
    guard let state = field(Int32(UInt8(ascii: "C"))) else {
      return PostgresConnectionError(String(cString: PQresultErrorMessage(result)))
    }
    return PostgresServerError(
      sqlState: state, message: field(Int32(UInt8(ascii: "M"))) ?? "an error",
      detail: field(Int32(UInt8(ascii: "D"))))
  }

  /// The payloads of the notifications libpq has read, in order.
  private static func notifications(of connection: OpaquePointer) -> [String] {
    var payloads: [String] = []
    while let notice = PQnotifies(connection) {
      payloads.append(String(cString: notice.pointee.extra))
      PQfreemem(notice)
    }
    return payloads
  }

  /// Calls `body` with `strings` as C strings (nil stays NULL), ended by a NULL pointer.
  private static func withCStrings<T>(
    _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T
  ) -> T {
    let copies = strings.map { $0.flatMap { strdup($0) } }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
  }
}
