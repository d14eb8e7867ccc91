import Foundation
import GRDB
import GRDBSQLite
import Lobby
import Model
import Protocol

/// The embedded store: one SQLite file (WAL mode) in the data directory. Nothing to install or
/// start; the default.
///
/// The write-ahead log stays under a bound: the writer checkpoints it between two commits
/// (``WALCheckpointer``), and the next commit starts it again.
public final class SQLiteJournalStore: JournalStore, @unchecked Sendable {
  /// The default log length at which the writer checkpoints: 32 MiB (with the copy ahead, the
  /// log starts again from about 24 MiB). The log's file then stays under 64 MiB, the bound
  /// README gives (the threshold, one batch, and a few tries when a reader keeps the log from
  /// starting again). Each start costs the moves that come meanwhile a wait for the disk
  /// (docs/BENCHMARKS.md): a longer log makes it rarer.
  public static let defaultWALCheckpointBytes = 32 << 20

  /// The page size of a new journal file, in bytes. A commit of one move rewrites the b-tree
  /// page that holds its table's rows, and the log takes whole pages: with SQLite's default of
  /// 4 KiB the soak's load wrote 11.8 MB a second to the disk, with 1 KiB 4.1 MB (2.9 times
  /// less), for 12 % less CPU per diff in scenario a and no change in the latency
  /// (docs/BENCHMARKS.md, "A many-core machine").
  public static let pageSize = 1024

  /// The database file.
  public let path: String
  private let database: DatabaseQueue
  /// A read-only connection for questions about finished games, asked from another thread
  /// than the writer's (WAL lets it read while the writer writes).
  private let reader: DatabaseQueue
  private let encoder = JSONEncoder()
  private let decoder = JSONDecoder()
  /// Keeps the log under its bound.
  private let checkpointer: WALCheckpointer

  /// Opens (creating it if needed) `journal.sqlite` in `directory`, migrated to the current
  /// schema. Throws a ``StoreError`` saying what is wrong: a directory that cannot be made, a
  /// file or folder that cannot be written, a file that is not a database, is damaged or is
  /// another program's, a schema from a newer version. A file that is refused is left as it
  /// was: it is checked before anything is written to it. `walCheckpointBytes` is the log length
  /// at which the writer checkpoints (tests make it small).
  public init(
    directory: String, durability: Durability = .process,
    walCheckpointBytes: Int = SQLiteJournalStore.defaultWALCheckpointBytes
  ) throws {
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw StoreError(
        "cannot create the data directory \(directory): \(error.localizedDescription)")
    }
    path = (directory as NSString).appendingPathComponent("journal.sqlite")
    if let problem = Self.writeProblem(path) {
      throw StoreError("the journal \(path) cannot be written: \(problem)")
    }
    var configuration = Configuration()
    configuration.label = "journal"
    // Only a checkpoint ever waits on this connection: for a reader still in the log, or the
    // copy ahead.
    configuration.busyMode = .timeout(WALCheckpointer.readerWait)
    configuration.prepareDatabase { db in
      // A new file only: a file that exists keeps the page size it was made with.
      try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(
        sql: durability == .full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
      // Checkpoints come between commits (``upkeep()``), never inside one.
      try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
      // When the log starts again, its file is cut back to the checkpoint's length.
      try db.execute(sql: "PRAGMA journal_size_limit = \(walCheckpointBytes)")
    }
    do {
      // A damaged file is refused here rather than half read later, and before the switch to
      // WAL or a migration writes to it.
      if FileManager.default.fileExists(atPath: path) { try Self.check(path) }
      database = try DatabaseQueue(path: path, configuration: configuration)
      try Self.migrator.migrate(database)
      let pageSize =
        try database.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } ?? 4096
      checkpointer = WALCheckpointer(
        path: path, pageSize: pageSize, thresholdBytes: walCheckpointBytes)
      var reading = Configuration()
      reading.label = "journal-reader"
      reading.readonly = true
      reader = try DatabaseQueue(path: path, configuration: reading)
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError("cannot open the journal \(path): \(error)")
    }
    checkpointer.listen(to: database)
  }

  /// Starts copying the log ahead of the writer's checkpoints on a thread of its own, so that
  /// they hold moves up for only a moment (``WALCheckpointer``).
  public func startCopyingAhead() throws {
    try checkpointer.startCopyingAhead()
  }

  /// Checks the file at `path` on a read-only connection, writing nothing: it must be a
  /// database, pass SQLite's quick check, and be a journal (or hold no table at all).
  private static func check(_ path: String) throws {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.label = "journal-check"
    let (check, tables, isJournal): (String?, Int, Bool)
    do {
      (check, tables, isJournal) = try DatabaseQueue(path: path, configuration: configuration)
        .read { db in
          (
            try String.fetchOne(db, sql: "PRAGMA quick_check"),
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0,
            try db.tableExists("grdb_migrations")
          )
        }
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
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
  private static func writeProblem(_ path: String) -> String? {
    let folder = (path as NSString).deletingLastPathComponent
    for target in [folder, path, path + "-wal"] where FileManager.default.fileExists(atPath: target)
    {
      if access(target, W_OK) != 0 { return "\(target): \(String(cString: strerror(errno)))" }
    }
    return nil
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
    migrator.registerMigration("v2: finished games, players") { db in
      try db.execute(
        sql: """
          ALTER TABLE session ADD COLUMN player TEXT;
          CREATE TABLE finished_game (
            number INTEGER PRIMARY KEY AUTOINCREMENT,
            source TEXT NOT NULL UNIQUE,
            game TEXT NOT NULL,
            ended_at REAL NOT NULL,
            seconds REAL NOT NULL,
            score INTEGER NOT NULL,
            record TEXT NOT NULL
          );
          CREATE INDEX finished_game_by_date ON finished_game (game, ended_at);
          CREATE INDEX finished_game_by_score ON finished_game (game, score);
          CREATE INDEX finished_game_by_seconds ON finished_game (game, seconds);
          CREATE TABLE finished_player (
            player TEXT NOT NULL,
            game_number INTEGER NOT NULL REFERENCES finished_game (number),
            PRIMARY KEY (player, game_number)
          ) WITHOUT ROWID;
          """)
    }
    migrator.registerMigration("v3: closed tables deleted, finished games by age") { db in
      // A closed table's row goes when it closes; the highest number of a deleted row is kept
      // here, so that a table number is never used twice.
      try db.execute(
        sql: """
          CREATE TABLE table_number (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            highest INTEGER NOT NULL
          );
          INSERT INTO table_number (id, highest)
            SELECT 1, COALESCE(MAX(number), 0) FROM game_table;
          DELETE FROM move WHERE table_id IN (SELECT id FROM game_table WHERE open = 0);
          DELETE FROM game_table WHERE open = 0;
          CREATE INDEX finished_game_by_end ON finished_game (ended_at);
          CREATE INDEX finished_player_by_game ON finished_player (game_number);
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
        db, sql: "SELECT token, name, table_id, seat, player FROM session ORDER BY token"
      ).map {
        SessionRecord(
          token: $0["token"], name: $0["name"], tableID: $0["table_id"], seat: $0["seat"],
          player: $0["player"])
      }
      contents.lastTableNumber =
        try Int.fetchOne(
          db,
          sql: """
            SELECT MAX(COALESCE((SELECT MAX(number) FROM game_table), 0),
              (SELECT highest FROM table_number))
            """) ?? 0
      return contents
    }
  }

  public func write(_ entries: [JournalEntry]) throws {
    guard !entries.isEmpty else { return }
    do {
      try write(entries, to: database)
    } catch {
      // SQLite says "disk I/O error" for a file that cannot be written: say why, if it can be
      // seen.
      guard let problem = Self.writeProblem(path) else { throw error }
      throw StoreError("\(error) (\(problem))")
    }
  }

  /// Checkpoints the log when it is due (``WALCheckpointer/upkeep(on:)``).
  public func upkeep() throws -> JournalUpkeep {
    let bytes = checkpointer.logBytes
    return JournalUpkeep(checkpointed: try checkpointer.upkeep(on: database), logBytes: bytes)
  }

  /// The log's file, in bytes (0 when there is none).
  public var walFileBytes: Int {
    (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
  }

  /// At a clean stop: the log copied into the database file and cut to nothing, so the data
  /// folder holds one file of what matters.
  public func close() {
    checkpointer.stop()
    _ = try? database.writeWithoutTransaction { try $0.checkpoint(.truncate) }
  }

  private func write(_ entries: [JournalEntry], to database: DatabaseQueue) throws {
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
          // Nothing of a closed table is read again; only its number stays used.
          let number = JournalEntry.number(of: id)
          try db.cachedStatement(sql: "UPDATE table_number SET highest = ? WHERE highest < ?")
            .execute(arguments: [number, number])
          try db.cachedStatement(sql: "DELETE FROM game_table WHERE id = ?")
            .execute(arguments: [id])
          try db.cachedStatement(sql: "DELETE FROM move WHERE table_id = ?")
            .execute(arguments: [id])
        case .session(let session):
          try db.cachedStatement(
            sql: """
              INSERT INTO session (token, name, table_id, seat, player) VALUES (?, ?, ?, ?, ?)
              ON CONFLICT(token) DO UPDATE SET
                name = excluded.name, table_id = excluded.table_id, seat = excluded.seat,
                player = excluded.player
              """
          ).execute(arguments: [
            session.token, session.name, session.tableID, session.seat, session.player,
          ])
        case .sessionEnded(let token):
          try db.cachedStatement(sql: "DELETE FROM session WHERE token = ?")
            .execute(arguments: [token])
        case .finished(let game):
          try keep(game, in: db)
        case .finishedInJournal(let game, let table, let deal):
          // Its moves are the deal's rows, written before it in this transaction (a long game:
          // a few thousand rows read once, when it ends).
          let moves = try Row.fetchAll(
            db,
            sql: "SELECT idx, kind, seat, card, at FROM move WHERE table_id = ? AND deal = ?",
            arguments: [table, deal]
          ).map { row in
            JournalMove(
              table: table, deal: deal, index: row["idx"],
              move: Move(kind: row["kind"], seat: row["seat"], card: row["card"]), at: row["at"],
              version: 0)
          }
          try keep(game.withMoves(moves), in: db)
        }
      }
    }
  }

  /// Keeps `game` (once per source), with a row per player who gave a player token.
  private func keep(_ game: FinishedGame, in db: Database) throws {
    // The record is kept without its id: the row's number (AUTOINCREMENT) gives it.
    try db.cachedStatement(
      sql: """
        INSERT OR IGNORE INTO finished_game (source, game, ended_at, seconds, score, record)
        VALUES (?, ?, ?, ?, ?, ?)
        """
    ).execute(arguments: [
      game.source, game.game, game.endedAt, game.seconds, game.score,
      String(decoding: try encoder.encode(game), as: UTF8.self),
    ])
    // Kept already (one game per source).
    guard db.changesCount > 0 else { return }
    let number = db.lastInsertedRowID
    for player in Set(game.players.compactMap(\.player)) {
      try db.cachedStatement(
        sql: "INSERT OR IGNORE INTO finished_player (player, game_number) VALUES (?, ?)"
      ).execute(arguments: [player, number])
    }
  }

  public func removeFinishedGames(endedBefore cutoff: Double, limit: Int) throws -> Int {
    // On the writer's connection (GRDB runs one write at a time on it), so the journal writer
    // waits for at most one such short transaction; a connection of its own would meet the
    // writer's lock as SQLITE_BUSY instead. Both indexes make it a few lookups per game.
    try database.write { db in
      let numbers = try Int.fetchAll(
        db, sql: "SELECT number FROM finished_game WHERE ended_at < ? ORDER BY ended_at LIMIT ?",
        arguments: [cutoff, max(0, limit)])
      guard !numbers.isEmpty else { return 0 }
      let list = numbers.map(String.init).joined(separator: ",")
      try db.execute(sql: "DELETE FROM finished_player WHERE game_number IN (\(list))")
      try db.execute(sql: "DELETE FROM finished_game WHERE number IN (\(list))")
      return numbers.count
    }
  }

  public func scores(_ query: ScoresQuery) throws -> ScoresPage {
    if query.mine && query.player == nil { return ScoresPage(total: 0, games: []) }
    var filter = "game = ?"
    var arguments: StatementArguments = [query.game]
    if query.mine, let player = query.player {
      filter += " AND number IN (SELECT game_number FROM finished_player WHERE player = ?)"
      arguments += [player]
    }
    let order = query.orderBy
    let decoder = JSONDecoder()
    let base = arguments
    func games(_ db: Database, _ sql: String, _ more: StatementArguments = []) throws
      -> [FinishedGame]
    {
      try Row.fetchAll(db, sql: sql, arguments: base + more).map {
        try FinishedGame.kept(number: $0["number"], record: $0["record"], decoder: decoder)
      }
    }
    return try reader.read { db in
      let total =
        try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM finished_game WHERE \(filter)", arguments: base) ?? 0
      let page = try games(
        db,
        "SELECT number, record FROM finished_game WHERE \(filter) ORDER BY \(order) LIMIT ? OFFSET ?",
        [query.pageSize, query.page * query.pageSize])
      let best = try games(
        db,
        "SELECT number, record FROM finished_game WHERE \(filter) "
          + "ORDER BY score DESC, ended_at ASC, number ASC LIMIT 1")
      let shortest = try games(
        db,
        "SELECT number, record FROM finished_game WHERE \(filter) "
          + "ORDER BY seconds ASC, ended_at ASC, number ASC LIMIT 1")
      return ScoresPage(total: total, games: page, best: best.first, shortest: shortest.first)
    }
  }

  /// How many table rows and move rows the file holds (for tests).
  func rowCounts() throws -> (tables: Int, moves: Int) {
    try database.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM game_table") ?? 0,
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM move") ?? 0
      )
    }
  }

  public func finishedGame(id: String) throws -> FinishedGame? {
    guard let number = FinishedGame.number(ofID: id) else { return nil }
    let decoder = JSONDecoder()
    return try reader.read { db in
      try String.fetchOne(
        db, sql: "SELECT record FROM finished_game WHERE number = ?", arguments: [number]
      ).map { try FinishedGame.kept(number: number, record: $0, decoder: decoder) }
    }
  }
}
