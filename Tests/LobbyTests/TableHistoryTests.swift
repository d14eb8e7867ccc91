import Model
import Protocol
import Testing

@testable import Lobby

/// The history of a table's game as a value: numbered entries, the cap, mistakes per seat and
/// the latest matches.
@Suite struct TableHistoryTests {
  let cards = Array(SetCard.fullDeck.prefix(6))

  @Test func matchesAndMismatchesAreNumberedInTheOrderOfTheEvents() {
    var history = TableHistory(cap: 10)
    let made = history.note(
      [
        GameEvent<SetCard>.selected(seat: 0, card: cards[0]),
        .mismatched(seat: 1, cards: Array(cards[0..<3]), penalty: 2),
        .matched(seat: 0, cards: Array(cards[3..<6]), points: 12),
      ], at: 4.5)
    #expect(made.map(\.number) == [1, 2])
    #expect(made.map(\.kind) == [.mismatch, .match])
    #expect(made.map(\.seat) == [1, 0])
    #expect(made[1].cards == cards[3..<6].map(\.id))
    #expect(made.allSatisfy { $0.at == 4.5 })
    #expect(history.entries == made)
    #expect(history.mistakes(of: 1) == 1)
    #expect(history.mistakes(of: 0) == 0)
    #expect(history.mistakes(of: 7) == 0)
  }

  @Test func onlyTheLastCapEntriesAreKeptButNumberingGoesOn() {
    var history = TableHistory(cap: 3)
    for _ in 0..<5 {
      _ = history.note(
        [GameEvent<SetCard>.mismatched(seat: 0, cards: Array(cards[0..<3]), penalty: 1)], at: 0)
    }
    #expect(history.entries.map(\.number) == [3, 4, 5])
    #expect(history.mistakes(of: 0) == 5)
  }

  @Test func aNewGameStartsAgainButRemembersWhoTookWhichCards() {
    var history = TableHistory(cap: 10)
    _ = history.note(
      [
        GameEvent<SetCard>.matched(seat: 2, cards: Array(cards[0..<3]), points: 1),
        .mismatched(seat: 2, cards: Array(cards[3..<6]), penalty: 1),
      ], at: 1)
    history.newGame()
    #expect(history.entries.isEmpty)
    #expect(history.mistakes(of: 2) == 0)
    let taken = history.match(taking: cards[1].id)
    #expect(taken?.seat == 2)
    #expect(taken?.cards == cards[0..<3].map(\.id))
    #expect(history.match(taking: cards[4].id) == nil)
    let next = history.note(
      [GameEvent<SetCard>.matched(seat: 0, cards: Array(cards[3..<6]), points: 1)], at: 2)
    #expect(next.map(\.number) == [1])
  }

  @Test func onlyTheLatestEightMatchesAreRemembered() {
    var history = TableHistory(cap: 100)
    let deck = SetCard.fullDeck
    for i in 0..<9 {
      _ = history.note(
        [GameEvent<SetCard>.matched(seat: i, cards: Array(deck[3 * i..<3 * i + 3]), points: 1)],
        at: 0)
    }
    #expect(history.match(taking: deck[0].id) == nil)
    #expect(history.match(taking: deck[3].id)?.seat == 1)
    #expect(history.match(taking: deck[26].id)?.seat == 8)
  }
}
