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
    #expect(
      line == [
        .name("Bob", seat: 1), .text(" passes. "), .name("Ada", seat: 0), .text("'s"),
        .text(" turn."),
      ])
  }

  @Test func anOpponentsHiddenChoiceSaysOnlyThatTheyChose() {
    let chose = StatusLine.runs(
      seenBy: 1, after: .choose(seat: 0, card: card.id), seen: [],
      events: [GameEvent<SetCard>.selected(seat: 0, card: card)], names: names, naming: .byID)
    #expect(chose == [.name("Ada", seat: 0), .text(" chose a card.")])
    let letGo = StatusLine.runs(
      seenBy: 1, after: .choose(seat: 0, card: card.id), seen: [],
      events: [GameEvent<SetCard>.deselected(seat: 0, card: card)], names: names, naming: .byID)
    #expect(letGo == [.name("Ada", seat: 0), .text(" let go of a card.")])
    let own = StatusLine.runs(
      seenBy: 0, after: .choose(seat: 0, card: card.id),
      seen: [GameEvent<SetCard>.selected(seat: 0, card: card)],
      events: [GameEvent<SetCard>.selected(seat: 0, card: card)], names: names, naming: .byID)
    #expect(own == [.name("Ada", seat: 0), .text(" chose "), card.statusRun])
  }

  /// Every sentence the table says about a player names them with a run carrying their seat
  /// (the game's own sentences are in `StatusLineTests`): joining, leaving, reconnecting, coming
  /// back, asking for a re-deal, passing, and choosing or letting go where choices are hidden.
  @Test func everyTableSentenceNamesItsPlayerWithASeatRun() throws {
    let ada = StyledRun.name("Ada", seat: 0)
    let bob = StyledRun.name("Bob", seat: 1)
    let cy = StyledRun.name("Cy", seat: 2)
    func line(_ runs: [StyledRun]) -> JSONValue { .array(runs.map(\.json)) }

    var state = Multi.table(seats: 3, countdown: 0)
    let joined = try Multi.sit("Ada", at: &state)
    #expect(joined.broadcast.diff["status"] == line([ada, .text(" joined.")]))
    _ = try Multi.sit("Bob", at: &state)
    let full = try Multi.sit("Cy", at: &state)
    #expect(
      full.broadcast.diff["status"]
        == line([cy, .text(" joined. "), .text("Go! ")] + StatusLine.newGame))
    #expect(state.status == [cy, .text(" joined. "), .text("Go! ")] + StatusLine.newGame)

    let vote = try Multi.success(state.requestRedeal(by: 1, replyTo: nil))
    #expect(vote.diff["status"] == line([bob, .text(" wants a re-deal (1 of 2 votes).")]))
    let away = try Multi.must(state.disconnect(seat: 2, now: 0))
    #expect(away.diff["status"] == line([cy, .text(" is reconnecting…")]))
    let back = try Multi.must(state.reconnect(seat: 2))
    #expect(back.diff["status"] == line([cy, .text(" is back.")]))
    let left = try Multi.must(state.release(seat: 0, now: 0))
    #expect(left.diff["status"] == line([ada, .text(" left.")]))
    #expect(state.status == [ada, .text(" left.")])

    let passed = StatusLine.runs(
      after: .pass(seat: 0), events: [GameEvent<SetCard>.turn(seat: 1)], names: names,
      naming: .byID)
    #expect(passed == [ada, .text(" passes. "), bob, .text("'s"), .text(" turn.")])
    let chose = StatusLine.runs(
      seenBy: 0, after: .choose(seat: 1, card: card.id), seen: [],
      events: [GameEvent<SetCard>.selected(seat: 1, card: card)], names: names, naming: .byID)
    #expect(chose == [bob, .text(" chose a card.")])
    let letGo = StatusLine.runs(
      seenBy: 0, after: .choose(seat: 1, card: card.id), seen: [],
      events: [GameEvent<SetCard>.deselected(seat: 1, card: card)], names: names, naming: .byID)
    #expect(letGo == [bob, .text(" let go of a card.")])
  }
}
