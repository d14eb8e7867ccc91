import Model

extension PostgresJournalStore {
  /// Version 8 of the schema: ratings (``Rating``), kept in the transaction that keeps each
  /// rated game, so that every node reads the same ones.
  ///
  /// - `rating`: each player's rating per game; `rating_change`: what each rated game did to
  ///   each of its players' (deleted with the game, ``removeFinishedGames(endedBefore:limit:)``).
  /// - `rate_game` (dropped in version 13: the server rates, ``PostgresJournalStore/rate(_:on:)``):
  ///   rates one kept game, once (a batch written twice finds its changes there):
  ///   locks its players' rows in one order (two nodes rating the same players wait for each
  ///   other rather than deadlock), then computes what ``Rating/changes(_:)`` does, pair by
  ///   pair in the order given, with the same constants.
  /// - `journal_write_v8`: version 6's write, then `rate_game` for each finished game with
  ///   rated players (`f_rated`: their hashes, ordered and separated by spaces, as
  ///   ``FinishedGame/ratedPlayers`` gives them; `f_ranks`: their ranks; '' when not rated).
  static let ratingMigration = Migration(
    version: 8, name: "ratings",
    statements: [
      """
      CREATE TABLE rating (
        player TEXT NOT NULL,
        game TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (player, game)
      )
      """,
      """
      CREATE TABLE rating_change (
        game_number BIGINT NOT NULL,
        player TEXT NOT NULL,
        game TEXT NOT NULL,
        ended_at DOUBLE PRECISION NOT NULL,
        rank INTEGER NOT NULL,
        before DOUBLE PRECISION NOT NULL,
        after DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (game_number, player)
      )
      """,
      "CREATE INDEX rating_change_by_player ON rating_change (player, game, ended_at)",
      """
      CREATE FUNCTION rate_game(
        g BIGINT, p_game TEXT, p_ended DOUBLE PRECISION, p_player TEXT[], p_rank INTEGER[]
      ) RETURNS VOID LANGUAGE plpgsql AS $body$
      DECLARE
        n INTEGER := coalesce(array_length(p_player, 1), 0);
        r DOUBLE PRECISION[];
        c INTEGER[];
        ri DOUBLE PRECISION;
        ci INTEGER;
        s DOUBLE PRECISION;
        d DOUBLE PRECISION;
      BEGIN
        IF n < 2 OR EXISTS (SELECT 1 FROM rating_change WHERE game_number = g) THEN
          RETURN;
        END IF;
        INSERT INTO rating (player, game, rating, games)
          SELECT p, p_game, \(Rating.initial), 0 FROM unnest(p_player) AS p ORDER BY p
          ON CONFLICT DO NOTHING;
        PERFORM 1 FROM rating WHERE game = p_game AND player = ANY (p_player)
          ORDER BY player FOR UPDATE;
        FOR i IN 1 .. n LOOP
          SELECT rating, games INTO ri, ci FROM rating
            WHERE player = p_player[i] AND game = p_game;
          r[i] := ri;
          c[i] := ci;
        END LOOP;
        FOR i IN 1 .. n LOOP
          s := 0;
          FOR j IN 1 .. n LOOP
            IF j <> i THEN
              s := s + (CASE WHEN p_rank[i] < p_rank[j] THEN 1.0
                             WHEN p_rank[i] = p_rank[j] THEN 0.5 ELSE 0.0 END)
                     - 1.0 / (1.0 + power(10.0::DOUBLE PRECISION, (r[j] - r[i]) / 400.0));
            END IF;
          END LOOP;
          d := (CASE WHEN c[i] < \(Rating.provisionalGames) THEN \(Rating.provisionalK)
                     ELSE \(Rating.k) END)::DOUBLE PRECISION * s / (n - 1);
          UPDATE rating SET rating = r[i] + d, games = c[i] + 1
            WHERE player = p_player[i] AND game = p_game;
          INSERT INTO rating_change
            (game_number, player, game, ended_at, rank, before, after, games)
            VALUES (g, p_player[i], p_game, p_ended, p_rank[i], r[i], r[i] + d, c[i] + 1);
        END LOOP;
      END
      $body$
      """,
      """
      CREATE FUNCTION journal_write_v8(
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
      ) RETURNS VOID LANGUAGE plpgsql AS $body$
      DECLARE
        n BIGINT;
      BEGIN
        PERFORM journal_write_v6(p_owner, p_lease, x_id, x_epoch, t_id, t_number, t_open,
          t_deal, t_record, c_id, d_table, d_below, m_table, m_deal, m_idx, m_kind, m_seat,
          m_card, m_at, m_version, s_token, s_name, s_table, s_seat, s_player, e_token, r_token,
          f_source, f_game, f_ended, f_seconds, f_score, f_record, f_players, f_list);
        FOR i IN 1 .. coalesce(array_length(f_source, 1), 0) LOOP
          IF f_rated[i] <> '' THEN
            SELECT number INTO n FROM finished_game WHERE source = f_source[i];
            PERFORM rate_game(n, f_game[i], f_ended[i], string_to_array(f_rated[i], ' '),
              string_to_array(f_ranks[i], ' ')::INTEGER[]);
          END IF;
        END LOOP;
      END
      $body$
      """,
    ])
}
