import CSQLite

/// An error SQLite reported: its result code (the primary one, `resultCode`, and the
/// extended one), its message and the SQL that met it. Said as "SQLite error 11: database
/// disk image is malformed - while executing `PRAGMA quick_check`".
struct SQLiteError: Error, CustomStringConvertible, Equatable {
  /// The extended result code (`SQLITE_IOERR_WRITE`, say).
  let extendedCode: Int32
  /// What SQLite said.
  let message: String
  /// The statement, if one was running.
  let sql: String?

  init(code: Int32, message: String, sql: String?) {
    extendedCode = code
    self.message = message
    self.sql = sql
  }

  /// The error of `connection`'s failed open (`code`).
  init(connection: OpaquePointer?, code: Int32) {
    self.init(
      code: connection.map { sqlite3_extended_errcode($0) } ?? code,
      message: SQLiteConnection.message(of: connection), sql: nil)
  }

  /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …).
  var resultCode: Int32 { extendedCode & 0xFF }

  /// A connection that was closed already.
  static let closed = SQLiteError(
    code: SQLITE_MISUSE, message: "the connection is closed", sql: nil)

  var description: String {
    "SQLite error \(resultCode): \(message)" + (sql.map { " - while executing `\($0)`" } ?? "")
  }
}
