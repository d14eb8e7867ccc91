import Protocol

extension PostgresJournalStore {
  /// One version of the schema: the statements that bring the previous version to it.
  struct Migration: Sendable {
    /// The version it makes (from 1, one more than the last).
    var version: Int
    /// What it does, kept in `schema_version`.
    var name: String
    /// Its statements, run in order in one transaction.
    var statements: [String]
    /// What it does after them, in the same transaction, that SQL alone should not: data that
    /// only the server's own types can read (records).
    var backfill: (@Sendable (PostgresJournalStore, PostgresConnection) throws -> Void)? = nil
  }

  /// Every version of the schema, oldest first. A database is brought up to the last one when a
  /// store opens it; a database of a newer version than the last is refused.
  ///
  /// Version 1: the embedded store's three tables, plus what several servers sharing the
  /// database need: each table's `owner` and `lease_until`, each session's `owner`, and the
  /// sequence `table_block` that gives each server start its own range of table numbers.
  /// `journal_write` applies one ``JournalBatch`` (as arrays, one per column) in the order
  /// the batch requires, renews the caller's leases when a third of them has gone, and refuses
  /// (SQLSTATE `MJ001`) to touch a table whose live lease is another server's.
  static let migrations: [Migration] = [
    Migration(
      version: 1, name: "tables, moves, sessions, leases",
      statements: [
        """
        CREATE TABLE game_table (
          id TEXT PRIMARY KEY,
          number BIGINT NOT NULL,
          open BOOLEAN NOT NULL,
          deal BIGINT NOT NULL,
          record TEXT NOT NULL,
          owner TEXT,
          lease_until TIMESTAMPTZ
        )
        """,
        "CREATE INDEX game_table_lease ON game_table (owner, lease_until) WHERE open",
        """
        CREATE TABLE move (
          table_id TEXT NOT NULL,
          deal BIGINT NOT NULL,
          idx INTEGER NOT NULL,
          kind SMALLINT NOT NULL,
          seat SMALLINT NOT NULL,
          card INTEGER NOT NULL,
          at DOUBLE PRECISION NOT NULL,
          version BIGINT NOT NULL,
          PRIMARY KEY (table_id, deal, idx)
        )
        """,
        """
        CREATE TABLE session (
          token TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          table_id TEXT,
          seat INTEGER,
          owner TEXT
        )
        """,
        "CREATE SEQUENCE table_block",
        """
        CREATE FUNCTION journal_write(
          p_owner TEXT, p_lease DOUBLE PRECISION,
          t_id TEXT[], t_number BIGINT[], t_open BOOLEAN[], t_deal BIGINT[], t_record TEXT[],
          c_id TEXT[],
          d_table TEXT[], d_below BIGINT[],
          m_table TEXT[], m_deal BIGINT[], m_idx BIGINT[], m_kind BIGINT[], m_seat BIGINT[],
          m_card BIGINT[], m_at DOUBLE PRECISION[], m_version BIGINT[],
          s_token TEXT[], s_name TEXT[], s_table TEXT[], s_seat BIGINT[],
          e_token TEXT[]
        ) RETURNS VOID LANGUAGE plpgsql AS $body$
        DECLARE
          lease INTERVAL := make_interval(secs => p_lease);
          taken TEXT;
        BEGIN
          SELECT id INTO taken FROM game_table
            WHERE id = ANY (t_id || c_id || m_table) AND owner <> p_owner AND lease_until > now()
            LIMIT 1;
          IF taken IS NOT NULL THEN
            RAISE EXCEPTION 'table % is held by another server', taken USING ERRCODE = 'MJ001';
          END IF;
          INSERT INTO game_table (id, number, open, deal, record, owner, lease_until)
            SELECT u.id, u.number, u.open, u.deal, u.record, p_owner, now() + lease
            FROM unnest(t_id, t_number, t_open, t_deal, t_record)
              AS u (id, number, open, deal, record)
            ON CONFLICT (id) DO UPDATE SET open = excluded.open, deal = excluded.deal,
              record = excluded.record, owner = excluded.owner,
              lease_until = excluded.lease_until;
          UPDATE game_table SET open = FALSE WHERE id = ANY (c_id);
          DELETE FROM move USING unnest(d_table, d_below) AS d (table_id, below)
            WHERE move.table_id = d.table_id AND move.deal < d.below;
          INSERT INTO move (table_id, deal, idx, kind, seat, card, at, version)
            SELECT * FROM unnest(m_table, m_deal, m_idx, m_kind, m_seat, m_card, m_at, m_version)
            ON CONFLICT (table_id, deal, idx) DO UPDATE SET kind = excluded.kind,
              seat = excluded.seat, card = excluded.card, at = excluded.at,
              version = excluded.version;
          INSERT INTO session (token, name, table_id, seat, owner)
            SELECT u.token, u.name, NULLIF(u.table_id, ''), NULLIF(u.seat, -1), p_owner
            FROM unnest(s_token, s_name, s_table, s_seat) AS u (token, name, table_id, seat)
            ON CONFLICT (token) DO UPDATE SET name = excluded.name,
              table_id = excluded.table_id, seat = excluded.seat, owner = excluded.owner;
          DELETE FROM session WHERE token = ANY (e_token);
          UPDATE game_table SET lease_until = now() + lease
            WHERE owner = p_owner AND open AND lease_until < now() + lease * 2 / 3;
        END
        $body$
        """,
      ]),
    Migration(
      version: 2, name: "finished games, players",
      statements: [
        "ALTER TABLE session ADD COLUMN player TEXT",
        """
        CREATE TABLE finished_game (
          number BIGSERIAL PRIMARY KEY,
          source TEXT NOT NULL UNIQUE,
          game TEXT NOT NULL,
          ended_at DOUBLE PRECISION NOT NULL,
          seconds DOUBLE PRECISION NOT NULL,
          score INTEGER NOT NULL,
          record TEXT NOT NULL
        )
        """,
        "CREATE INDEX finished_game_by_date ON finished_game (game, ended_at)",
        "CREATE INDEX finished_game_by_score ON finished_game (game, score)",
        "CREATE INDEX finished_game_by_seconds ON finished_game (game, seconds)",
        """
        CREATE TABLE finished_player (
          player TEXT NOT NULL,
          game_number BIGINT NOT NULL REFERENCES finished_game (number),
          PRIMARY KEY (player, game_number)
        )
        """,
        // The writer's function as version 1 made it, plus each session's player and the
        // finished games (one per source: a batch written twice keeps each game once).
        """
        CREATE FUNCTION journal_write_v2(
          p_owner TEXT, p_lease DOUBLE PRECISION,
          t_id TEXT[], t_number BIGINT[], t_open BOOLEAN[], t_deal BIGINT[], t_record TEXT[],
          c_id TEXT[],
          d_table TEXT[], d_below BIGINT[],
          m_table TEXT[], m_deal BIGINT[], m_idx BIGINT[], m_kind BIGINT[], m_seat BIGINT[],
          m_card BIGINT[], m_at DOUBLE PRECISION[], m_version BIGINT[],
          s_token TEXT[], s_name TEXT[], s_table TEXT[], s_seat BIGINT[], s_player TEXT[],
          e_token TEXT[],
          f_source TEXT[], f_game TEXT[], f_ended DOUBLE PRECISION[],
          f_seconds DOUBLE PRECISION[], f_score BIGINT[], f_record TEXT[], f_players TEXT[]
        ) RETURNS VOID LANGUAGE plpgsql AS $body$
        DECLARE
          n BIGINT;
        BEGIN
          PERFORM journal_write(p_owner, p_lease, t_id, t_number, t_open, t_deal, t_record, c_id,
            d_table, d_below, m_table, m_deal, m_idx, m_kind, m_seat, m_card, m_at, m_version,
            s_token, s_name, s_table, s_seat, e_token);
          UPDATE session SET player = NULLIF(u.player, '')
            FROM unnest(s_token, s_player) AS u (token, player)
            WHERE session.token = u.token;
          FOR i IN 1 .. coalesce(array_length(f_source, 1), 0) LOOP
            INSERT INTO finished_game (source, game, ended_at, seconds, score, record)
              VALUES (f_source[i], f_game[i], f_ended[i], f_seconds[i], f_score[i], f_record[i])
              ON CONFLICT (source) DO NOTHING
              RETURNING number INTO n;
            IF n IS NOT NULL THEN
              INSERT INTO finished_player (player, game_number)
                SELECT DISTINCT p, n FROM unnest(string_to_array(f_players[i], ' ')) AS p
                WHERE p <> ''
                ON CONFLICT DO NOTHING;
            END IF;
          END LOOP;
        END
        $body$
        """,
      ]),
    // A closed table's row and moves are deleted when it closes (the sequence `table_block`,
    // not the rows, keeps table numbers from being used twice), and finished games can be
    // deleted oldest first without reading them all.
    Migration(
      version: 3, name: "closed tables deleted, finished games by age",
      statements: [
        "DELETE FROM move WHERE table_id IN (SELECT id FROM game_table WHERE NOT open)",
        "DELETE FROM game_table WHERE NOT open",
        "CREATE INDEX finished_game_by_end ON finished_game (ended_at)",
        "CREATE INDEX finished_player_by_game ON finished_player (game_number)",
        // Version 2's function, then the rows of the tables the batch closed go (the lease
        // check has passed: they are this server's or nobody's).
        """
        CREATE FUNCTION journal_write_v3(
          p_owner TEXT, p_lease DOUBLE PRECISION,
          t_id TEXT[], t_number BIGINT[], t_open BOOLEAN[], t_deal BIGINT[], t_record TEXT[],
          c_id TEXT[],
          d_table TEXT[], d_below BIGINT[],
          m_table TEXT[], m_deal BIGINT[], m_idx BIGINT[], m_kind BIGINT[], m_seat BIGINT[],
          m_card BIGINT[], m_at DOUBLE PRECISION[], m_version BIGINT[],
          s_token TEXT[], s_name TEXT[], s_table TEXT[], s_seat BIGINT[], s_player TEXT[],
          e_token TEXT[],
          f_source TEXT[], f_game TEXT[], f_ended DOUBLE PRECISION[],
          f_seconds DOUBLE PRECISION[], f_score BIGINT[], f_record TEXT[], f_players TEXT[]
        ) RETURNS VOID LANGUAGE plpgsql AS $body$
        BEGIN
          PERFORM journal_write_v2(p_owner, p_lease, t_id, t_number, t_open, t_deal, t_record,
            c_id, d_table, d_below, m_table, m_deal, m_idx, m_kind, m_seat, m_card, m_at,
            m_version, s_token, s_name, s_table, s_seat, s_player, e_token,
            f_source, f_game, f_ended, f_seconds, f_score, f_record, f_players);
          DELETE FROM game_table WHERE id = ANY (t_id || c_id) AND NOT open;
        END
        $body$
        """,
      ]),
    clusterMigration,
    takeoverMigration,
    scoreListMigration,
    Migration(
      version: 7, name: "daily puzzle results",
      statements: [
        // A daily puzzle's game is kept under `daily:<day>:<game>:<who>`: its day, read from
        // the source by the database itself (nothing to write), finds a day's board by index.
        """
        ALTER TABLE finished_game ADD COLUMN daily TEXT
          GENERATED ALWAYS AS (
            CASE WHEN substr(source, 1, 6) = 'daily:' THEN substr(source, 7, 10) END) STORED
        """,
        "CREATE INDEX finished_game_daily ON finished_game (game, daily) WHERE daily IS NOT NULL",
      ]),
    ratingMigration,
    leaseClockMigration,
    arenaMigration,
    Migration(
      version: 11, name: "the daily puzzle's own high-score lists",
      // A daily puzzle's games are no longer ranked with other solo games (``ScoreList``).
      statements: [ScoreList.dailyListsMigration]),
    Migration(
      version: 12, name: "a node alive since",
      // Since when each node has renewed its lease without a gap, by the database's clock
      // (``PostgresJournalStore/renewLease(on:)``): after the database stood still, every lease
      // has run out, and a node judges its peers only once they had time to renew.
      statements: ["ALTER TABLE cluster_node ADD COLUMN IF NOT EXISTS alive_since TIMESTAMPTZ"]),
    writeMigration,
    Migration(
      version: 14, name: "a node's address for the other nodes",
      // Where the other nodes reach a node that gives no URL to clients
      // (``PostgresClusterLink/linkURL``): they link there to watch its tables for their
      // spectators rather than send them on.
      statements: ["ALTER TABLE cluster_node ADD COLUMN IF NOT EXISTS link_url TEXT"]),
  ]

  /// The advisory lock that servers creating `schema_version` take, one at a time.
  static let schemaLock: Int64 = 0x6D6C_6976_6553_6368

  /// Brings the schema up to the last of ``migrations`` (or to version `through`), each version
  /// in a transaction of its own; refuses a database of a newer version.
  func migrate(on connection: PostgresConnection, through: Int? = nil) throws {
    try transaction(on: connection) {
      // Servers starting at once on a new database: `IF NOT EXISTS` alone lets two of them
      // create the table together, and one fails on its type's name. One at a time.
      _ = try run("SELECT pg_advisory_xact_lock(\(Self.schemaLock))", on: connection)
      _ = try run(
        """
        CREATE TABLE IF NOT EXISTS schema_version (
          version INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          applied TIMESTAMPTZ NOT NULL DEFAULT now()
        )
        """, on: connection)
    }
    let latest = Self.migrations.last?.version ?? 0
    for migration in Self.migrations where migration.version <= through ?? latest {
      let applied = try transaction(on: connection) { () throws -> Bool in
        // One server migrates at a time; the others wait here, then find the work done.
        _ = try run("LOCK TABLE schema_version IN SHARE ROW EXCLUSIVE MODE", on: connection)
        let current =
          try run("SELECT COALESCE(MAX(version), 0) FROM schema_version", on: connection)
          .first?.decode(Int.self) ?? 0
        guard current <= latest else {
          throw StoreError(
            "the database's schema is version \(current), newer than this server's (\(latest))")
        }
        guard current < migration.version else { return false }
        for statement in migration.statements {
          _ = try run(PostgresQuery(unsafeSQL: statement), on: connection)
        }
        try migration.backfill?(self, connection)
        _ = try run(
          """
          INSERT INTO schema_version (version, name)
          VALUES (\(migration.version), \(migration.name))
          """, on: connection)
        return true
      }
      if applied {
        logger.notice("journal schema version \(migration.version): \(migration.name)")
      }
    }
  }
}
