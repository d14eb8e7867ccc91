import Foundation
import Protocol
import Store
import TestSupport
import Testing

@testable import Lobby

/// Replays kept for the next question: bounded in bytes, least recently asked for first out,
/// and answered without the store once kept.
@Suite struct ReplayCacheTests {
  /// A replay of about `bytes` bytes (one diff of that size) for game `id`.
  static func replay(_ id: String, bytes: Int) -> RecordReplay {
    var game = FinishedGameTests.game(score: 1, seconds: 1, endedAt: 0)
    game.id = id
    game.moves = []
    let diff = Frame(Array(repeating: UInt8(ascii: " "), count: bytes))
    return RecordReplay(game: game, table: .object([]), diffs: [diff])
  }

  @Test func keepsWhatFitsAndLetsTheLeastRecentlyAskedForGo() {
    let one = Self.replay("g1", bytes: 10_000)
    let size = one.size
    var cache = ReplayCache(capacity: size * 3)
    cache.keep(one, id: "g1")
    cache.keep(Self.replay("g2", bytes: 10_000), id: "g2")
    cache.keep(Self.replay("g3", bytes: 10_000), id: "g3")
    #expect(cache.count == 3 && cache.size == size * 3)
    // Asking for g1 makes g2 the least recently used: a fourth lets g2 go.
    #expect(cache.replay(id: "g1")?.game.id == "g1")
    cache.keep(Self.replay("g4", bytes: 10_000), id: "g4")
    #expect(cache.count == 3)
    #expect(cache.replay(id: "g2") == nil)
    #expect(cache.replay(id: "g1") != nil && cache.replay(id: "g3") != nil)
    #expect(cache.replay(id: "g4") != nil)
    #expect(cache.size <= cache.capacity)
  }

  @Test func aBigReplayMakesRoomAndOneBiggerThanTheCacheIsNotKept() {
    let small = Self.replay("g1", bytes: 1_000)
    var cache = ReplayCache(capacity: small.size * 4)
    for id in ["g1", "g2", "g3", "g4"] { cache.keep(Self.replay(id, bytes: 1_000), id: id) }
    #expect(cache.count == 4)
    // About three small ones' worth: the three oldest go.
    let big = Self.replay("g5", bytes: small.size * 3 - 2_000)
    cache.keep(big, id: "g5")
    #expect(cache.replay(id: "g5") != nil && cache.replay(id: "g4") != nil)
    #expect(cache.count == 2 && cache.size <= cache.capacity)
    // Too big for the whole cache: not kept, and nothing else is let go for it.
    cache.keep(Self.replay("g6", bytes: small.size * 5), id: "g6")
    #expect(cache.replay(id: "g6") == nil && cache.count == 2)
    // Kept again under the same id: counted once.
    cache.keep(Self.replay("g4", bytes: 1_000), id: "g4")
    #expect(cache.count == 2 && cache.size == big.size + small.size)
    // No room at all: nothing kept.
    var none = ReplayCache(capacity: 0)
    none.keep(small, id: "g1")
    #expect(none.count == 0 && none.replay(id: "g1") == nil)
  }

  /// A store that counts the games read from it.
  final class CountingStore: JournalStore, @unchecked Sendable {
    let inner = MemoryJournalStore()
    private(set) var reads = 0
    func load() throws -> JournalContents { try inner.load() }
    func removeFinishedGames(endedBefore cutoff: Double, limit: Int) throws -> Int {
      try inner.removeFinishedGames(endedBefore: cutoff, limit: limit)
    }
    func write(_ entries: [JournalEntry]) throws { try inner.write(entries) }
    func scores(_ query: ScoresQuery) throws -> ScoresPage { try inner.scores(query) }
    func finishedGame(id: String) throws -> FinishedGame? {
      reads += 1
      return try inner.finishedGame(id: id)
    }
    func daily(game: String, day: String) throws -> [FinishedGame] {
      try inner.daily(game: game, day: day)
    }
    func ratings(of players: [String]) throws -> [PlayerRating] {
      try inner.ratings(of: players)
    }
    func ratingHistory(player: String, game: String) throws -> RatingHistory {
      try inner.ratingHistory(player: player, game: game)
    }
  }

  @Test func aKeptReplayIsAnsweredAgainWithoutTheStoreAndTheSameBytes() throws {
    // A real game, played to its end through the lobby, then kept by the counting store.
    let lobby = JournalTests.Journaled(seed: 11)
    _ = try FinishedGameTests.playSolo(lobby, ConnectionID(1), name: "Ada", player: nil)
    let store = CountingStore()
    try store.write(lobby.written.filter { if case .finished = $0 { true } else { false } })
    let ask = { (id: Int) in
      RecordRequest(connection: ConnectionID(2), replyTo: .int(id), kind: .record(id: "g1"))
    }
    var replays = ReplayCache(capacity: 8 << 20)
    let first = store.answer(ask(1), replays: &replays)
    #expect(store.reads == 1 && replays.count == 1)
    let second = store.answer(ask(2), replays: &replays)
    #expect(store.reads == 1, "answered from the cache")
    // The same answer as one made afresh, but for the question it answers.
    let fresh = store.answer(ask(2))
    #expect(second.hasSamePayload(as: fresh))
    #expect(!first.hasSamePayload(as: second))
    let message = try #require(JSONValue.parse(second.payload))
    #expect(message["replyTo"] == .int(2) && message["type"] == "record")
    // An unknown game is not kept, and asked again, read again.
    let unknown = RecordRequest(connection: ConnectionID(2), replyTo: nil, kind: .record(id: "g9"))
    let missing = try #require(JSONValue.parse(store.answer(unknown, replays: &replays).payload))
    #expect(missing["code"] == "unknownRecord")
    _ = store.answer(unknown, replays: &replays)
    #expect(store.reads == 4 && replays.count == 1)
  }
}
