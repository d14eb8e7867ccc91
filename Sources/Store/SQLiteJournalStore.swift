import Foundation
import GRDB
import Lobby
import Model

/// The embedded store: one SQLite file (WAL mode) in the data directory. Nothing to install or
/// start; the default.
public final class SQLiteJournalStore: JournalStore, @unchecked Sendable {
  /// The database file.
  public let path: String
  private let database: DatabaseQueue
  /// A second connection that only checkpoints the WAL into the database file, on a thread of
  /// its own, so that a write never waits for a checkpoint's fsync.
  private let checkpointer: DatabaseQueue
  private let encoder = JSONEncoder()
  private let decoder = JSONDecoder()

  /// Opens (creating it if needed) `journal.sqlite` in `directory`, migrated to the current
  /// schema. Throws a ``StoreError`` saying what is wrong: a directory that cannot be made, a
  /// file that is not a database, a schema from a newer version.
  public init(directory: String, durability: Durability = .process) throws {
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw StoreError(
        "cannot create the data directory \(directory): \(error.localizedDescription)")
    }
    path = (directory as NSString).appendingPathComponent("journal.sqlite")
    var configuration = Configuration()
    configuration.label = "journal"
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(
        sql: durability == .full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
      // Checkpoints are the checkpointer's: a commit only appends to the WAL.
      try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
    }
    var checkpointing = Configuration()
    checkpointing.label = "journal-checkpoint"
    do {
      database = try DatabaseQueue(path: path, configuration: configuration)
      try Self.migrator.migrate(database)
      checkpointer = try DatabaseQueue(path: path, configuration: checkpointing)
      // A damaged file is refused here rather than half read later.
      let check = try database.read { try String.fetchOne($0, sql: "PRAGMA quick_check") }
      guard check == "ok" else { throw StoreError("integrity check: \(check ?? "no answer")") }
    } catch let error as StoreError {
      throw StoreError("the journal \(path) is damaged: \(error.message)")
    } catch {
      throw StoreError("cannot open the journal \(path): \(error)")
    }
  }

  /// Starts checkpointing the WAL every `interval` seconds on a thread of its own (a passive
  /// checkpoint: it copies what no reader needs into the database file and fsyncs it, while the
  /// writer goes on appending), for as long as the process runs.
  public func startCheckpoints(every interval: Double = 0.5) {
    let thread = Thread { [self] in
      while true {
        Thread.sleep(forTimeInterval: interval)
        _ = try? checkpointer.writeWithoutTransaction { db in
          try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
        }
      }
    }
    thread.name = "journal-checkpoint"
    thread.start()
  }

  /// The schema, one migration per version; a database is brought up to date when opened.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: tables, moves, sessions") { db in
      try db.execute(
        sql: """
          CREATE TABLE game_table (
            id TEXT PRIMARY KEY NOT NULL,
            number INTEGER NOT NULL,
            open INTEGER NOT NULL,
            deal INTEGER NOT NULL,
            record TEXT NOT NULL
          );
          CREATE TABLE move (
            table_id TEXT NOT NULL,
            deal INTEGER NOT NULL,
            idx INTEGER NOT NULL,
            kind INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            card INTEGER NOT NULL,
            at REAL NOT NULL,
            version INTEGER NOT NULL,
            PRIMARY KEY (table_id, deal, idx)
          ) WITHOUT ROWID;
          CREATE TABLE session (
            token TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            table_id TEXT,
            seat INTEGER
          ) WITHOUT ROWID;
          """)
    }
    return migrator
  }

  public func load() throws -> JournalContents {
    try database.read { db in
      var contents = JournalContents()
      let rows = try Row.fetchAll(
        db, sql: "SELECT record FROM game_table WHERE open = 1 ORDER BY number")
      for row in rows {
        let text: String = row["record"]
        let record = try decoder.decode(TableRecord.self, from: Data(text.utf8))
        let moves = try Row.fetchAll(
          db,
          sql: """
            SELECT idx, kind, seat, card, at, version FROM move
            WHERE table_id = ? AND deal = ? ORDER BY idx
            """,
          arguments: [record.id, record.deal]
        ).map { row in
          JournalMove(
            table: record.id, deal: record.deal, index: row["idx"],
            move: Move(kind: row["kind"], seat: row["seat"], card: row["card"]), at: row["at"],
            version: row["version"])
        }
        contents.tables.append((record, moves))
      }
      contents.sessions = try Row.fetchAll(
        db, sql: "SELECT token, name, table_id, seat FROM session ORDER BY token"
      ).map {
        SessionRecord(
          token: $0["token"], name: $0["name"], tableID: $0["table_id"], seat: $0["seat"])
      }
      contents.lastTableNumber =
        try Int.fetchOne(db, sql: "SELECT MAX(number) FROM game_table") ?? 0
      return contents
    }
  }

  public func write(_ entries: [JournalEntry]) throws {
    guard !entries.isEmpty else { return }
    try database.write { db in
      for entry in entries {
        switch entry {
        case .table(let record):
          let text = String(decoding: try encoder.encode(record), as: UTF8.self)
          try db.cachedStatement(
            sql: """
              INSERT INTO game_table (id, number, open, deal, record) VALUES (?, ?, 1, ?, ?)
              ON CONFLICT(id) DO UPDATE SET open = 1, deal = excluded.deal, record = excluded.record
              """
          ).execute(arguments: [record.id, JournalEntry.number(of: record.id), record.deal, text])
          try db.cachedStatement(sql: "DELETE FROM move WHERE table_id = ? AND deal < ?")
            .execute(arguments: [record.id, record.deal])
        case .move(let move):
          let (kind, card) = move.move.row
          try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO move VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
          ).execute(arguments: [
            move.table, move.deal, move.index, kind, move.move.seat, card, move.at, move.version,
          ])
        case .tableClosed(let id):
          try db.cachedStatement(sql: "UPDATE game_table SET open = 0 WHERE id = ?")
            .execute(arguments: [id])
          try db.cachedStatement(sql: "DELETE FROM move WHERE table_id = ?")
            .execute(arguments: [id])
        case .session(let session):
          try db.cachedStatement(
            sql: """
              INSERT INTO session (token, name, table_id, seat) VALUES (?, ?, ?, ?)
              ON CONFLICT(token) DO UPDATE SET
                name = excluded.name, table_id = excluded.table_id, seat = excluded.seat
              """
          ).execute(arguments: [session.token, session.name, session.tableID, session.seat])
        case .sessionEnded(let token):
          try db.cachedStatement(sql: "DELETE FROM session WHERE token = ?")
            .execute(arguments: [token])
        }
      }
    }
  }
}
