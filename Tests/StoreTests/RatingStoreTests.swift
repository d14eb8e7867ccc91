import Foundation
import Lobby
import Model
import Protocol
import Synchronization
import TestSupport
import Testing

@testable import Store

/// Ratings as every store keeps them (issue 21): a rated game changes its players' ratings in
/// the transaction that keeps it, exactly as ``Rating/changes(_:)`` computes (the one rule, in
/// Swift, for every store), once however often its batch is written; unrated games change nothing;
/// reads give each player's ratings, their history, and each game's changes in high scores.
@Suite struct RatingStoreTests {
  typealias Kind = JournalStoreTests.Kind

  /// A finished Set game for `players` (hashes, or nil for a player without a token), ranked
  /// in that order (`ranks`: 1, 2, … unless given), ended at `endedAt`.
  static func game(
    _ players: [String?], ranks: [Int]? = nil, rated: Bool? = true, endedAt: Double,
    source: String? = nil
  ) -> FinishedGame {
    FinishedGame(
      game: "set", settings: .set(seats: players.count, scoring: .classic), seed: 7,
      players: players.indices.map { seat in
        FinishedPlayer(
          seat: seat, name: "P\(seat)", score: 10 - seat, matches: 10 - seat, mistakes: 0,
          rank: ranks?[seat] ?? seat + 1, player: players[seat])
      },
      moves: [FinishedMove(.choose(seat: 0, card: 3), at: 0.5)], seconds: 120,
      endedAt: endedAt, source: source ?? "t\(Int(endedAt))#1", rated: rated)
  }

  static func rating(_ store: any JournalStore, _ player: String) throws -> PlayerRating? {
    try store.ratings(of: [player]).first { $0.game == "set" }
  }

  @Test(arguments: Kind.allCases)
  func aRatedGameChangesEveryPlayersRatingAsTheFormulaSays(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    defer { store.close() }
    // Ada beats Bob: both start at 1500, provisional (K 64): +32 and −32.
    try store.write([.finished(Self.game(["ada", "bob"], endedAt: 1000))])
    let ada = try #require(try Self.rating(store, "ada"))
    let bob = try #require(try Self.rating(store, "bob"))
    #expect(abs(ada.rating - 1532) < 1e-9 && abs(bob.rating - 1468) < 1e-9)
    #expect(ada.games == 1 && bob.games == 1 && ada.isProvisional)
    // Three players, Cy new: what Rating.changes gives from the ratings before, to the last
    // bit, and the changes sum to zero (all provisional: one K).
    let three = Self.game(["bob", "cy", "ada"], endedAt: 1100)
    let expected = Rating.changes([
      Rating.Entry(rating: bob.rating, games: 1, rank: 1),
      Rating.Entry(rating: 1500, games: 0, rank: 2),
      Rating.Entry(rating: ada.rating, games: 1, rank: 3),
    ])
    try store.write([.finished(three)])
    let after = try ["bob", "cy", "ada"].map { try #require(try Self.rating(store, $0)) }
    #expect(abs(after[0].rating - (bob.rating + expected[0])) < 1e-9)
    #expect(abs(after[1].rating - (1500 + expected[1])) < 1e-9)
    #expect(abs(after[2].rating - (ada.rating + expected[2])) < 1e-9)
    let total: Double = after.map(\.rating).reduce(0, +)
    #expect(abs(total - 4500) < 1e-6, "what one gains, the others lose")
    #expect(after.map(\.games) == [2, 1, 2])
  }

  /// Rated games in one batch are rated one after the other, each from the ratings the one
  /// before it left: as if each had been written alone.
  @Test(arguments: Kind.allCases)
  func gamesInOneBatchAreRatedInOrder(_ kind: Kind) throws {
    let games = [
      Self.game(["ada", "bob"], endedAt: 1000), Self.game(["bob", "cy", "ada"], endedAt: 1001),
      Self.game(["cy", "ada"], endedAt: 1002),
    ]
    let (together, _) = try JournalStoreTests.make(kind)
    defer { together.close() }
    try together.write(games.map { .finished($0) })
    let (alone, _) = try JournalStoreTests.make(kind)
    defer { alone.close() }
    for game in games { try alone.write([.finished(game)]) }
    for player in ["ada", "bob", "cy"] {
      #expect(try Self.rating(together, player) == Self.rating(alone, player), "\(player)")
    }
  }

  /// Two nodes rating the same players at once never compute from a rating the other is
  /// changing: every game counts, for each of its players.
  @Test func twoNodesRatingTheSamePlayersAtOnceLoseNoGame() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let nodes = try ["n1", "n2"].map { owner in
      try PostgresJournalStore(location: location, owner: owner, logger: PostgresCluster.quiet)
    }
    defer { for node in nodes { node.close() } }
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      for round in 0..<12 {
        let players = round.isMultiple(of: 2) ? ["ada", "bob"] : ["bob", "ada"]
        do {
          try nodes[index].write([
            .finished(
              Self.game(
                players, endedAt: Double(1000 + round),
                source: "n\(index)-t\(round)#1"))
          ])
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty)
    let ratings = try ["ada", "bob"].map { try #require(try Self.rating(nodes[0], $0)) }
    #expect(ratings.map(\.games) == [24, 24])
    #expect(abs(ratings[0].rating + ratings[1].rating - 3000) < 1e-6)
  }

  @Test(arguments: Kind.allCases)
  func aGameWrittenTwiceRatesOnce(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    defer { store.close() }
    let game = Self.game(["ada", "bob"], endedAt: 1000)
    try store.write([.finished(game)])
    try store.write([.finished(game)])
    #expect(try Self.rating(store, "ada")?.games == 1)
    #expect(try Self.rating(store, "bob")?.rating == 1468)
  }

  @Test(arguments: Kind.allCases)
  func unratedGamesChangeNothing(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    defer { store.close() }
    try store.write([
      // Not rated (solo, private, daily tables), or from before ratings.
      .finished(Self.game(["ada", "bob"], rated: nil, endedAt: 1000)),
      .finished(Self.game(["ada", "bob"], rated: false, endedAt: 1001)),
      // One person with a token: nobody to be rated against.
      .finished(Self.game(["ada", nil], endedAt: 1002)),
      // One person in both seats (two tabs): one person.
      .finished(Self.game(["ada", "ada"], endedAt: 1003)),
    ])
    #expect(try store.ratings(of: ["ada", "bob"]).isEmpty)
    #expect(try store.ratingHistory(player: "ada", game: "set").entries.isEmpty)
  }

  @Test(arguments: Kind.allCases)
  func aPersonInTwoSeatsCountsOnceAtTheirBestRank(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    defer { store.close() }
    try store.write([.finished(Self.game(["bob", "ada", "bob"], endedAt: 1000))])
    // Bob at rank 1 (his best) against Ada: an ordinary duel.
    #expect(try Self.rating(store, "bob")?.rating == 1532)
    #expect(try Self.rating(store, "ada")?.rating == 1468)
  }

  @Test(arguments: Kind.allCases)
  func historyAndHighScoresShowWhatEachGameDid(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    defer { store.close() }
    try store.write([.finished(Self.game(["ada", "bob"], endedAt: 1000))])
    try store.write([.finished(Self.game(["bob", "ada"], ranks: [1, 1], endedAt: 1100))])
    try store.write([.finished(Self.game(["bob", "ada"], endedAt: 1200))])
    let history = try store.ratingHistory(player: "ada", game: "set")
    #expect(history.rating?.games == 3)
    #expect(history.entries.map(\.endedAt) == [1200, 1100, 1000], "newest first")
    #expect(history.entries.map(\.rank) == [2, 1, 1])
    #expect(history.entries.last?.change == RatingChange(before: 1500, after: 1532, games: 1))
    // Each change starts where the one before it ended.
    #expect(history.entries[1].change.before == history.entries[2].change.after)
    #expect(abs((history.rating?.rating ?? 0) - history.entries[0].change.after) < 1e-9)
    // The high scores carry each rated player's change; the record too.
    let page = try store.scores(
      ScoresQuery(game: "set", list: ScoreList(solo: false, scoring: "classic"), sort: .date))
    let first = try #require(page.games.first { $0.endedAt == 1000 })
    #expect(first.players.map(\.rating?.games) == [1, 1])
    #expect(first.players[0].rating?.shownChange == 32)
    #expect(try store.finishedGame(id: first.id)?.players[1].rating?.shownChange == -32)
    // An unrated game has none.
    try store.write([.finished(Self.game(["ada", "bob"], rated: nil, endedAt: 1300))])
    let unrated = try store.scores(
      ScoresQuery(game: "set", list: ScoreList(solo: false, scoring: "classic"), sort: .date))
    #expect(
      unrated.games.first { $0.endedAt == 1300 }?.players.allSatisfy { $0.rating == nil } == true)
  }

  @Test(arguments: Kind.allCases)
  func retentionDeletesTheChangesWithTheGamesAndKeepsTheRatings(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    defer { store.close() }
    try store.write([.finished(Self.game(["ada", "bob"], endedAt: 1000))])
    try store.write([.finished(Self.game(["ada", "bob"], endedAt: 2000))])
    #expect(try store.removeFinishedGames(endedBefore: 1500, limit: 10) == 1)
    let history = try store.ratingHistory(player: "ada", game: "set")
    #expect(history.entries.map(\.endedAt) == [2000])
    #expect(history.rating?.games == 2)
  }

  @Test func theAnswerShowsRoundedRatingsAndChanges() throws {
    let history = RatingHistory(
      rating: PlayerRating(player: "ada", game: "set", rating: 1531.6, games: 11),
      entries: [
        RatingHistoryEntry(
          gameID: "g4", endedAt: 0, rank: 1,
          change: RatingChange(before: 1515.4, after: 1531.6, games: 11))
      ])
    let answer = ServerMessage.ratings(history, game: "set", replyTo: .int(3))
    #expect(answer["type"] == .string("ratings") && answer["replyTo"] == .int(3))
    #expect(answer["rating"] == .int(1532) && answer["games"] == .int(11))
    #expect(answer["provisional"] == .bool(false))
    let entry = try #require(answer["history"]?.elements?.first)
    #expect(entry["id"] == .string("g4") && entry["change"] == .int(17))
    #expect(entry["rank"] == .int(1) && entry["endedAt"] == .string("1970-01-01T00:00:00Z"))
  }
}
