import Model
import Protocol

/// What a table owes the journal and has not handed over yet: a new ``TableRecord`` when
/// anything besides a move changed, the moves of the current deal, and the games that ended.
/// With ``isOn`` false (a table that does not journal) it keeps nothing and hands over nothing.
struct TableJournalQueue: Sendable {
  /// Whether the table journals (``TableRules/journals``).
  let isOn: Bool
  /// Something besides a move changed since the last record.
  private(set) var recordDue = true
  /// Moves not taken yet, in order.
  private var moves: [JournalMove] = []
  /// Games that ended and are not taken yet (a ``JournalEntry/finished(_:)`` or
  /// ``JournalEntry/finishedInJournal(_:table:deal:)``).
  private var finished: [JournalEntry] = []
  /// When each move of the current deal's record was made, in seconds into play, to the
  /// millisecond: its ``FinishedGame`` keeps the moves with their times.
  private(set) var times = MoveTimes()
  /// Moves accepted in the current deal (numbers the next one).
  private(set) var movesThisDeal = 0

  /// An empty queue for a table that journals when `isOn`.
  init(isOn: Bool) {
    self.isOn = isOn
  }

  /// Whether anything waits to be taken.
  var isEmpty: Bool { !(isOn && (recordDue || !moves.isEmpty || !finished.isEmpty)) }

  /// Something besides a move changed (seats, phases, votes): the next take begins with a new
  /// record.
  mutating func tableChanged() {
    if isOn { recordDue = true }
  }

  /// A new deal: a new record, and the old deal's moves are done with.
  mutating func newDeal() {
    movesThisDeal = 0
    moves = []
    times = MoveTimes()
    recordDue = isOn
  }

  /// The move numbered ``movesThisDeal`` of the current deal was kept in the game's record
  /// `at` seconds into play (`logged`: while the record still keeps every move).
  mutating func timeLogged(at: Double, logged: Bool) {
    if isOn && logged { times.append(at) }
  }

  /// `move`, a play of deal `deal` at `table`, was accepted `at` seconds into play and made
  /// `version`.
  mutating func accepted(_ move: Move, table: String, deal: Int, at: Double, version: Int) {
    guard move.isPlay else { return }
    if isOn {
      moves.append(
        JournalMove(
          table: table, deal: deal, index: movesThisDeal, move: move, at: at, version: version))
    }
    movesThisDeal += 1
  }

  /// A game ended: `entry` is written after the move that ended it, in the same batch.
  mutating func gameEnded(_ entry: JournalEntry) {
    if isOn { finished.append(entry) }
  }

  /// The entries since the last call: `record`, the table as it is now, first when one is due
  /// (``recordDue``; nil otherwise), then the moves in order, then the games that ended.
  mutating func take(record: TableRecord?) -> [JournalEntry] {
    guard !isEmpty else { return [] }
    var entries: [JournalEntry] = []
    if recordDue, let record {
      recordDue = false
      entries.append(.table(record))
    }
    for move in moves { entries.append(.move(move)) }
    moves.removeAll(keepingCapacity: true)
    entries += finished
    finished.removeAll()
    return entries
  }

  /// The table was opened again after a restart: what it owed was written before, and it owes
  /// nothing until it changes again.
  mutating func restored() {
    moves = []
    finished = []
    recordDue = false
  }
}
