import Lobby
import Protocol
import Synchronization

/// A store in memory, with the same meaning as the database stores: for tests, and for anyone
/// who wants the journal's bookkeeping without a file.
public final class MemoryJournalStore: JournalStore, Sendable {
  private let image = Mutex(JournalImage())

  /// An empty store.
  public init() {}

  public func load() throws -> JournalContents {
    image.withLock { $0.contents }
  }

  public func write(_ entries: [JournalEntry]) throws {
    image.withLock { $0.write(entries) }
  }

  public func removeFinishedGames(endedBefore cutoff: Double, limit: Int) throws -> Int {
    image.withLock { $0.removeFinishedGames(endedBefore: cutoff, limit: limit) }
  }

  /// How many table rows and move rows it holds (for tests).
  func rowCounts() -> (tables: Int, moves: Int) {
    image.withLock { $0.rowCounts }
  }

  public func scores(_ query: ScoresQuery) throws -> ScoresPage {
    image.withLock { ScoresPage.select(query, from: $0.finished) }
  }

  public func daily(game: String, day: String) throws -> [FinishedGame] {
    let prefix = FinishedGame.dailySource(day: day, game: game, who: "")
    return image.withLock { $0.finished.filter { $0.source.hasPrefix(prefix) } }
  }

  public func ratings(of players: [String]) throws -> [PlayerRating] {
    let wanted = Set(players)
    return image.withLock { $0.ratings.values.filter { wanted.contains($0.player) } }
  }

  public func ratingHistory(player: String, game: String) throws -> RatingHistory {
    image.withLock { image in
      let entries = image.finished.reversed().filter { $0.game == game }.compactMap {
        finished -> RatingHistoryEntry? in
        guard let row = finished.players.first(where: { $0.player == player && $0.rating != nil })
        else { return nil }
        return RatingHistoryEntry(
          gameID: finished.id, endedAt: finished.endedAt, rank: row.rank, change: row.rating!)
      }
      return RatingHistory(
        rating: image.ratings[JournalImage.ratingKey(player: player, game: game)],
        entries: Array(entries.prefix(RatingHistory.mostEntries)))
    }
  }

  public func finishedGame(id: String) throws -> FinishedGame? {
    image.withLock { image in image.finished.first { $0.id == id } }
  }
}
