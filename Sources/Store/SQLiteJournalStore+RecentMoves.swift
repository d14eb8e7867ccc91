import Lobby
import Model

/// A move is written where it costs least: appended to `recent_move`, whose rows go in the
/// order they come (a row id one past the last), so that a commit of moves from twenty tables
/// writes the one or two pages at its end, where a row in its table's place in `move` (by table,
/// deal and index) wrote a page per table. The write-ahead log takes whole pages: in fast play
/// (500 tables of fast bots) a commit of four moves wrote three to four pages (two `pwrite`s
/// each, and SQLite's work per page) (docs/BENCHMARKS.md).
///
/// `recent_move` stays short (``recentMoveRows``): between two commits, once it holds more,
/// its oldest rows settle (``settleRecentMoves()``), those of an open table's current deal into
/// `move` (several to a page now) and the rest (earlier deals, closed tables, whose numbers
/// are never used again) nowhere. Readers take a deal's moves from both, a recent row over a
/// `move` row of the same index (the recent one is the later write).
extension SQLiteJournalStore {
  /// The rows `recent_move` holds before its oldest settle: at 10,000 moves a second, three
  /// seconds of play (about 1.5 MB of file), by which time many fast games' deals are over and
  /// their rows go nowhere.
  public static let defaultRecentMoveRows = 32_768

  /// A move row's columns, in the order ``journalMove(_:)`` reads them.
  private static let moveColumns = "table_id, deal, idx, kind, seat, card, at, version"

  /// The statement that writes one move's row.
  static let moveInsert = "INSERT INTO recent_move VALUES (?, ?, ?, ?, ?, ?, ?, ?)"

  /// The rows `settleRecentMoves()` takes at once: a small part of them (128 by default), since
  /// every move that comes meanwhile waits for it. A 32nd (1,024 rows) held the writer 0.5-16 ms
  /// six times a second in fast play, longer than all but 1 % of its commits; a 256th holds it
  /// 0.1-0.5 ms, eight times as often, for 0.4 % more of a core (docs/BENCHMARKS.md).
  var recentMoveChunk: Int { max(1, recentMoveRows / 256) }

  /// Writes `move`'s row with `statement` (``moveInsert``, from the connection's cache) on
  /// `db`, noting where `recent_move` ends. The values are bound one by one, nothing made per row:
  /// an arguments array cost as much as SQLite's insert (docs/BENCHMARKS.md, "The commit's
  /// own cost").
  func insert(_ move: JournalMove, with statement: SQLiteStatement, on db: SQLiteConnection)
    throws
  {
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
    recentMoveEnd = db.lastInsertedRowID
  }

  /// Reads where `recent_move` begins and ends (at open, and after its oldest rows settle).
  func readRecentMoveEnds(_ db: SQLiteConnection) throws {
    recentMoveStart = try db.value("SELECT MIN(rowid) FROM recent_move") ?? 1
    recentMoveEnd = try db.value("SELECT MAX(rowid) FROM recent_move") ?? 0
  }

  /// Between two commits, when `recent_move` holds more than ``recentMoveRows`` rows: its oldest
  /// go, at least ``recentMoveChunk`` of them, those of an open table's current deal into
  /// `move`.
  func settleRecentMoves() throws {
    // The end noted by the inserts may count rows of a commit that failed: read both ends.
    guard recentMoveEnd - recentMoveStart + 1 > recentMoveRows else { return }
    try database.withLock { try readRecentMoveEnds($0) }
    let rows = recentMoveEnd - recentMoveStart + 1
    guard rows > recentMoveRows else { return }
    let cut = recentMoveStart + max(rows - Int64(recentMoveRows), Int64(recentMoveChunk)) - 1
    try database.transaction(.immediate) { db in
      // In order, so that a later row of the same index replaces an earlier one.
      try db.run(
        """
        INSERT OR REPLACE INTO move (table_id, deal, idx, kind, seat, card, at, version)
        SELECT l.table_id, l.deal, l.idx, l.kind, l.seat, l.card, l.at, l.version
        FROM recent_move AS l JOIN game_table AS g ON g.id = l.table_id AND g.deal = l.deal
        WHERE l.rowid <= ? ORDER BY l.rowid
        """, [.integer(cut)])
      try db.run("DELETE FROM recent_move WHERE rowid <= ?", [.integer(cut)])
      try readRecentMoveEnds(db)
    }
  }

  /// The moves of deal `deal` of `table` in `recent_move`, oldest first: a scan of its rows
  /// (at most ``recentMoveRows`` and a settling's worth), for a game longer than its table keeps
  /// in memory (2,048 moves), which is rare; an index would cost every move a page again.
  func recentMoves(table: String, deal: Int, in db: SQLiteConnection) throws -> [JournalMove] {
    try Self.moves(of: table, deal: deal, from: "recent_move", order: "rowid", in: db)
  }

  /// The moves of deal `deal` of `table` in `move` (in index order).
  func storedMoves(table: String, deal: Int, in db: SQLiteConnection) throws -> [JournalMove] {
    try Self.moves(of: table, deal: deal, from: "move", order: "idx", in: db)
  }

  /// The moves of deal `deal` of `table` in `source` (`move` or `recent_move`), by `order`.
  private static func moves(
    of table: String, deal: Int, from source: StaticString, order: StaticString,
    in db: SQLiteConnection
  ) throws -> [JournalMove] {
    try db.rows(
      """
      SELECT \(moveColumns) FROM \(source)
      WHERE table_id = ? AND deal = ? ORDER BY \(order)
      """, [.text(table), deal.sqliteValue]
    ).map(journalMove)
  }

  /// Every move in `recent_move`, oldest first, by table.
  func recentMovesByTable(in db: SQLiteConnection) throws -> [String: [JournalMove]] {
    var byTable: [String: [JournalMove]] = [:]
    for row in try db.rows(
      "SELECT \(Self.moveColumns) FROM recent_move ORDER BY rowid")
    {
      let move = Self.journalMove(row)
      byTable[move.table, default: []].append(move)
    }
    return byTable
  }

  /// A deal's moves from `move` (`stored`) and `recent_move` (`recent`, oldest first), by
  /// index: a recent move over a stored one of the same index, a later one over an earlier.
  static func merged(stored: [JournalMove], recent: [JournalMove]) -> [JournalMove] {
    guard !recent.isEmpty else { return stored }
    var byIndex: [Int: JournalMove] = [:]
    for move in stored + recent { byIndex[move.index] = move }
    return byIndex.values.sorted { $0.index < $1.index }
  }

  private static func journalMove(_ row: SQLiteRow) -> JournalMove {
    JournalMove(
      table: row["table_id"], deal: row["deal"], index: row["idx"],
      move: Move(kind: row["kind"], seat: row["seat"], card: row["card"]), at: row["at"],
      version: row["version"])
  }

  /// How many rows `recent_move` holds (for tests).
  func recentMoveRowCount() throws -> Int {
    try database.withLock { try $0.value("SELECT COUNT(*) FROM recent_move") ?? 0 }
  }
}
