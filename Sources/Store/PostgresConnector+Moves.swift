import Lobby
import Model

extension PostgresConnector {
  /// The moves of the current deal of each of `tables`, in order, by table id: what a table is
  /// rebuilt from, at a start or a takeover.
  func currentDealMoves(of tables: [String], on connection: PostgresConnection) throws
    -> [String: [JournalMove]]
  {
    var moves: [String: [JournalMove]] = [:]
    for row in try run(
      """
      SELECT m.table_id, m.deal, m.idx, m.kind, m.seat, m.card, m.at, m.version
      FROM move m JOIN game_table t ON t.id = m.table_id AND t.deal = m.deal
      WHERE t.id = ANY (\(tables)) ORDER BY m.table_id, m.idx
      """, on: connection)
    {
      let (table, deal, index, kind, seat, card, at, version) = try row.decode(
        (String, Int, Int, Int, Int, Int, Double, Int).self)
      moves[table, default: []].append(
        JournalMove(
          table: table, deal: deal, index: index,
          move: Move(kind: kind, seat: seat, card: card), at: at, version: version))
    }
    return moves
  }
}
