import Lobby
import Protocol

/// What a run of journal entries does to a store, folded into one set of row changes that can
/// be applied as a few multi-row statements in a fixed order (upsert tables, close tables, delete
/// old moves, upsert moves, upsert sessions, delete sessions) with the same result as applying
/// the entries one by one:
///
/// - a table's row is its last ``JournalEntry/table(_:)`` (closed if a
///   ``JournalEntry/tableClosed(_:)`` came after it), or, with no record in the run, only closed
///   (a closed row is then deleted: `journal_write`);
/// - moves already stored lose those of deals older than the newest record's deal, or all of them
///   when the table closed; the run's own moves are dropped by a later record or close the same
///   way, and a later move with the same key replaces an earlier one;
/// - a session is its last entry: the record, or its end; one handed on to another node
///   (``JournalEntry/sessionReleased(_:)``) is written first, then let go.
struct JournalBatch {
  /// A move's place in its table's moves.
  struct MoveKey: Hashable {
    var deal: Int
    var index: Int
  }

  /// Table rows to write, with whether each stays open.
  private(set) var tables: [String: (record: TableRecord, open: Bool)] = [:]
  /// Tables to close that have no record in the run (only their stored row changes).
  private(set) var closed: Set<String> = []
  /// Per table, the deal below which stored moves are deleted (`Int.max`: all of them).
  private(set) var deleteBelow: [String: Int] = [:]
  /// The run's moves that survive it, by table.
  private(set) var moves: [String: [MoveKey: JournalMove]] = [:]
  /// Sessions to write (a record) or delete (nil), by token hash.
  private(set) var sessions: [String: SessionRecord?] = [:]
  /// Sessions handed on to another node (``JournalEntry/sessionReleased(_:)``), by token hash.
  private(set) var released: Set<String> = []
  /// Finished games to keep, in order, one per source.
  private(set) var finished: [FinishedGame] = []
  /// Arenas to write, each as the run left it.
  private(set) var arenas: [String: Arena] = [:]

  /// The net effect of `entries`, applied in order.
  init(_ entries: [JournalEntry]) {
    for entry in entries {
      switch entry {
      case .table(let record):
        tables[record.id] = (record, true)
        closed.remove(record.id)
        deleteBelow[record.id] = max(deleteBelow[record.id] ?? Int.min, record.deal)
        moves[record.id] = moves[record.id]?.filter { $0.key.deal >= record.deal }
      case .move(let move):
        moves[move.table, default: [:]][MoveKey(deal: move.deal, index: move.index)] = move
      case .tableClosed(let id):
        if tables[id] != nil {
          tables[id]?.open = false
        } else {
          closed.insert(id)
        }
        deleteBelow[id] = Int.max
        moves[id] = nil
      case .session(let session):
        sessions[session.token] = .some(session)
        released.remove(session.token)
      case .sessionEnded(let token):
        sessions[token] = .some(nil)
        released.remove(token)
      case .sessionReleased(let token):
        released.insert(token)
      case .finished(let game),
        // A store gives it its moves before it folds the batch; as it is, it has none.
        .finishedInJournal(let game, _, _):
        if !finished.contains(where: { $0.source == game.source }) { finished.append(game) }
      case .arena(let arena):
        arenas[arena.id] = arena
      }
    }
  }

  /// The ids of every table the run touches (rows, closes, moves).
  var touchedTables: Set<String> {
    Set(tables.keys).union(closed).union(moves.keys).union(deleteBelow.keys)
  }

  /// Every move that survives the run, by table then deal and index (a stable order, so that
  /// two writers lock rows in the same order).
  var orderedMoves: [JournalMove] {
    moves.keys.sorted().flatMap { table in
      moves[table, default: [:]].values.sorted { ($0.deal, $0.index) < ($1.deal, $1.index) }
    }
  }
}
