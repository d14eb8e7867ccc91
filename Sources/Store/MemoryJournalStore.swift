import Lobby
import Protocol
import Synchronization

/// A store in memory, with the same meaning as the database stores: for tests, and for anyone
/// who wants the journal's bookkeeping without a file.
public final class MemoryJournalStore: JournalStore, Sendable {
  private struct Contents {
    var tables: [String: (record: TableRecord, open: Bool)] = [:]
    var moves: [String: [Int: JournalMove]] = [:]
    var sessions: [String: SessionRecord] = [:]
    var finished: [FinishedGame] = []
  }

  private let contents = Mutex(Contents())

  /// An empty store.
  public init() {}

  public func load() throws -> JournalContents {
    contents.withLock { c in
      var loaded = JournalContents()
      let open = c.tables.values.filter(\.open).map(\.record).sorted {
        JournalEntry.number(of: $0.id) < JournalEntry.number(of: $1.id)
      }
      for record in open {
        let moves = (c.moves[record.id] ?? [:]).values.filter { $0.deal == record.deal }
          .sorted { $0.index < $1.index }
        loaded.tables.append((record, moves))
      }
      loaded.sessions = c.sessions.values.sorted { $0.token < $1.token }
      loaded.lastTableNumber = c.tables.keys.map { JournalEntry.number(of: $0) }.max() ?? 0
      return loaded
    }
  }

  public func write(_ entries: [JournalEntry]) throws {
    contents.withLock { c in
      for entry in entries {
        switch entry {
        case .table(let record):
          c.tables[record.id] = (record, true)
          c.moves[record.id] = c.moves[record.id]?.filter { $0.value.deal >= record.deal }
        case .move(let move):
          c.moves[move.table, default: [:]][move.deal * 1_000_000 + move.index] = move
        case .tableClosed(let id):
          c.tables[id]?.open = false
          c.moves[id] = nil
        case .session(let session):
          c.sessions[session.token] = session
        case .sessionEnded(let token):
          c.sessions[token] = nil
        case .finished(var game):
          guard !c.finished.contains(where: { $0.source == game.source }) else { continue }
          game.id = FinishedGame.id(number: c.finished.count + 1)
          c.finished.append(game)
        }
      }
    }
  }

  public func scores(_ query: ScoresQuery) throws -> ScoresPage {
    contents.withLock { ScoresPage.select(query, from: $0.finished) }
  }

  public func finishedGame(id: String) throws -> FinishedGame? {
    contents.withLock { c in c.finished.first { $0.id == id } }
  }
}
