extension PostgresJournalStore {
  /// Version 9 of the schema: the time a session's claim decides liveness at is the caller's
  /// (``LeaseClock``), as it is for every other lease decision.
  ///
  /// - `session_claim_v9`: version 5's look-up, with `p_now` in place of `now()` (a server
  ///   passes `now()`, so nothing changes for it; a test passes its own clock's time).
  static let leaseClockMigration = Migration(
    version: 9, name: "the lease clock is the caller's",
    statements: [
      """
      CREATE FUNCTION session_claim_v9(p_owner TEXT, p_token TEXT, p_now TIMESTAMPTZ)
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
            WHERE n.id = g.owner AND n.lease_until > p_now)
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
      """
    ])
}
