import Foundation
import Protocol

extension PostgresJournalStore {
  /// Version 6 of the schema: each finished game's high-score list (``ScoreList``), so that
  /// `scores` reads one list at a time, and games whose scores cannot be compared never share a
  /// ranking.
  ///
  /// - `finished_game.list`: the list's id, given by the game's record; games kept before this
  ///   version get theirs from their records when the schema is brought up to it
  ///   (``backfillScoreLists(on:)``).
  /// - `journal_write_v6`: version 5's write, then the lists of the finished games it kept
  ///   (`f_list`, one per `f_source`).
  static let scoreListMigration = Migration(
    version: 6, name: "high-score lists",
    statements: [
      "ALTER TABLE finished_game ADD COLUMN list TEXT NOT NULL DEFAULT ''",
      "DROP INDEX finished_game_by_score",
      "DROP INDEX finished_game_by_seconds",
      "CREATE INDEX finished_game_list_by_date ON finished_game (game, list, ended_at)",
      "CREATE INDEX finished_game_list_by_score ON finished_game (game, list, score)",
      "CREATE INDEX finished_game_list_by_seconds ON finished_game (game, list, seconds)",
      """
      CREATE FUNCTION journal_write_v6(
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
        f_list TEXT[]
      ) RETURNS VOID LANGUAGE plpgsql AS $body$
      BEGIN
        PERFORM journal_write_v5(p_owner, p_lease, x_id, x_epoch, t_id, t_number, t_open,
          t_deal, t_record, c_id, d_table, d_below, m_table, m_deal, m_idx, m_kind, m_seat,
          m_card, m_at, m_version, s_token, s_name, s_table, s_seat, s_player, e_token, r_token,
          f_source, f_game, f_ended, f_seconds, f_score, f_record, f_players);
        -- A game kept before (a batch written twice) has its list already.
        UPDATE finished_game f SET list = u.list
          FROM unnest(f_source, f_list) AS u (source, list)
          WHERE f.source = u.source AND f.list = '';
      END
      $body$
      """,
    ],
    backfill: { store, connection in try store.backfillScoreLists(on: connection) })

  /// Gives every finished game without a list the one its record says, a few hundred at a time
  /// (a record holds every move: reading them all at once could take a great deal of memory).
  func backfillScoreLists(on connection: PostgresConnection) throws {
    var after = 0
    while true {
      let rows = try run(
        """
        SELECT number, record FROM finished_game WHERE list = '' AND number > \(after)
        ORDER BY number LIMIT 500
        """, on: connection
      ).map { row in try row.decode((Int, String).self) }
      guard let last = rows.last?.0 else { return }
      let lists = try rows.map {
        ScoreList(of: try decoder.decode(FinishedGame.self, from: Data($0.1.utf8))).id
      }
      _ = try run(
        """
        UPDATE finished_game f SET list = u.list
        FROM unnest(\(rows.map(\.0)), \(lists)) AS u (number, list) WHERE f.number = u.number
        """, on: connection)
      after = last
    }
  }
}
