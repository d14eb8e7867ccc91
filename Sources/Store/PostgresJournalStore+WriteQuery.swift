import Foundation
import Lobby
import Protocol

extension PostgresJournalStore {
  /// The one statement that writes `batch` (see ``JournalBatch`` and ``writeMigration``).
  func writeQuery(_ batch: JournalBatch) throws -> PostgresQuery {
    // The epochs of the tables this node holds that the batch touches (a new table has none).
    let held = epochs(of: batch.touchedTables).sorted { $0.key < $1.key }
    var tableIDs: [String] = []
    var numbers: [Int] = []
    var opens: [Bool] = []
    var deals: [Int] = []
    var records: [String] = []
    for id in batch.tables.keys.sorted() {
      guard let (record, open) = batch.tables[id] else { continue }
      tableIDs.append(id)
      numbers.append(JournalEntry.number(of: id))
      opens.append(open)
      deals.append(record.deal)
      records.append(record.storedJSON())
    }
    let closedIDs = batch.closed.sorted()
    let cleared = batch.deleteBelow.keys.sorted()
    let below = cleared.map { batch.deleteBelow[$0] ?? 0 }
    let moves = batch.orderedMoves
    let rows = moves.map(\.move.row)
    var tokens: [String] = []
    var names: [String] = []
    var sessionTables: [String] = []
    var seats: [Int] = []
    var players: [String] = []
    var ended: [String] = []
    for token in batch.sessions.keys.sorted() {
      guard let session = batch.sessions[token] ?? nil else {
        ended.append(token)
        continue
      }
      // Arrays carry no NULLs here: '' and -1 stand for none (`journal_write` turns them back).
      tokens.append(token)
      names.append(session.name)
      sessionTables.append(session.tableID ?? "")
      seats.append(session.seat ?? -1)
      players.append(session.player ?? "")
    }
    let finished = batch.finished
    let finishedRecords = try finished.map { try $0.storedJSON(encoder: encoder) }
    // A game's players' hashes (hex), separated by spaces.
    let finishedPlayers = finished.map { $0.players.compactMap(\.player).joined(separator: " ") }
    return """
      SELECT journal_write(\(owner), \(held.map(\.key)), \(held.map(\.value)),
        \(tableIDs), \(numbers), \(opens), \(deals), \(records),
        \(closedIDs),
        \(cleared), \(below),
        \(moves.map(\.table)), \(moves.map(\.deal)), \(moves.map(\.index)), \(rows.map { $0.kind }),
        \(moves.map(\.move.seat)), \(rows.map { $0.card }), \(moves.map(\.at)), \(moves.map(\.version)),
        \(tokens), \(names), \(sessionTables), \(seats), \(players),
        \(ended), \(batch.released.sorted()),
        \(finished.map(\.source)), \(finished.map(\.game)), \(finished.map(\.endedAt)),
        \(finished.map(\.seconds)), \(finished.map(\.score)), \(finishedRecords),
        \(finishedPlayers), \(finished.map { ScoreList(of: $0).id }))
      """
  }
}
