import GRDB
import GRDBSQLite
import Lobby

/// The hot part of a commit: one transaction per batch, and one row per move.
///
/// Most batches hold a single move (commits go at the transport's pace), so what a commit costs
/// beside its row is what a move costs. Measured with `perf` in scenario a, GRDB's `write`
/// spent a third of a single-move commit parsing `BEGIN IMMEDIATE TRANSACTION` again (it runs
/// it as SQL text every time), and building and checking a `StatementArguments` array for the
/// row took as long as SQLite's own insert. Here BEGIN and COMMIT are prepared once and kept
/// in the connection's statement cache, and a move's values are bound to its statement
/// directly (docs/BENCHMARKS.md, "The commit's own cost").
extension SQLiteJournalStore {
  /// The statement that writes one move's row.
  static let moveInsert = "INSERT OR REPLACE INTO move VALUES (?, ?, ?, ?, ?, ?, ?, ?)"

  /// Runs `body` in one IMMEDIATE transaction on `db` (the writer's connection, outside any
  /// transaction), committed when `body` returns and rolled back when it or the commit throws.
  func inBatchTransaction(_ db: Database, _ body: () throws -> Void) throws {
    try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
    do {
      try body()
      try db.cachedStatement(sql: "COMMIT").execute()
    } catch {
      // A failed statement or COMMIT (a full disk, an I/O error) may leave the transaction
      // open, or SQLite may have rolled it back already: GRDB's rollback tells which.
      try? db.rollback()
      throw error
    }
  }

  /// Writes `move`'s row with `statement` (``moveInsert``, from the connection's cache): its
  /// values are bound as they are, with nothing made per row.
  func insert(_ move: JournalMove, with statement: Statement, in db: Database) throws {
    let handle = statement.sqliteStatement
    let (kind, card) = move.move.row
    let bound = move.table.withCString { table in
      sqlite3_bind_text(handle, 1, table, -1, Self.transient)
    }
    guard bound == SQLITE_OK else { throw Self.error(of: statement, in: db) }
    sqlite3_bind_int64(handle, 2, Int64(move.deal))
    sqlite3_bind_int64(handle, 3, Int64(move.index))
    sqlite3_bind_int64(handle, 4, Int64(kind))
    sqlite3_bind_int64(handle, 5, Int64(move.move.seat))
    sqlite3_bind_int64(handle, 6, Int64(card))
    sqlite3_bind_double(handle, 7, move.at)
    sqlite3_bind_int64(handle, 8, Int64(move.version))
    let code = sqlite3_step(handle)
    let failure = code == SQLITE_DONE ? nil : Self.error(of: statement, in: db)
    // Reset at once, failed or not: the statement is ready for the next row.
    sqlite3_reset(handle)
    if let failure { throw failure }
  }

  /// SQLite's `SQLITE_TRANSIENT`: it copies a bound text before the call returns.
  private static var transient: sqlite3_destructor_type {
    unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
  }

  /// The error SQLite reports for `db`'s latest call, as GRDB would have thrown it.
  private static func error(of statement: Statement, in db: Database) -> DatabaseError {
    DatabaseError(
      resultCode: ResultCode(rawValue: sqlite3_extended_errcode(db.sqliteConnection)),
      message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
  }
}
