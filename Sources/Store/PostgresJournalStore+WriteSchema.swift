extension PostgresJournalStore {
  /// Version 13 of the schema: the journal's write is one function, `journal_write`, written
  /// whole, where versions 1 to 8 each wrapped the one before (version 8's called 6's, … down
  /// to 1's: every batch ran seven functions, passing 37 arrays down each time). The history
  /// stays in the migrations; a later version that changes the write replaces the function
  /// (`CREATE OR REPLACE`, or drop and create when its arguments change).
  ///
  /// What it does, in order, in the one statement and transaction of a batch:
  /// 1. locks the rows of every table the batch touches (in id order) and refuses, with SQLSTATE
  ///    `MJ002` and the tables' ids as DETAIL, the batch that touches a table another node holds
  ///    or holds at another epoch, or one the writer holds that is gone (version 5's fence; a
  ///    takeover takes the same locks);
  /// 2. writes the open tables' rows, and deletes those of the tables it closes (version 3);
  /// 3. deletes the moves of older deals (by the key's index, table by table), then writes the
  ///    batch's moves;
  /// 4. writes, deletes and hands on sessions, each only if nobody or the writer owns it
  ///    (version 4);
  /// 5. keeps each finished game once per source with its players and its high-score list
  ///    (versions 2 and 6).
  ///
  /// Ratings are no longer the database's to compute (version 8's `rate_game` is dropped): the
  /// server computes them by the rule the embedded store uses, in the batch's transaction
  /// (``PostgresJournalStore/rate(_:on:)``).
  ///
  /// Left out, as no reader needs them: version 1's check of each table's own lease (the fence
  /// is stricter: any other owner is refused), and its renewal of every table's lease on each
  /// write (an update of a third of a node's rows a lease, where a node's one lease in
  /// `cluster_node` is what every decision reads since version 5). Each step runs only when the
  /// batch has rows for it.
  ///
  /// `journal_write_v8` stays, calling `journal_write`, for nodes of the version before this
  /// one while a rolling upgrade replaces them; the games such a node ends are kept unrated.
  static let writeMigration = Migration(
    version: 13, name: "the journal's write is one function",
    statements: [
      """
      CREATE FUNCTION journal_write(
        p_owner TEXT, x_id TEXT[], x_epoch BIGINT[],
        t_id TEXT[], t_number BIGINT[], t_open BOOLEAN[], t_deal BIGINT[], t_record TEXT[],
        c_id TEXT[],
        d_table TEXT[], d_below BIGINT[],
        m_table TEXT[], m_deal BIGINT[], m_idx BIGINT[], m_kind BIGINT[], m_seat BIGINT[],
        m_card BIGINT[], m_at DOUBLE PRECISION[], m_version BIGINT[],
        s_token TEXT[], s_name TEXT[], s_table TEXT[], s_seat BIGINT[], s_player TEXT[],
        e_token TEXT[], r_token TEXT[],
        f_source TEXT[], f_game TEXT[], f_ended DOUBLE PRECISION[],
        f_seconds DOUBLE PRECISION[], f_score BIGINT[], f_record TEXT[], f_players TEXT[],
        f_list TEXT[]
      ) RETURNS VOID LANGUAGE plpgsql AS $body$
      DECLARE
        fenced TEXT;
        n BIGINT;
      BEGIN
        WITH locked AS (
          SELECT g.id, g.owner, g.epoch FROM game_table g
          WHERE g.id = ANY (t_id || c_id || m_table) ORDER BY g.id FOR UPDATE)
        SELECT string_agg(id, ',' ORDER BY id) INTO fenced FROM (
          SELECT l.id FROM locked l LEFT JOIN unnest(x_id, x_epoch) AS x (id, epoch) ON x.id = l.id
            WHERE l.owner IS DISTINCT FROM p_owner OR l.epoch <> COALESCE(x.epoch, l.epoch)
          UNION ALL
          SELECT x.id FROM unnest(x_id) AS x (id)
            WHERE NOT x.id = ANY (ARRAY(SELECT id FROM locked))
        ) AS refused;
        IF fenced IS NOT NULL THEN
          RAISE EXCEPTION 'tables held by another node: %', fenced
            USING ERRCODE = 'MJ002', DETAIL = fenced;
        END IF;
        IF cardinality(t_id) > 0 THEN
          INSERT INTO game_table (id, number, open, deal, record, owner)
            SELECT u.id, u.number, TRUE, u.deal, u.record, p_owner
            FROM unnest(t_id, t_number, t_open, t_deal, t_record)
              AS u (id, number, open, deal, record)
            WHERE u.open
            ON CONFLICT (id) DO UPDATE SET open = TRUE, deal = excluded.deal,
              record = excluded.record, owner = excluded.owner;
        END IF;
        IF cardinality(c_id) > 0 OR FALSE = ANY (t_open) THEN
          DELETE FROM game_table WHERE id = ANY (c_id || ARRAY(
            SELECT u.id FROM unnest(t_id, t_open) AS u (id, open) WHERE NOT u.open));
        END IF;
        -- Table by table, each a range of the key's index: as one join with the arrays the
        -- planner scanned every move (12 ms a deal with 48,000 moves stored).
        FOR i IN 1 .. cardinality(d_table) LOOP
          DELETE FROM move WHERE table_id = d_table[i] AND deal < d_below[i];
        END LOOP;
        IF cardinality(m_table) > 0 THEN
          INSERT INTO move (table_id, deal, idx, kind, seat, card, at, version)
            SELECT * FROM unnest(m_table, m_deal, m_idx, m_kind, m_seat, m_card, m_at, m_version)
            ON CONFLICT (table_id, deal, idx) DO UPDATE SET kind = excluded.kind,
              seat = excluded.seat, card = excluded.card, at = excluded.at,
              version = excluded.version;
        END IF;
        IF cardinality(s_token) > 0 THEN
          INSERT INTO session AS s (token, name, table_id, seat, player, owner)
            SELECT u.token, u.name, NULLIF(u.table_id, ''), NULLIF(u.seat, -1),
              NULLIF(u.player, ''), p_owner
            FROM unnest(s_token, s_name, s_table, s_seat, s_player)
              AS u (token, name, table_id, seat, player)
            ON CONFLICT (token) DO UPDATE SET name = excluded.name,
              table_id = excluded.table_id, seat = excluded.seat, player = excluded.player,
              owner = excluded.owner
            WHERE s.owner IS NULL OR s.owner = p_owner;
        END IF;
        IF cardinality(e_token) > 0 THEN
          DELETE FROM session WHERE token = ANY (e_token) AND (owner IS NULL OR owner = p_owner);
        END IF;
        IF cardinality(r_token) > 0 THEN
          UPDATE session SET owner = NULL WHERE token = ANY (r_token) AND owner = p_owner;
        END IF;
        FOR i IN 1 .. cardinality(f_source) LOOP
          -- A game kept before (a batch written twice) is kept once.
          INSERT INTO finished_game (source, game, ended_at, seconds, score, record, list)
            VALUES (f_source[i], f_game[i], f_ended[i], f_seconds[i], f_score[i], f_record[i],
              f_list[i])
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
      """
      CREATE OR REPLACE FUNCTION journal_write_v8(
        p_owner TEXT, p_lease DOUBLE PRECISION, x_id TEXT[], x_epoch BIGINT[],
        t_id TEXT[], t_number BIGINT[], t_open BOOLEAN[], t_deal BIGINT[], t_record TEXT[],
        c_id TEXT[],
        d_table TEXT[], d_below BIGINT[],
        m_table TEXT[], m_deal BIGINT[], m_idx BIGINT[], m_kind BIGINT[], m_seat BIGINT[],
        m_card BIGINT[], m_at DOUBLE PRECISION[], m_version BIGINT[],
        s_token TEXT[], s_name TEXT[], s_table TEXT[], s_seat BIGINT[], s_player TEXT[],
        e_token TEXT[], r_token TEXT[],
        f_source TEXT[], f_game TEXT[], f_ended DOUBLE PRECISION[],
        f_seconds DOUBLE PRECISION[], f_score BIGINT[], f_record TEXT[], f_players TEXT[],
        f_list TEXT[], f_rated TEXT[], f_ranks TEXT[]
      ) RETURNS VOID LANGUAGE sql AS $body$
        SELECT journal_write(p_owner, x_id, x_epoch, t_id, t_number, t_open, t_deal, t_record,
          c_id, d_table, d_below, m_table, m_deal, m_idx, m_kind, m_seat, m_card, m_at,
          m_version, s_token, s_name, s_table, s_seat, s_player, e_token, r_token,
          f_source, f_game, f_ended, f_seconds, f_score, f_record, f_players, f_list)
      $body$
      """,
      "DROP FUNCTION rate_game",
      "DROP FUNCTION journal_write_v6",
      "DROP FUNCTION journal_write_v5",
      "DROP FUNCTION journal_write_v4",
      "DROP FUNCTION journal_write_v3",
      "DROP FUNCTION journal_write_v2",
      // Version 1's, of 23 arguments (the new one is an overload of the same name until then).
      """
      DROP FUNCTION journal_write(TEXT, DOUBLE PRECISION, TEXT[], BIGINT[], BOOLEAN[], BIGINT[],
        TEXT[], TEXT[], TEXT[], BIGINT[], TEXT[], BIGINT[], BIGINT[], BIGINT[], BIGINT[], BIGINT[],
        DOUBLE PRECISION[], BIGINT[], TEXT[], TEXT[], TEXT[], BIGINT[], TEXT[])
      """,
    ])
}
