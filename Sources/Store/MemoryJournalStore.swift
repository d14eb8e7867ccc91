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
    /// The highest number of a table whose row was deleted (numbers are never used again).
    var highestClosed = 0
    /// Finished games kept so far, deleted ones included (numbers the next).
    var finishedCount = 0
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
      loaded.lastTableNumber = max(
        c.highestClosed, c.tables.keys.map { JournalEntry.number(of: $0) }.max() ?? 0)
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
          c.tables[id] = nil
          c.moves[id] = nil
          c.highestClosed = max(c.highestClosed, JournalEntry.number(of: id))
        case .session(let session):
          c.sessions[session.token] = session
        case .sessionEnded(let token):
          c.sessions[token] = nil
        case .finished(let game):
          Self.keep(game, in: &c)
        case .finishedInJournal(let game, let table, let deal):
          let moves = (c.moves[table] ?? [:]).values.filter { $0.deal == deal }
          Self.keep(game.withMoves(moves), in: &c)
        }
      }
    }
  }

  /// Keeps `game` under the next number, unless a game of its source is kept already.
  private static func keep(_ game: FinishedGame, in c: inout Contents) {
    guard !c.finished.contains(where: { $0.source == game.source }) else { return }
    var game = game
    c.finishedCount += 1
    game.id = FinishedGame.id(number: c.finishedCount)
    c.finished.append(game)
  }

  public func removeFinishedGames(endedBefore cutoff: Double, limit: Int) throws -> Int {
    contents.withLock { c in
      let old = c.finished.indices.filter { c.finished[$0].endedAt < cutoff }
        .sorted { c.finished[$0].endedAt < c.finished[$1].endedAt }.prefix(max(0, limit))
      let gone = Set(old)
      c.finished = c.finished.indices.filter { !gone.contains($0) }.map { c.finished[$0] }
      return gone.count
    }
  }

  /// How many table rows and move rows it holds (for tests).
  func rowCounts() -> (tables: Int, moves: Int) {
    contents.withLock { c in (c.tables.count, c.moves.values.reduce(0) { $0 + $1.count }) }
  }

  public func scores(_ query: ScoresQuery) throws -> ScoresPage {
    contents.withLock { ScoresPage.select(query, from: $0.finished) }
  }

  public func finishedGame(id: String) throws -> FinishedGame? {
    contents.withLock { c in c.finished.first { $0.id == id } }
  }
}
