import Model
import Protocol
import Testing

@testable import Lobby

/// What each seat sees of a move when selections are hidden, as a value.
@Suite struct HiddenSelectionViewTests {
  /// The game events among `seen`, and how many faces it reveals.
  func split(_ seen: [HiddenSelectionView<SetCard>.Seen]) -> (
    events: [GameEvent<SetCard>], reveals: Int
  ) {
    var events: [GameEvent<SetCard>] = []
    var reveals = 0
    for entry in seen {
      switch entry {
      case .game(let event): events.append(event)
      case .reveal: reveals += 1
      }
    }
    return (events, reveals)
  }

  @Test func aChoiceIsSeenByItsSeatOnlyButItsCostByEveryone() throws {
    var game = CardMatchingGame<SetCard>(settings: .set(seats: 3), seed: 9)
    let view = HiddenSelectionView(before: game)
    let card = game.board[0]
    let events = try game.apply(.choose(seat: 0, card: card.id))
    let own = split(view.seen(events, by: 0, in: game))
    #expect(own.events == events)
    let other = split(view.seen(events, by: 1, in: game))
    #expect(!other.events.contains(.selected(seat: 0, card: card)))
    #expect(other.events == events.filter { $0 != .selected(seat: 0, card: card) })
    #expect(other.reveals == 0)
  }

  @Test func seatsThatSeeTheSameDiffShareOneFrame() throws {
    var game = CardMatchingGame<SetCard>(settings: .set(seats: 3), seed: 9)
    let view = HiddenSelectionView(before: game)
    let move = Move.choose(seat: 0, card: game.board[0].id)
    let events = try game.apply(move)
    let names = ["Ada", "Bob", "Cy"]
    let diff = MoveDiff(
      before: [], events: events, entries: [], ended: nil, names: names, naming: .byID)
    let (frames, lines) = view.seatDiffs(
      of: move, diff, in: game, tableID: "t1", version: 2, replyTo: nil)
    #expect(frames.count == 3)
    #expect(frames[1] === frames[2])
    #expect(!frames[0].hasSamePayload(as: frames[1]))
    #expect(lines[1] == [.name("Ada", seat: 0), .text(" chose a card.")])
    #expect(Array(lines[0].prefix(2)) == [.name("Ada", seat: 0), .text(" chose ")])
  }
}
