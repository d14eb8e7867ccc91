import Lobby

/// The hot part of a commit: one transaction per batch, and one row per move.
///
/// Most batches hold a single move (commits go at the transport's pace), so what a commit costs
/// beside its row is what a move costs. BEGIN and COMMIT are prepared once and kept in the
/// connection's statement cache (``SQLiteConnection/transaction(_:_:)``), and a move's values
/// are bound to its statement directly, with nothing made per row: measured with `perf` in
/// scenario a, parsing `BEGIN IMMEDIATE TRANSACTION` again at each commit took a third of a
/// single-move commit, and building an arguments array for the row as long as SQLite's own
/// insert (docs/BENCHMARKS.md, "The commit's own cost").
extension SQLiteJournalStore {
  /// The statement that writes one move's row.
  static let moveInsert = "INSERT OR REPLACE INTO move VALUES (?, ?, ?, ?, ?, ?, ?, ?)"

  /// Writes `move`'s row with `statement` (``moveInsert``, from the connection's cache).
  func insert(_ move: JournalMove, with statement: SQLiteStatement) throws {
    let (kind, card) = move.move.row
    try statement.bindText(move.table, at: 1)
    statement.bindInteger(Int64(move.deal), at: 2)
    statement.bindInteger(Int64(move.index), at: 3)
    statement.bindInteger(Int64(kind), at: 4)
    statement.bindInteger(Int64(move.move.seat), at: 5)
    statement.bindInteger(Int64(card), at: 6)
    statement.bindDouble(move.at, at: 7)
    statement.bindInteger(Int64(move.version), at: 8)
    try statement.step()
  }
}
