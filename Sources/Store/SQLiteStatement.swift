import CSQLite

/// A prepared statement of a ``SQLiteConnection``, used under its lock: values bound, run, reset.
final class SQLiteStatement {
  /// SQLite's handle.
  let handle: OpaquePointer
  /// Its SQL, for errors.
  let sql: String
  /// Its connection's handle, for errors.
  private let connection: OpaquePointer
  /// The result's column names, in order.
  private(set) lazy var columns: [String] = (0..<sqlite3_column_count(handle)).map {
    String(cString: sqlite3_column_name(handle, $0))
  }

  init(_ handle: OpaquePointer, sql: String, connection: OpaquePointer) {
    self.handle = handle
    self.sql = sql
    self.connection = connection
  }

  /// Runs the statement with `values` to its end; rows, if any, are not read.
  func run(_ values: [SQLiteValue] = []) throws {
    try bind(values)
    defer { sqlite3_reset(handle) }
    var code = sqlite3_step(handle)
    while code == SQLITE_ROW { code = sqlite3_step(handle) }
    guard code == SQLITE_DONE else { throw error(code) }
  }

  /// Runs the statement with `values` and reads every row.
  func rows(_ values: [SQLiteValue] = []) throws -> [SQLiteRow] {
    try bind(values)
    defer { sqlite3_reset(handle) }
    var rows: [SQLiteRow] = []
    var code = sqlite3_step(handle)
    while code == SQLITE_ROW {
      rows.append(SQLiteRow(columns: columns, values: (0..<Int32(columns.count)).map(read)))
      code = sqlite3_step(handle)
    }
    guard code == SQLITE_DONE else { throw error(code) }
    return rows
  }

  /// ``rows(_:)`` for a statement prepared for one use (``SQLiteConnection/prepare(_:)``),
  /// finalized after.
  func rowsOnce(_ values: [SQLiteValue] = []) throws -> [SQLiteRow] {
    defer { finalize() }
    return try rows(values)
  }

  /// Runs the statement, whose values are bound already (``bindText(_:at:)`` and the like),
  /// for one row's write; reset at once, failed or not.
  func step() throws {
    let code = sqlite3_step(handle)
    sqlite3_reset(handle)
    guard code == SQLITE_DONE else { throw error(code) }
  }

  /// Binds `text` to parameter `index` (from 1); SQLite copies it.
  func bindText(_ text: String, at index: Int32) throws {
    let code = text.withCString { sqlite3_bind_text(handle, index, $0, -1, sqliteTransient) }
    guard code == SQLITE_OK else { throw error(code) }
  }

  /// Binds `value` to parameter `index` (from 1).
  func bindInteger(_ value: Int64, at index: Int32) {
    sqlite3_bind_int64(handle, index, value)
  }

  /// Binds `value` to parameter `index` (from 1).
  func bindDouble(_ value: Double, at index: Int32) {
    sqlite3_bind_double(handle, index, value)
  }

  func finalize() {
    sqlite3_finalize(handle)
  }

  private func bind(_ values: [SQLiteValue]) throws {
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case .null: sqlite3_bind_null(handle, index)
      case .integer(let integer): bindInteger(integer, at: index)
      case .real(let real): bindDouble(real, at: index)
      case .text(let text): try bindText(text, at: index)
      }
    }
  }

  private func read(_ column: Int32) -> SQLiteValue {
    switch sqlite3_column_type(handle, column) {
    case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, column))
    case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
    case SQLITE_NULL: .null
    default: .text(sqlite3_column_text(handle, column).map { String(cString: $0) } ?? "")
    }
  }

  private func error(_ code: Int32) -> SQLiteError {
    SQLiteError(code: code, message: SQLiteConnection.message(of: connection), sql: sql)
  }
}

/// SQLite's `SQLITE_TRANSIENT`: it copies a bound text before the call returns.
private let sqliteTransient = unsafeBitCast(
  OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
