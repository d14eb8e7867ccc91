extension PostgresJournalStore {
  /// Version 4 of the schema: what the nodes of a cluster share besides the journal.
  ///
  /// - `cluster_node`: each node's id and its own WebSocket URL (if it gives one).
  /// - `cluster_table`: every open table's lobby row, invite code and privacy, by the node that
  ///   holds it, written by that node (``PostgresClusterLink``) and announced on the channel
  ///   `matchismo_lobby`.
  /// - `journal_write_v4`: version 3's write with sessions that move between nodes. A session
  ///   row is written or deleted only by the node that owns it (or when nobody does), so a node
  ///   that handed a session on, or had it taken, never overwrites the new owner's; `r_token`
  ///   hands sessions on (their owner becomes NULL).
  /// - `session_claim`: a session looked up by a node that does not know it. When its table is
  ///   open under another node's live lease it stays where it is ('elsewhere', with that node
  ///   and its URL); otherwise it becomes the caller's ('claimed'). 'unknown' when there is none.
  static let clusterMigration = Migration(
    version: 4, name: "cluster: nodes, lobby rows, sessions that move",
    statements: [
      """
      CREATE TABLE cluster_node (
        id TEXT PRIMARY KEY,
        url TEXT,
        started TIMESTAMPTZ NOT NULL DEFAULT now()
      )
      """,
      """
      CREATE TABLE cluster_table (
        id TEXT PRIMARY KEY,
        node TEXT NOT NULL,
        code TEXT NOT NULL,
        private BOOLEAN NOT NULL,
        listing TEXT NOT NULL
      )
      """,
      "CREATE INDEX cluster_table_by_node ON cluster_table (node)",
      """
      CREATE FUNCTION journal_write_v4(
        p_owner TEXT, p_lease DOUBLE PRECISION,
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
      BEGIN
        PERFORM journal_write_v3(p_owner, p_lease, t_id, t_number, t_open, t_deal, t_record,
          c_id, d_table, d_below, m_table, m_deal, m_idx, m_kind, m_seat, m_card, m_at,
          m_version, '{}', '{}', '{}', '{}', '{}', '{}',
          f_source, f_game, f_ended, f_seconds, f_score, f_record, f_players);
        INSERT INTO session AS s (token, name, table_id, seat, player, owner)
          SELECT u.token, u.name, NULLIF(u.table_id, ''), NULLIF(u.seat, -1),
            NULLIF(u.player, ''), p_owner
          FROM unnest(s_token, s_name, s_table, s_seat, s_player)
            AS u (token, name, table_id, seat, player)
          ON CONFLICT (token) DO UPDATE SET name = excluded.name,
            table_id = excluded.table_id, seat = excluded.seat, player = excluded.player,
            owner = excluded.owner
          WHERE s.owner IS NULL OR s.owner = p_owner;
        DELETE FROM session WHERE token = ANY (e_token) AND (owner IS NULL OR owner = p_owner);
        UPDATE session SET owner = NULL WHERE token = ANY (r_token) AND owner = p_owner;
      END
      $body$
      """,
      """
      CREATE FUNCTION session_claim(p_owner TEXT, p_token TEXT)
      RETURNS TABLE (o_outcome TEXT, o_name TEXT, o_table TEXT, o_seat BIGINT, o_player TEXT,
        o_node TEXT, o_url TEXT)
      LANGUAGE plpgsql AS $body$
      DECLARE
        found_session session%ROWTYPE;
        holder TEXT;
      BEGIN
        SELECT * INTO found_session FROM session WHERE token = p_token FOR UPDATE;
        IF NOT FOUND THEN
          RETURN QUERY SELECT 'unknown'::TEXT, NULL::TEXT, NULL::TEXT, NULL::BIGINT, NULL::TEXT,
            NULL::TEXT, NULL::TEXT;
          RETURN;
        END IF;
        SELECT g.owner INTO holder FROM game_table g
          WHERE g.id = found_session.table_id AND g.open AND g.owner <> p_owner
            AND g.lease_until > now();
        IF holder IS NOT NULL THEN
          RETURN QUERY SELECT 'elsewhere'::TEXT, found_session.name, found_session.table_id,
            found_session.seat::BIGINT, found_session.player, holder,
            (SELECT n.url FROM cluster_node n WHERE n.id = holder);
          RETURN;
        END IF;
        UPDATE session SET owner = p_owner WHERE token = p_token;
        RETURN QUERY SELECT 'claimed'::TEXT, found_session.name, found_session.table_id,
          found_session.seat::BIGINT, found_session.player, p_owner, NULL::TEXT;
      END
      $body$
      """,
    ])
}
