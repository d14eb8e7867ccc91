import Lobby
import Model
import Protocol
import TestSupport
import Testing

/// A client that starts from a snapshot and applies every diff and status it is sent ends up
/// exactly where a fresh snapshot would put it.
@Suite struct DiffReplayTests {
  struct Game: Sendable, CustomTestStringConvertible {
    let seed: UInt64
    let seats: Int
    var testDescription: String { "seed \(seed), \(seats) seat(s)" }
  }

  static let games: [Game] = [
    Game(seed: 1, seats: 1), Game(seed: 2, seats: 1), Game(seed: 3, seats: 1),
    Game(seed: 42, seats: 1), Game(seed: 2024, seats: 1), Game(seed: 0xC0FFEE, seats: 1),
    Game(seed: 5, seats: 2), Game(seed: 6, seats: 3),
  ]

  @Test(arguments: games)
  func diffsReproduceSnapshots(_ game: Game) throws {
    let kinds = try Self.play(game)
    // Every game claims sets, makes mistakes, un-chooses, re-deals and ends.
    for kind in [
      "select", "deselect", "match", "mismatch", "score", "replace", "deck", "redeal", "over",
    ] {
      #expect(kinds.contains(kind), "no \(kind) event")
    }
  }

  /// Between them, the games use every kind of event.
  @Test func gamesCoverEveryEventKind() throws {
    var kinds = Set<String>()
    for game in Self.games { kinds.formUnion(try Self.play(game)) }
    #expect(
      kinds == [
        "select", "deselect", "match", "mismatch", "score", "replace", "remove", "deal", "deck",
        "redeal", "over", "phase", "history",
      ])
  }

  /// Plays `game` to its end, with one re-deal part way through, checking the client's view
  /// after every accepted move. Returns the kinds of the events seen.
  static func play(_ game: Game) throws -> Set<String> {
    let names = ["Ada", "Bob", "Cy"].prefix(game.seats).map { $0 }
    var state = TableState<SetCard>(
      id: "t1", settings: .set(seats: game.seats), seed: game.seed, names: names)
    var view = try TableClientView(snapshot: state.snapshot(replyTo: .int(0), you: 0))
    var players = (0..<game.seats).map { SetPlayer(seed: game.seed &+ UInt64($0) &* 7919) }
    var turns = SeededGenerator(seed: game.seed)
    var redealt = false
    var kinds = Set<String>()

    for step in 1...5000 where !state.game.isOver {
      let seat = turns.below(game.seats)
      var move = players[seat].nextMove(in: state.game, seat: seat)
      if !redealt && state.game.deckCount < 40 {
        move = .redeal(seat: seat)
        redealt = true
      }
      switch state.apply(move, replyTo: .int(step)) {
      case .accepted(_, _, let diff, _):
        for event in diff["events"]?.elements ?? [] {
          if let kind = event["kind"]?.stringValue { kinds.insert(kind) }
        }
        try view.apply(diff: diff)
        let fresh = try TableClientView(snapshot: state.snapshot(replyTo: nil, you: 0))
        try #require(view == fresh, "after \(move) (\(diff.text)):\n\(view)\n\(fresh)")
      case .rejected:
        // Another seat's claim can take a planned card away; nothing changes.
        let fresh = try TableClientView(snapshot: state.snapshot(replyTo: nil, you: 0))
        #expect(view == fresh)
      }
    }
    try #require(state.game.isOver, "\(game) did not end")
    #expect(redealt)
    // The record of the game since the re-deal rebuilds it.
    #expect(try CardMatchingGame<SetCard>.replay(#require(state.record.record)).game == state.game)
    return kinds
  }

  /// Matchismo and Concentration: random play (a third of the choices made knowing the board,
  /// the rest blind), the client's view built from diffs equal to a fresh snapshot after every
  /// move, a re-deal part way through.
  @Test(arguments: 0..<8 as Range<UInt64>)
  func faceDownGamesReplayFromDiffs(seed: UInt64) throws {
    let seats = 2 + Int(seed % 2)
    let names = ["Ada", "Bob", "Cy"].prefix(seats).map { $0 }
    if seed % 2 == 0 {
      var state = TableState<PlayingCard>(
        id: "t1", settings: .matchismo(matchSize: 2 + Int(seed / 2 % 2), seats: seats),
        seed: seed, names: names)
      try Self.playBlind(&state, seed: seed, seats: seats)
    } else {
      var state = TableState<EmojiCard>(
        id: "t1", settings: .concentration(pairs: 6, seats: seats), seed: seed, names: names,
        turnSeconds: 30)
      try Self.playBlind(&state, seed: seed, seats: seats)
    }
  }

  static func playBlind<Card: WireCard>(_ state: inout TableState<Card>, seed: UInt64, seats: Int)
    throws
  {
    var view = try TableClientView(snapshot: state.snapshot(replyTo: .int(0), you: 0))
    var random = SeededGenerator(seed: seed)
    var kinds = Set<String>()
    var redealt = false
    for step in 1...3000 where !(state.game.isOver && redealt) {
      let seat = state.game.turn ?? random.below(seats)
      let move: Move
      if state.game.isOver || (!redealt && step == 40) {
        move = .redeal(seat: seat)
        redealt = true
      } else if state.game.turn != nil && random.below(20) == 0 {
        move = .pass(seat: seat)
      } else if random.below(3) == 0,
        let pair = pairAndStranger(state.game.playableCards)
      {
        // A choice that knows the board: the first card of a match.
        move = .choose(seat: seat, card: state.game.handle(of: state.game.playableCards[pair.0]))
      } else {
        move = .choose(seat: seat, card: random.below(state.game.board.count))
      }
      guard case .accepted(_, _, let diff, _) = state.apply(move, replyTo: .int(step)) else {
        continue
      }
      for event in diff["events"]?.elements ?? [] {
        if let kind = event["kind"]?.stringValue { kinds.insert(kind) }
      }
      try view.apply(diff: diff)
      let fresh = try TableClientView(snapshot: state.snapshot(replyTo: nil, you: 0))
      try #require(view == fresh, "after \(move) (\(diff.text)):\n\(view)\n\(fresh)")
    }
    #expect(redealt)
    #expect(kinds.isSuperset(of: ["select", "flip", "hide", "mismatch", "history", "redeal"]))
    if Card.self == EmojiCard.self { #expect(kinds.contains("turn")) }
  }
}
