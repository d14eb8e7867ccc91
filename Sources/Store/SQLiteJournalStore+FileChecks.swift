import CSQLite
import Foundation

extension SQLiteJournalStore {
  /// Checks the file at `path` on a read-only connection, writing nothing: it must be a
  /// database, pass SQLite's quick check, and be a journal (or hold no table at all).
  static func check(_ path: String) throws {
    let (check, tables, isJournal): (String?, Int, Bool)
    do {
      let connection = try SQLiteConnection(path: path, readonly: true)
      defer { connection.close() }
      (check, tables, isJournal) = try connection.transaction { db in
        (
          try db.value("PRAGMA quick_check"),
          try db.value("SELECT count(*) FROM sqlite_master") ?? 0,
          try db.tableExists(migrationsTable)
        )
      }
    } catch let error as SQLiteError
      where error.resultCode == SQLITE_CORRUPT || error.resultCode == SQLITE_NOTADB
    {
      throw StoreError("the journal \(path) is damaged: \(error)")
    }
    guard check == "ok" else {
      throw StoreError("the journal \(path) is damaged: integrity check: \(check ?? "no answer")")
    }
    guard tables == 0 || isJournal else {
      throw StoreError("\(path) is not a journal of this server: it holds other tables")
    }
  }

  /// Why the journal at `path` cannot be written, if it cannot: its folder (where the `-wal`
  /// and `-shm` files go), the file or its write-ahead log refuse writing, as `access(2)` sees
  /// it (a read-only file system or an immutable file stops root too).
  static func writeProblem(_ path: String) -> String? {
    let folder = (path as NSString).deletingLastPathComponent
    for target in [folder, path, path + "-wal"] where FileManager.default.fileExists(atPath: target)
    {
      if access(target, W_OK) != 0 { return "\(target): \(String(cString: strerror(errno)))" }
    }
    return nil
  }
}
