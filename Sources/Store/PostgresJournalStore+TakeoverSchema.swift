extension PostgresJournalStore {
  /// Version 5 of the schema: tables that move when their node dies, and writers fenced off.
  ///
  /// - `cluster_node.lease_until`: each node's one lease, renewed by the node every quarter of
  ///   it (``PostgresJournalStore/renewLeases()``). A table is held while its owner's lease is
  ///   live; once it runs out (the node was killed, frozen, or cut off from the database) any
  ///   live node may take the table over.
  /// - `game_table.epoch`: grows by one each time a table changes hands (a takeover, or a node
  ///   claiming it at start).
  /// - `journal_write_v5`: version 4's write, after locking the rows of every table it touches
  ///   (in id order) and checking, under that lock, that each is still the writer's at the epoch
  ///   the writer holds it at (`x_id`, `x_epoch`), and that a table the writer holds still
  ///   exists. A takeover takes the same row locks, so the two exclude each other: a write that
  ///   commits before a takeover is the last of the old owner's; one after it is refused with
  ///   SQLSTATE `MJ002`, its DETAIL the refused tables' ids, comma-separated.
  static let takeoverMigration = Migration(
    version: 5, name: "takeover: node leases, table epochs, fenced writes",
    statements: [
      "ALTER TABLE cluster_node ADD COLUMN lease_until TIMESTAMPTZ",
      "ALTER TABLE game_table ADD COLUMN epoch BIGINT NOT NULL DEFAULT 1",
      """
      CREATE FUNCTION journal_write_v5(
        p_owner TEXT, p_lease DOUBLE PRECISION, x_id TEXT[], x_epoch BIGINT[],
        t_id TEXT[], t_number BIGINT[], t_open BOOLEAN[], t_deal BIGINT[], t_record TEXT[],
        c_id TEXT[],
        d_table TEXT[], d_below BIGINT[],
        m_table TEXT[], m_deal BIGINT[], m_idx BIGINT[], m_kind BIGINT[], m_seat BIGINT[],
        m_card BIGINT[], m_at DOUBLE PRECISION[], m_version BIGINT[],
        s_token TEXT[], s_name TEXT[], s_table TEXT[], s_seat BIGINT[], s_player TEXT[],
        e_token TEXT[], r_token TEXT[],
        f_source TEXT[], f_game TEXT[], f_ended DOUBLE PRECISION[],
        f_seconds DOUBLE PRECISION[], f_score BIGINT[], f_record TEXT[], f_players TEXT[]
      ) RETURNS VOID LANGUAGE plpgsql AS $body$
      DECLARE
        fenced TEXT;
      BEGIN
        -- One statement: lock the rows (in id order), then refuse those held by another node or
        -- at another epoch, and those the writer holds that are gone.
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
        PERFORM journal_write_v4(p_owner, p_lease, t_id, t_number, t_open, t_deal, t_record,
          c_id, d_table, d_below, m_table, m_deal, m_idx, m_kind, m_seat, m_card, m_at,
          m_version, s_token, s_name, s_table, s_seat, s_player, e_token, r_token,
          f_source, f_game, f_ended, f_seconds, f_score, f_record, f_players);
      END
      $body$
      """,
      // Version 4's look-up with a node's lease for liveness, and 'orphaned' for a session
      // whose open table's owner is dead or nobody: the caller takes the table over first.
      """
      CREATE FUNCTION session_claim_v5(p_owner TEXT, p_token TEXT)
      RETURNS TABLE (o_outcome TEXT, o_name TEXT, o_table TEXT, o_seat BIGINT, o_player TEXT,
        o_node TEXT, o_url TEXT)
      LANGUAGE plpgsql AS $body$
      DECLARE
        found_session session%ROWTYPE;
        holder TEXT;
        open_table BOOLEAN := FALSE;
        live BOOLEAN := FALSE;
      BEGIN
        SELECT * INTO found_session FROM session WHERE token = p_token FOR UPDATE;
        IF NOT FOUND THEN
          RETURN QUERY SELECT 'unknown'::TEXT, NULL::TEXT, NULL::TEXT, NULL::BIGINT, NULL::TEXT,
            NULL::TEXT, NULL::TEXT;
          RETURN;
        END IF;
        SELECT TRUE, g.owner, EXISTS (SELECT 1 FROM cluster_node n
            WHERE n.id = g.owner AND n.lease_until > now())
          INTO open_table, holder, live
          FROM game_table g WHERE g.id = found_session.table_id AND g.open;
        IF open_table AND holder IS DISTINCT FROM p_owner AND live THEN
          RETURN QUERY SELECT 'elsewhere'::TEXT, found_session.name, found_session.table_id,
            found_session.seat::BIGINT, found_session.player, holder,
            (SELECT n.url FROM cluster_node n WHERE n.id = holder);
          RETURN;
        END IF;
        UPDATE session SET owner = p_owner WHERE token = p_token;
        RETURN QUERY SELECT
          CASE WHEN open_table AND holder IS DISTINCT FROM p_owner THEN 'orphaned' ELSE 'claimed'
          END, found_session.name, found_session.table_id, found_session.seat::BIGINT,
          found_session.player, p_owner, NULL::TEXT;
      END
      $body$
      """,
    ])
}

/// A journal write refused because other nodes hold some of its tables now (they took them
/// over after this node's lease ran out): nothing of the batch was written. The writer leaves
/// those tables' entries out and writes the rest; the lobby gives the tables up.
public struct FencedTables: Error, Sendable {
  /// The ids of the tables this node no longer holds.
  public var tables: [String]
}
