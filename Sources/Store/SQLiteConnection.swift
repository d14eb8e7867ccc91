import CSQLite
import Foundation

/// One connection to an SQLite file, used from one thread at a time (a lock keeps it so): the
/// embedded journal's writer, its reader of finished games, the copy ahead of its log.
///
/// As thin as the journal needs: statements prepared once and kept (``cached(_:)``), values
/// bound as they are, rows read by column name, a transaction around a body. Errors are
/// ``SQLiteError``s: "SQLite error 26: file is not a database".
final class SQLiteConnection: @unchecked Sendable {
  /// SQLite's handle; nil once closed.
  private(set) var handle: OpaquePointer?
  /// Statements by their SQL, prepared once.
  private var statements: [String: SQLiteStatement] = [:]
  private let lock = NSLock()
  /// The file's path.
  let path: String

  /// Opens `path` (created if it does not exist, unless `readonly`), with foreign keys
  /// enforced; a busy database is waited for up to `busyTimeout` seconds.
  init(path: String, readonly: Bool = false, busyTimeout: Double = 0) throws {
    self.path = path
    var connection: OpaquePointer?
    let flags =
      (readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      let error = SQLiteError(connection: connection, code: code)
      sqlite3_close_v2(connection)
      throw error
    }
    handle = connection
    sqlite3_extended_result_codes(connection, 1)
    if busyTimeout > 0 { sqlite3_busy_timeout(connection, Int32(busyTimeout * 1000)) }
    do {
      try execute("PRAGMA foreign_keys = ON")
    } catch {
      close()
      throw error
    }
  }

  deinit { close() }

  /// Runs `body` with the connection held: no other thread uses it meanwhile.
  func withLock<T>(_ body: (SQLiteConnection) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(self)
  }

  /// How a transaction takes the database's write lock: at its first write, or at once.
  enum TransactionKind: String {
    case deferred = "BEGIN DEFERRED"
    case immediate = "BEGIN IMMEDIATE"
  }

  /// Runs `body` in a transaction of `kind`, with the connection held: committed when it
  /// returns, rolled back when it or the commit throws.
  func transaction<T>(
    _ kind: TransactionKind = .deferred, _ body: (SQLiteConnection) throws -> T
  ) throws -> T {
    try withLock { connection in
      try connection.cached(kind.rawValue).run()
      do {
        let result = try body(connection)
        try connection.cached("COMMIT").run()
        return result
      } catch {
        connection.rollback()
        throw error
      }
    }
  }

  /// Rolls back the transaction under way, if SQLite has not already (a failed statement or
  /// COMMIT may leave it open, or may have ended it).
  func rollback() {
    guard let handle, sqlite3_get_autocommit(handle) == 0 else { return }
    _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
  }

  /// Runs `sql` (one or more statements, no values).
  func execute(_ sql: String) throws {
    guard let handle else { throw SQLiteError.closed }
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
      throw SQLiteError(
        code: code, message: message.map { String(cString: $0) } ?? Self.message(of: handle),
        sql: sql)
    }
  }

  /// The statement of `sql`, prepared once and kept for the connection's life.
  func cached(_ sql: String) throws -> SQLiteStatement {
    if let statement = statements[sql] { return statement }
    let statement = try prepare(sql)
    statements[sql] = statement
    return statement
  }

  /// A statement of `sql` for one use (SQL made from a list, say).
  func prepare(_ sql: String) throws -> SQLiteStatement {
    guard let handle else { throw SQLiteError.closed }
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(handle, sql, -1, 0, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      throw SQLiteError(code: code, message: Self.message(of: handle), sql: sql)
    }
    return SQLiteStatement(statement, sql: sql, connection: handle)
  }

  /// Runs `sql` with `values` and returns its rows.
  func rows(_ sql: String, _ values: [SQLiteValue] = []) throws -> [SQLiteRow] {
    try cached(sql).rows(values)
  }

  /// The first column of the first row of `sql`, or nil when there is none (or it is NULL).
  func value<T: SQLiteColumn>(_ sql: String, _ values: [SQLiteValue] = []) throws -> T? {
    try rows(sql, values).first?.value(0)
  }

  /// The first column of every row of `sql`.
  func values<T: SQLiteColumn>(_ sql: String, _ values: [SQLiteValue] = []) throws -> [T] {
    try rows(sql, values).compactMap { $0.value(0) }
  }

  /// Runs `sql` with `values` (rows, if any, are not read).
  func run(_ sql: String, _ values: [SQLiteValue] = []) throws {
    try cached(sql).run(values)
  }

  /// Rows changed by the latest INSERT, UPDATE or DELETE.
  var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

  /// The row id of the latest INSERT.
  var lastInsertedRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

  /// Whether the table `name` exists.
  func tableExists(_ name: String) throws -> Bool {
    try value("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)])
      as Int? != nil
  }

  /// Reads the database once, which is when a connection opens its write-ahead log: before
  /// that, its checkpoints find no log, copy nothing and answer -1 frames.
  func openLog() throws {
    try withLock { _ = try $0.value("PRAGMA schema_version") as Int? }
  }

  /// A WAL checkpoint (`PASSIVE`, `RESTART`, `TRUNCATE`): the log's length and the frames
  /// copied, in pages.
  @discardableResult
  func checkpoint(_ mode: Int32) throws -> (walFrames: Int, copied: Int) {
    guard let handle else { throw SQLiteError.closed }
    var frames: Int32 = -1
    var copied: Int32 = -1
    let code = sqlite3_wal_checkpoint_v2(handle, nil, mode, &frames, &copied)
    guard code == SQLITE_OK else {
      throw SQLiteError(code: code, message: Self.message(of: handle), sql: nil)
    }
    return (Int(frames), Int(copied))
  }

  /// Closes the connection (its statements first). Later calls do nothing.
  func close() {
    for statement in statements.values { statement.finalize() }
    statements = [:]
    if let handle { sqlite3_close_v2(handle) }
    handle = nil
  }

  /// SQLite's message for `handle`'s latest call.
  static func message(of handle: OpaquePointer?) -> String {
    handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "out of memory"
  }
}
