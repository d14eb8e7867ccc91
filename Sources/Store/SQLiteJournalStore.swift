import Foundation
import GRDB
import Lobby
import Model
import Protocol

/// The embedded store: one SQLite file (WAL mode) in the data directory. Nothing to install or
/// start; the default.
public final class SQLiteJournalStore: JournalStore, @unchecked Sendable {
  /// The database file.
  public let path: String
  private let database: DatabaseQueue
  /// A second connection that only checkpoints the WAL into the database file, on a thread of
  /// its own, so that a write never waits for a checkpoint's fsync.
  private let checkpointer: DatabaseQueue
  /// A read-only connection for questions about finished games, asked from another thread
  /// than the writer's (WAL lets it read while the writer writes).
  private let reader: DatabaseQueue
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
      var reading = Configuration()
      reading.label = "journal-reader"
      reading.readonly = true
      reader = try DatabaseQueue(path: path, configuration: reading)
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
    migrator.registerMigration("v2: finished games, players") { db in
      try db.execute(
        sql: """
          ALTER TABLE session ADD COLUMN player TEXT;
          CREATE TABLE finished_game (
            number INTEGER PRIMARY KEY AUTOINCREMENT,
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
          let kind: Int = row["kind"]
          let seat: Int = row["seat"]
          let card: Int = row["card"]
          return JournalMove(
            table: record.id, deal: record.deal, index: row["idx"],
            move: kind == 1 ? .pass(seat: seat) : .choose(seat: seat, card: card), at: row["at"],
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
          let (kind, card): (Int, Int) =
            switch move.move {
            case .choose(_, let card): (0, card)
            case .pass: (1, 0)
            case .redeal: (2, 0)
            }
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
          // The number comes first (AUTOINCREMENT), then the record with its id in it.
          try db.cachedStatement(
            sql: """
              INSERT INTO finished_game (game, ended_at, seconds, score, record)
              VALUES (?, ?, ?, ?, '')
              """
          ).execute(arguments: [game.game, game.endedAt, game.seconds, game.score])
          let number = db.lastInsertedRowID
          var kept = game
          kept.id = "g\(number)"
          try db.cachedStatement(sql: "UPDATE finished_game SET record = ? WHERE number = ?")
            .execute(arguments: [
              String(decoding: try encoder.encode(kept), as: UTF8.self), number,
            ])
          for player in Set(game.players.compactMap(\.player)) {
            try db.cachedStatement(
              sql: "INSERT OR IGNORE INTO finished_player (player, game_number) VALUES (?, ?)"
            ).execute(arguments: [player, number])
          }
        }
      }
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
    let column =
      switch query.sort {
      case .date: "ended_at"
      case .score: "score"
      case .duration: "seconds"
      }
    let direction = query.descending ? "DESC" : "ASC"
    // Ties: the later game first (as ScoresPage.select orders them).
    let order =
      query.sort == .date
      ? "ended_at \(direction), number DESC"
      : "\(column) \(direction), ended_at DESC, number DESC"
    let decoder = JSONDecoder()
    let base = arguments
    func games(_ db: Database, _ sql: String, _ more: StatementArguments = []) throws
      -> [FinishedGame]
    {
      try String.fetchAll(db, sql: sql, arguments: base + more).map {
        try decoder.decode(FinishedGame.self, from: Data($0.utf8))
      }
    }
    return try reader.read { db in
      let total =
        try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM finished_game WHERE \(filter)", arguments: base) ?? 0
      let page = try games(
        db,
        "SELECT record FROM finished_game WHERE \(filter) ORDER BY \(order) LIMIT ? OFFSET ?",
        [query.pageSize, query.page * query.pageSize])
      let best = try games(
        db,
        "SELECT record FROM finished_game WHERE \(filter) "
          + "ORDER BY score DESC, ended_at ASC, number ASC LIMIT 1")
      let shortest = try games(
        db,
        "SELECT record FROM finished_game WHERE \(filter) "
          + "ORDER BY seconds ASC, ended_at ASC, number ASC LIMIT 1")
      return ScoresPage(total: total, games: page, best: best.first, shortest: shortest.first)
    }
  }

  public func finishedGame(id: String) throws -> FinishedGame? {
    guard id.hasPrefix("g"), let number = Int(id.dropFirst()) else { return nil }
    let decoder = JSONDecoder()
    return try reader.read { db in
      try String.fetchOne(
        db, sql: "SELECT record FROM finished_game WHERE number = ?", arguments: [number]
      ).map { try decoder.decode(FinishedGame.self, from: Data($0.utf8)) }
    }
  }
}
