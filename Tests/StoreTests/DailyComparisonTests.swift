import Foundation
import Lobby
import Model
import Protocol
import TestSupport
import Testing

@testable import Store

/// The look back's daily part (issue 21): how a player's daily puzzle result compares with
/// everyone's that day, in the `daily` answer and in a daily game's `record`.
@Suite struct DailyComparisonTests {
  typealias Daily = DailyBoardTests

  static let board = DailyBoard(
    game: "set", day: "2026-11-27",
    games: [
      Daily.result("Ada", matches: 27, mistakes: 1, seconds: 300),
      Daily.result("Bob", matches: 27, mistakes: 0, seconds: 420),
      Daily.result("Cy", matches: 25, mistakes: 3, seconds: 200),
      Daily.result("Dee", matches: 27, mistakes: 2, seconds: 540),
      Daily.result("Eve", matches: 24, mistakes: 1, seconds: 360),
    ])

  @Test func aResultIsComparedWithEveryOtherOfTheDay() throws {
    let ada = try #require(DailyComparison(board: Self.board, who: "p-Ada"))
    #expect(ada.place == 2 && ada.total == 5)
    // Of the four others: Bob, Dee and Eve took longer (3 of 4); Cy and Dee made more
    // mistakes (2 of 4); Cy and Eve found fewer sets; per set Ada (11.1 s) beat Bob (15.6),
    // Dee (20) and Eve (15), not Cy (8).
    #expect(ada.quickerThan == 75 && ada.fewerMistakesThan == 50)
    #expect(ada.moreMatchesThan == 50 && ada.fasterPaceThan == 75)
    #expect(ada.medianSeconds == 360 && ada.medianMistakes == 1 && ada.medianMatches == 27)
    #expect(abs((ada.pace ?? 0) - 300.0 / 27) < 1e-9)
    #expect(ada.medianPace == 15, "Eve's 360 s for 24 sets")
    #expect(DailyComparison(board: Self.board, who: "p-Zed") == nil, "no result, no comparison")
    // Alone that day: nobody to beat.
    let alone = DailyBoard(
      game: "set", day: "2026-11-27", games: [Daily.result("Ada", matches: 27, seconds: 300)])
    let first = try #require(DailyComparison(board: alone, who: "p-Ada"))
    #expect(first.place == 1 && first.total == 1 && first.quickerThan == nil)
    #expect(first.json(day: "2026-11-27")["quickerThan"] == .null)
  }

  @Test func theDailyAnswerComparesTheAsker() throws {
    let answer = ServerMessage.daily(Self.board, who: "p-Ada", replyTo: .int(4))
    let compare = try #require(answer["compare"])
    #expect(compare["place"] == .int(2) && compare["total"] == .int(5))
    #expect(compare["quickerThan"] == .int(75) && compare["day"] == .string("2026-11-27"))
    #expect(compare["median"]?["seconds"] == .double(360))
    #expect(ServerMessage.daily(Self.board, who: "p-Zed", replyTo: nil)["compare"] == .null)
  }

  /// A daily puzzle played to its end by the engine, as the table keeps it.
  static func played(_ name: String, who: String, day: String, secondsPerSet: Double) throws
    -> FinishedGame
  {
    let seed = DailyDeal.seed(game: "set", day: day)
    var game = CardMatchingGame<SetCard>(settings: .set(seats: 1), seed: seed)
    var moves: [FinishedMove] = []
    var matches = 0
    while !game.isOver {
      let set = try #require(SetCard.allSets(in: game.playableCards).first)
      matches += 1
      for card in set {
        let move = Move.choose(seat: 0, card: card.id)
        _ = try game.apply(move)
        moves.append(FinishedMove(move, at: Double(matches) * secondsPerSet))
      }
    }
    return FinishedGame(
      game: "set", settings: .set(seats: 1), seed: seed,
      players: [
        FinishedPlayer(
          seat: 0, name: name, score: game.players[0].score, matches: game.players[0].matches,
          mistakes: 0, rank: 1, player: who)
      ],
      moves: moves, seconds: Double(matches) * secondsPerSet, endedAt: 1_800_000_000,
      source: FinishedGame.dailySource(day: day, game: "set", who: who))
  }

  @Test(arguments: JournalStoreTests.Kind.allCases)
  func aDailyGamesRecordLooksBackAtTheDay(_ kind: JournalStoreTests.Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    defer { store.close() }
    let day = "2026-11-27"
    try store.write([.finished(try Self.played("Ada", who: "pa", day: day, secondsPerSet: 10))])
    let ask = RecordRequest(connection: ConnectionID(1), replyTo: .int(2), kind: .record(id: "g1"))
    var replays = ReplayCache(capacity: 8 << 20)
    func daily() throws -> JSONValue {
      let answer = try #require(
        JSONValue.parse(Array(store.answer(ask, replays: &replays).payload)))
      return try #require(answer["lookBack"]?["daily"])
    }
    let alone = try daily()
    #expect(alone["place"] == .int(1) && alone["total"] == .int(1))
    // Bob plays the day's deal quicker: Ada's record, asked again, says so (never cached).
    try store.write([.finished(try Self.played("Bob", who: "pb", day: day, secondsPerSet: 5))])
    let second = try daily()
    #expect(second["place"] == .int(2) && second["total"] == .int(2))
    #expect(second["quickerThan"] == .int(0))
    #expect(replays.count == 0)
  }
}
