import Foundation
import Protocol

extension SQLiteJournalStore {
  /// The table that names the migrations a file has had, one row each (its name is GRDB's,
  /// which made the journals before this code: they open as they are).
  static let migrationsTable = "grdb_migrations"

  /// One step of the schema: its name, kept in ``migrationsTable`` once it ran, and its work.
  struct Migration {
    let name: String
    let run: (SQLiteConnection) throws -> Void

    init(_ name: String, _ run: @escaping (SQLiteConnection) throws -> Void) {
      self.name = name
      self.run = run
    }
  }

  /// Brings the database of `connection` up to date: each migration it has not had, in order,
  /// in a transaction of its own with its name; up to the one named `last` (for tests), else all.
  /// Names it does not know (a newer server's) are left alone.
  static func migrate(_ connection: SQLiteConnection, upTo last: String? = nil) throws {
    try connection.withLock {
      try $0.execute(
        "CREATE TABLE IF NOT EXISTS \(migrationsTable) (identifier TEXT NOT NULL PRIMARY KEY)")
    }
    let applied: [String] = try connection.withLock {
      try $0.values("SELECT identifier FROM \(migrationsTable)")
    }
    for migration in migrations {
      if !applied.contains(migration.name) {
        try connection.transaction(.immediate) { db in
          try migration.run(db)
          try db.run(
            "INSERT INTO \(migrationsTable) (identifier) VALUES (?)", [.text(migration.name)])
        }
      }
      if migration.name == last { return }
    }
  }

  /// The schema, one migration per version; a database is brought up to date when opened.
  static var migrations: [Migration] {
    [
      Migration("v1: tables, moves, sessions") { db in
        try db.execute(
          """
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
      },
      Migration("v2: finished games, players") { db in
        try db.execute(
          """
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
      },
      Migration("v3: closed tables deleted, finished games by age") { db in
        // A closed table's row goes when it closes; the highest number of a deleted row is kept
        // here, so that a table number is never used twice.
        try db.execute(
          """
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
      },
      Migration("v4: high-score lists") { db in
        // Each finished game's list (``ScoreList``), given by its record: games whose scores can
        // be compared share one, and `scores` reads one list at a time.
        try db.execute(
          """
          ALTER TABLE finished_game ADD COLUMN list TEXT NOT NULL DEFAULT '';
          DROP INDEX finished_game_by_score;
          DROP INDEX finished_game_by_seconds;
          CREATE INDEX finished_game_list_by_date ON finished_game (game, list, ended_at);
          CREATE INDEX finished_game_list_by_score ON finished_game (game, list, score);
          CREATE INDEX finished_game_list_by_seconds ON finished_game (game, list, seconds);
          """)
        let decoder = JSONDecoder()
        for row in try db.rows("SELECT number, record FROM finished_game") {
          let record: String = row["record"]
          let game = try decoder.decode(FinishedGame.self, from: Data(record.utf8))
          try db.run(
            "UPDATE finished_game SET list = ? WHERE number = ?",
            [.text(ScoreList(of: game).id), (row["number"] as Int).sqliteValue])
        }
      },
      Migration("v5: daily puzzle results") { db in
        // A daily puzzle's game is kept under `daily:<day>:<game>:<who>`: its day, read from the
        // source by the database itself (nothing to write), finds a day's board by index.
        try db.execute(
          """
          ALTER TABLE finished_game ADD COLUMN daily TEXT
            GENERATED ALWAYS AS (
              CASE WHEN substr(source, 1, 6) = 'daily:' THEN substr(source, 7, 10) END) VIRTUAL;
          CREATE INDEX finished_game_daily ON finished_game (game, daily) WHERE daily IS NOT NULL;
          """)
      },
      Migration("v6: ratings") { db in
        // A player's rating per game (``Rating``), and what each rated game did to it: kept in
        // the transaction that keeps the game (``SQLiteJournalStore/rate(_:number:in:)``).
        try db.execute(
          """
          CREATE TABLE rating (
            player TEXT NOT NULL,
            game TEXT NOT NULL,
            rating REAL NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (player, game)
          ) WITHOUT ROWID;
          CREATE TABLE rating_change (
            game_number INTEGER NOT NULL,
            player TEXT NOT NULL,
            game TEXT NOT NULL,
            ended_at REAL NOT NULL,
            rank INTEGER NOT NULL,
            before REAL NOT NULL,
            after REAL NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (game_number, player)
          ) WITHOUT ROWID;
          CREATE INDEX rating_change_by_player ON rating_change (player, game, ended_at);
          """)
      },
      Migration("v7: arenas") { db in
        // An arena whole (``Arena``, as JSON), replaced at each change; one that is over keeps
        // its final standings. Those not over, and the latest over, are read back at start.
        try db.execute(
          """
          CREATE TABLE arena (
            id TEXT PRIMARY KEY NOT NULL,
            closed INTEGER NOT NULL,
            ends REAL NOT NULL,
            record TEXT NOT NULL
          );
          CREATE INDEX arena_by_end ON arena (closed, ends);
          """)
      },
      Migration("v8: the daily puzzle's own high-score lists") { db in
        // A daily puzzle's games are no longer ranked with other solo games (``ScoreList``):
        // `solo.course` becomes `daily.course`.
        try db.execute(ScoreList.dailyListsMigration)
      },
      Migration("v9: recent moves, in the order they come") { db in
        // Moves in the order they come, by row id (``SQLiteJournalStore/moveInsert``); the
        // oldest settle into `move` or go (``SQLiteJournalStore/settleRecentMoves()``).
        try db.execute(
          """
          CREATE TABLE recent_move (
            table_id TEXT NOT NULL,
            deal INTEGER NOT NULL,
            idx INTEGER NOT NULL,
            kind INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            card INTEGER NOT NULL,
            at REAL NOT NULL,
            version INTEGER NOT NULL
          );
          """)
      },
    ]
  }
}
