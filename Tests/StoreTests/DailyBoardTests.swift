import Foundation
import Model
import Protocol
import Testing

@testable import Store

/// The daily puzzle's board (issue 21): every store finds a game's results of a day by the
/// source they are kept under, keeps a player's first result only, and the board ranks them.
@Suite struct DailyBoardTests {
  typealias Kind = JournalStoreTests.Kind

  /// `name`'s daily result of `game` on `day`: `matches` sets, `mistakes`, in `seconds`.
  static func result(
    _ name: String, day: String = "2026-11-27", game: String = "set", matches: Int,
    mistakes: Int = 0, seconds: Double, who: String? = nil
  ) -> FinishedGame {
    FinishedGame(
      game: game, settings: .set(seats: 1), seed: DailyDeal.seed(game: game, day: day),
      players: [
        FinishedPlayer(
          seat: 0, name: name, score: matches - mistakes, matches: matches, mistakes: mistakes,
          rank: 1)
      ],
      moves: [], seconds: seconds, endedAt: 1_800_000_000,
      source: FinishedGame.dailySource(day: day, game: game, who: who ?? "p-\(name)"))
  }

  @Test(arguments: Kind.allCases)
  func everyStoreFindsADaysResultsAndKeepsEachPlayersFirst(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    let games = [
      Self.result("Ada", matches: 27, mistakes: 1, seconds: 300),
      Self.result("Bob", matches: 27, mistakes: 0, seconds: 420),
      Self.result("Cy", matches: 25, seconds: 200),
      // Yesterday, another game, and a game that is no daily puzzle.
      Self.result("Ada", day: "2026-11-26", matches: 20, seconds: 100),
      Self.result("Ada", game: "setJunior", matches: 9, seconds: 60),
      FinishedGameTests.game(score: 3, seconds: 10, endedAt: 5),
    ]
    for game in games { try store.write([.finished(game)]) }
    // Ada's second game of the day is not kept: her first is her result.
    try store.write([.finished(Self.result("Ada", matches: 27, seconds: 100))])
    let today = try store.daily(game: "set", day: "2026-11-27")
    #expect(Set(today.map(\.players[0].name)) == ["Ada", "Bob", "Cy"])
    #expect(today.first { $0.players[0].name == "Ada" }?.seconds == 300)
    #expect(try store.daily(game: "set", day: "2026-11-26").map(\.players[0].name) == ["Ada"])
    #expect(try store.daily(game: "setJunior", day: "2026-11-27").count == 1)
    #expect(try store.daily(game: "set", day: "2026-11-25").isEmpty)
  }

  @Test func theBoardRanksBySetsThenMistakesThenTimeAndTiesShareAPlace() {
    let board = DailyBoard(
      game: "set", day: "2026-11-27",
      games: [
        Self.result("Ada", matches: 27, mistakes: 1, seconds: 300),
        Self.result("Bob", matches: 27, mistakes: 0, seconds: 420),
        Self.result("Cy", matches: 25, seconds: 200),
        Self.result("Dee", matches: 27, mistakes: 1, seconds: 300),
        Self.result("Eve", matches: 27, mistakes: 1, seconds: 250),
        // Another day's result is not this board's.
        Self.result("Fay", day: "2026-11-26", matches: 27, seconds: 1),
      ])
    #expect(board.results.map(\.name) == ["Bob", "Eve", "Ada", "Dee", "Cy"])
    #expect(board.results.map(\.place) == [1, 2, 3, 3, 5])
    let answer = ServerMessage.daily(board, who: "p-Dee", replyTo: .int(4))
    #expect(answer["total"] == .int(5) && answer["day"] == "2026-11-27")
    #expect(answer["you"]?["place"] == .int(3) && answer["you"]?["name"] == "Dee")
    #expect(answer["results"]?.elements?[3]["you"] == .bool(true))
    #expect(answer["results"]?.elements?[0]["you"] == nil)
    // Nobody's hash is ever sent.
    #expect(!String(decoding: answer.encoded, as: UTF8.self).contains("p-"))
    #expect(ServerMessage.daily(board, who: "p-Zed", replyTo: nil)["you"] == .null)
  }
}
