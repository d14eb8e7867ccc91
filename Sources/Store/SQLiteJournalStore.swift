import CSQLite
import Foundation
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
  /// The writer's connection: journal writes, checkpoints and removals of finished games.
  let database: SQLiteConnection
  /// A read-only connection for questions about finished games, asked from another thread
  /// than the writer's (WAL lets it read while the writer writes).
  let reader: SQLiteConnection
  /// Encodes arenas and the rating changes of finished games for their rows.
  let encoder = JSONEncoder()
  private let decoder = JSONDecoder()
  /// Keeps the log under its bound.
  let checkpointer: WALCheckpointer
  /// The rows `recent_move` holds before its oldest settle (``settleRecentMoves()``).
  let recentMoveRows: Int
  /// The first and last row ids of `recent_move`, as the writer last saw them (its thread only).
  var recentMoveStart: Int64 = 1
  var recentMoveEnd: Int64 = 0

  /// Opens (creating it if needed) `journal.sqlite` in `directory`, migrated to the current
  /// schema. Throws a ``StoreError`` saying what is wrong: a directory that cannot be made, a
  /// file or folder that cannot be written, a file that is not a database, is damaged or is
  /// another program's, a schema from a newer version. A file that is refused is left as it
  /// was: it is checked before anything is written to it. `walCheckpointBytes` is the log length
  /// at which the writer checkpoints, `recentMoveRows` the rows of recent moves before their
  /// oldest settle (tests make them small).
  public init(
    directory: String, durability: Durability = .process,
    walCheckpointBytes: Int = SQLiteJournalStore.defaultWALCheckpointBytes,
    recentMoveRows: Int = SQLiteJournalStore.defaultRecentMoveRows
  ) throws {
    self.recentMoveRows = max(1, recentMoveRows)
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
    do {
      // A damaged file is refused here rather than half read later, and before the switch to
      // WAL or a migration writes to it.
      if FileManager.default.fileExists(atPath: path) { try Self.check(path) }
      // Only a checkpoint ever waits on this connection: for a reader still in the log, or the
      // copy ahead.
      database = try SQLiteConnection(path: path, busyTimeout: WALCheckpointer.readerWait)
      // A new file only: a file that exists keeps the page size it was made with.
      try database.execute("PRAGMA page_size = \(Self.pageSize)")
      try database.execute("PRAGMA journal_mode = WAL")
      try database.execute(
        durability == .process ? "PRAGMA synchronous = NORMAL" : "PRAGMA synchronous = FULL")
      // Checkpoints come between commits (``upkeep()``), never inside one.
      try database.execute("PRAGMA wal_autocheckpoint = 0")
      // When the log starts again, its file is cut back to the checkpoint's length.
      try database.execute("PRAGMA journal_size_limit = \(walCheckpointBytes)")
      try Self.migrate(database)
      let pageSize = try database.withLock { try $0.value("PRAGMA page_size") } ?? 4096
      checkpointer = WALCheckpointer(
        path: path, pageSize: pageSize, thresholdBytes: walCheckpointBytes)
      reader = try SQLiteConnection(path: path, readonly: true)
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError("cannot open the journal \(path): \(error)")
    }
    checkpointer.listen(to: database)
    do {
      try database.withLock { try readRecentMoveEnds($0) }
    } catch {
      throw StoreError("cannot open the journal \(path): \(error)")
    }
  }

  /// Starts copying the log ahead of the writer's checkpoints on a thread of its own, so that
  /// they hold moves up for only a moment (``WALCheckpointer``).
  public func startCopyingAhead() throws {
    try checkpointer.startCopyingAhead()
  }

  public func load() throws -> JournalContents {
    try database.transaction { db in
      var contents = JournalContents()
      let rows = try db.rows("SELECT record FROM game_table WHERE open = 1 ORDER BY number")
      let recent = try recentMovesByTable(in: db)
      for row in rows {
        let text: String = row["record"]
        let record = try decoder.decode(TableRecord.self, from: Data(text.utf8))
        let moves = Self.merged(
          stored: try storedMoves(table: record.id, deal: record.deal, in: db),
          recent: recent[record.id, default: []].filter { $0.deal == record.deal })
        contents.tables.append((record, moves))
      }
      let arenas: [String] = try db.values(
        """
        SELECT record FROM arena WHERE closed = 0
        UNION ALL
        SELECT record FROM (SELECT record FROM arena WHERE closed = 1 ORDER BY ends DESC LIMIT ?)
        """, [ArenaBook.finishedKept.sqliteValue])
      contents.arenas = Arena.kept(
        try arenas.map { try decoder.decode(Arena.self, from: Data($0.utf8)) })
      contents.sessions = try db.rows(
        "SELECT token, name, table_id, seat, player FROM session ORDER BY token"
      ).map {
        SessionRecord(
          token: $0["token"], name: $0["name"], tableID: $0["table_id"], seat: $0["seat"],
          player: $0["player"])
      }
      contents.lastTableNumber =
        try db.value(
          """
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

  /// Settles the oldest recent moves when there are many (``settleRecentMoves()``), and
  /// checkpoints the write-ahead log when it is due (``WALCheckpointer/upkeep(on:)``).
  public func upkeep() throws -> JournalUpkeep {
    try settleRecentMoves()
    let bytes = checkpointer.logBytes
    return JournalUpkeep(checkpointed: try checkpointer.upkeep(on: database), logBytes: bytes)
  }

  /// The log's length, in pages, that the latest copy ahead found (``WALCheckpointer``).
  var pagesCopiedAhead: Int { checkpointer.pagesCopiedAhead }

  /// The log's file, in bytes (0 when there is none).
  public var walFileBytes: Int {
    (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
  }

  /// At a clean stop: the log copied into the database file and cut to nothing, so the data
  /// folder holds one file of what matters.
  public func close() {
    checkpointer.stop()
    // A copy still under way: the log stays, and the next start reads it.
    guard checkpointer.writerCheckpoints() else { return }
    _ = try? database.withLock { try $0.checkpoint(SQLITE_CHECKPOINT_TRUNCATE) }
  }

  private func write(_ entries: [JournalEntry], to database: SQLiteConnection) throws {
    try database.transaction(.immediate) { try write(entries, in: $0) }
  }

  /// The rows of `entries`, in `db`'s transaction.
  private func write(_ entries: [JournalEntry], in db: SQLiteConnection) throws {
    var moveInsert: SQLiteStatement?
    for entry in entries {
      switch entry {
      case .table(let record):
        let text = record.storedJSON()
        try db.run(
          """
          INSERT INTO game_table (id, number, open, deal, record) VALUES (?, ?, 1, ?, ?)
          ON CONFLICT(id) DO UPDATE SET open = 1, deal = excluded.deal, record = excluded.record
          """,
          [
            .text(record.id), JournalEntry.number(of: record.id).sqliteValue,
            record.deal.sqliteValue, .text(text),
          ])
        try db.run(
          "DELETE FROM move WHERE table_id = ? AND deal < ?",
          [.text(record.id), record.deal.sqliteValue])
      case .move(let move):
        let statement = try moveInsert ?? db.cached(Self.moveInsert)
        moveInsert = statement
        try insert(move, with: statement, on: db)
      case .tableClosed(let id):
        // Nothing of a closed table is read again; only its number stays used.
        let number = JournalEntry.number(of: id)
        try db.run(
          "UPDATE table_number SET highest = ? WHERE highest < ?",
          [number.sqliteValue, number.sqliteValue])
        try db.run("DELETE FROM game_table WHERE id = ?", [.text(id)])
        try db.run("DELETE FROM move WHERE table_id = ?", [.text(id)])
      case .session(let session):
        try db.run(
          """
          INSERT INTO session (token, name, table_id, seat, player) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT(token) DO UPDATE SET
            name = excluded.name, table_id = excluded.table_id, seat = excluded.seat,
            player = excluded.player
          """,
          [
            .text(session.token), .text(session.name), session.tableID.sqliteValue,
            session.seat.sqliteValue, session.player.sqliteValue,
          ])
      case .sessionEnded(let token):
        try db.run("DELETE FROM session WHERE token = ?", [.text(token)])
      case .sessionReleased:
        // No other node shares this file: the session stays as it is.
        break
      case .arena(let arena):
        let text = String(decoding: try encoder.encode(arena), as: UTF8.self)
        try db.run(
          """
          INSERT INTO arena (id, closed, ends, record) VALUES (?, ?, ?, ?)
          ON CONFLICT(id) DO UPDATE SET
            closed = excluded.closed, ends = excluded.ends, record = excluded.record
          """, [.text(arena.id), arena.closed.sqliteValue, arena.ends.sqliteValue, .text(text)])
      case .finished(let game):
        try keep(game, in: db)
      case .finishedInJournal(let game, let table, let deal):
        // Its moves are the deal's rows, written before it in this transaction (a long game:
        // a few thousand rows read once, when it ends).
        let moves = Self.merged(
          stored: try storedMoves(table: table, deal: deal, in: db),
          recent: try recentMoves(table: table, deal: deal, in: db))
        try keep(game.withMoves(moves), in: db)
      }
    }
  }

  /// How many table rows the file holds, and how many moves it would load or keep: the rows of
  /// `move` and the rows of `recent_move` of open tables' current deals (its other rows go when
  /// they settle; ``recentMoveRowCount()`` counts them) (for tests).
  func rowCounts() throws -> (tables: Int, moves: Int) {
    try database.transaction { db in
      (
        try db.value("SELECT COUNT(*) FROM game_table") ?? 0,
        try db.value(
          """
          SELECT COUNT(*) FROM (
            SELECT table_id, deal, idx FROM move
            UNION
            SELECT l.table_id, l.deal, l.idx FROM recent_move AS l
            JOIN game_table AS g ON g.id = l.table_id AND g.deal = l.deal
          )
          """) ?? 0
      )
    }
  }
}
