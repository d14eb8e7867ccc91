import Foundation
import Testing

@testable import Model
@testable import Protocol

/// ``FinishedGame/storedJSON(encoder:)`` writes what `Codable` reads back as the same game, for
/// every kind of move, every optional part present or not, and text that needs escaping; and
/// what `JSONEncoder` wrote before it is read back the same way.
@Suite struct StoredFinishedGameTests {
  func game(
    moves: [FinishedMove], chat: [ChatLine]?, rated: Bool?, player: String?,
    rating: RatingChange?, name: String, seed: UInt64, bot: String? = nil
  ) -> FinishedGame {
    var first = FinishedPlayer(
      seat: 1, name: name, score: -3, matches: 0, mistakes: 2, rank: 2, player: player, bot: bot)
    first.rating = rating
    return FinishedGame(
      id: "g7", game: "set", settings: .set(seats: 2), seed: seed, showSelections: false,
      players: [
        FinishedPlayer(
          seat: 0, name: "Ada", score: 12, matches: 4, mistakes: 0, rank: 1, player: "ab12"),
        first,
      ],
      moves: moves, seconds: 93.4, endedAt: 1_780_000_123.456_789, source: "t3#2", chat: chat,
      rated: rated)
  }

  @Test func readsBackAsTheSameGame() throws {
    let moves = [
      FinishedMove(.choose(seat: 0, card: 12), at: 0),
      FinishedMove(.choose(seat: 1, card: 80), at: 1.5),
      FinishedMove(.pass(seat: 1), at: 2.7),
      FinishedMove(.redeal(seat: 0), at: 3),
      FinishedMove(.choose(seat: 0, card: 0), at: 1e16),
    ]
    let chat = [
      ChatLine(name: "Bo \"b\"", seat: 1, text: "gg \\ </script> \u{1}", deal: 2, at: 9.1)
    ]
    let rating = RatingChange(before: 1500, after: 1531.75, games: 3)
    let encoder = JSONEncoder()
    for variant in 0..<8 {
      let original = game(
        moves: variant % 2 == 0 ? moves : [], chat: variant & 2 == 0 ? chat : nil,
        rated: [nil, true, false][variant % 3], player: variant & 4 == 0 ? "cd34" : nil,
        rating: variant & 4 == 0 ? rating : nil, name: variant == 3 ? "Zoë\n\t\u{7f}é😀" : "Bo",
        seed: variant == 5 ? UInt64.max : UInt64(variant) &* 0x9E37_79B9_7F4A_7C15,
        bot: variant & 1 == 1 ? "expert" : nil)
      let text = try original.storedJSON(encoder: encoder)
      let read = try JSONDecoder().decode(FinishedGame.self, from: Data(text.utf8))
      #expect(read == original, "\(text)")
      // What `JSONEncoder` wrote before (and stores still hold) reads back the same.
      let before = try JSONDecoder().decode(FinishedGame.self, from: encoder.encode(original))
      #expect(before == read)
    }
  }
}
