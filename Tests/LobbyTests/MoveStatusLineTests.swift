import Model
import Protocol
import Testing

@testable import Lobby

/// The status line of a move, for everyone and for one seat when selections are hidden.
@Suite struct MoveStatusLineTests {
  let names = ["Ada", "Bob"]
  let card = SetCard.fullDeck[5]

  @Test func aPassIsSaidFirst() {
    let line = StatusLine.runs(
      after: .pass(seat: 1), events: [GameEvent<SetCard>.turn(seat: 0)], names: names,
      naming: .byID)
    #expect(line == [.text("Bob passes. "), .text("Ada's turn.")])
  }

  @Test func anOpponentsHiddenChoiceSaysOnlyThatTheyChose() {
    let chose = StatusLine.runs(
      seenBy: 1, after: .choose(seat: 0, card: card.id), seen: [],
      events: [GameEvent<SetCard>.selected(seat: 0, card: card)], names: names, naming: .byID)
    #expect(chose == [.text("Ada chose a card.")])
    let letGo = StatusLine.runs(
      seenBy: 1, after: .choose(seat: 0, card: card.id), seen: [],
      events: [GameEvent<SetCard>.deselected(seat: 0, card: card)], names: names, naming: .byID)
    #expect(letGo == [.text("Ada let go of a card.")])
    let own = StatusLine.runs(
      seenBy: 0, after: .choose(seat: 0, card: card.id),
      seen: [GameEvent<SetCard>.selected(seat: 0, card: card)],
      events: [GameEvent<SetCard>.selected(seat: 0, card: card)], names: names, naming: .byID)
    #expect(own == [.text("Ada chose "), card.statusRun])
  }
}
