import Protocol
import TestSupport
import Testing

@testable import Lobby
@testable import Model

/// A face-down card's identity never leaves the server until it is turned up: random games of
/// Matchismo and Concentration, every diff and snapshot checked against the model.
@Suite struct FaceDownSecretsTests {
  /// Every object in `value`, depth first.
  static func objects(in value: JSONValue) -> [JSONValue] {
    switch value {
    case .object(let members): [value] + members.flatMap { objects(in: $0.1) }
    case .array(let items): items.flatMap { objects(in: $0) }
    default: []
    }
  }

  /// The keys that show a card's face (a playing card's `rank` comes with its `suit`; standings
  /// have a `rank` of their own).
  static let faceKeys: Set<String> = ["suit", "emoji", "symbol"]

  static func check<Card: WireCard>(
    _ state: inout TableState<Card>, seed: UInt64, moves: Int, seats: Int,
    face: (Card, JSONValue) -> Bool
  ) throws {
    var random = SeededGenerator(seed: seed)
    // Slots whose card has been turned up at some point (its face may be named from then on).
    var revealed = Set<Int>()
    func checkSnapshot() throws {
      let table = try #require(state.snapshot(replyTo: nil, you: 0)["table"])
      let board = try #require(table["board"]?.elements)
      #expect(board.count == state.game.board.count)
      for (slot, entry) in board.enumerated() {
        let card = state.game.board[slot]
        #expect(entry["id"] == .int(slot))
        if state.game.isFaceUp(card) {
          #expect(entry["faceUp"] == .bool(true))
          #expect(face(card, entry), "slot \(slot) shows another face")
          revealed.insert(slot)
        } else {
          #expect(Set(entry.keys) == ["id", "faceUp"], "a face-down entry shows \(entry.keys)")
        }
      }
      // Nothing else in the snapshot shows a face but the status line's named cards.
      let shown = Self.objects(in: table).filter { !Self.faceKeys.isDisjoint(with: $0.keys) }
      #expect(shown.count == board.count { $0["faceUp"] == .bool(true) })
    }
    try checkSnapshot()
    for _ in 0..<moves {
      let seat = state.game.turn ?? random.below(seats)
      let move: Move
      if state.game.isOver {
        move = .redeal(seat: seat)
      } else if state.game.turn != nil && random.below(10) == 0 {
        move = .pass(seat: seat)
      } else {
        move = .choose(seat: seat, card: random.below(state.game.board.count))
      }
      guard case .accepted(_, let events, let diff, _) = state.apply(move, replyTo: nil) else {
        continue
      }
      if case .redeal = move { revealed = [] }
      // The cards turned up by this move, by slot.
      var flipped: [Int: Card] = [:]
      for event in events {
        if case .turnedUp(_, let card) = event { flipped[state.game.handle(of: card)] = card }
      }
      revealed.formUnion(flipped.keys)
      for object in Self.objects(in: diff) {
        if object["kind"] == .string("flip") {
          let card = try #require(object["card"])
          let slot = try #require(card["id"]?.intValue)
          #expect(flipped[slot].map { face($0, card) } == true, "a flip shows the wrong face")
        } else if object["kind"] == .string("redeal") {
          for entry in try #require(object["board"]?.elements) {
            #expect(Set(entry.keys) == ["id", "faceUp"], "a new deal shows a face")
          }
        } else if let handle = object["card"]?.intValue, object["text"] != nil {
          // A status run names a card the table has seen, by slot, with its real face.
          #expect(revealed.contains(handle), "the status line names an unseen card")
          #expect(object["text"]?.stringValue == state.game.board[handle].statusRun.text)
        } else if object["faceUp"] == .bool(true), let slot = object["id"]?.intValue {
          // The card of a flip (checked with it).
          #expect(flipped[slot] != nil, "a face shown without a flip")
        } else if object["kind"] == nil, object["text"] == nil, object["card"] == nil {
          #expect(Self.faceKeys.isDisjoint(with: object.keys), "a diff shows a face: \(object)")
        }
      }
      try checkSnapshot()
    }
  }

  @Test(arguments: 0..<12 as Range<UInt64>)
  func matchismoShowsOnlyTurnedUpCards(seed: UInt64) throws {
    let seats = 1 + Int(seed % 3)
    var state = TableState<PlayingCard>(
      id: "m", settings: .matchismo(matchSize: 2 + Int(seed % 2), seats: seats), seed: seed,
      names: (0..<seats).map { "P\($0)" })
    try Self.check(&state, seed: seed, moves: 400, seats: seats) { card, object in
      object["rank"] == .int(card.rank) && object["suit"] == .string(PlayingCard.suits[card.suit])
        && object["emoji"] == nil
    }
  }

  @Test(arguments: 0..<12 as Range<UInt64>)
  func concentrationShowsOnlyTurnedUpCards(seed: UInt64) throws {
    let seats = 1 + Int(seed % 4)
    var state = TableState<EmojiCard>(
      id: "c",
      settings: .concentration(pairs: 4 + Int(seed % 7), theme: Int(seed % 6), seats: seats),
      seed: seed, names: (0..<seats).map { "P\($0)" })
    try Self.check(&state, seed: seed, moves: 400, seats: seats) { card, object in
      object["emoji"] == .string(card.glyph) && object["rank"] == nil
    }
  }

  /// A multiplayer table's deal goes to everyone face down, and says whose turn it is.
  @Test(arguments: ["matchismo", "concentration"])
  func aMultiplayerDealShowsNoFaces(_ game: String) throws {
    func check<Card: WireCard>(_ state: inout TableState<Card>) throws {
      for name in ["Ada", "Bob"] {
        guard case .success = state.sit(token: name, name: name, replyTo: nil, now: 0) else {
          Issue.record("\(name) could not sit")
          return
        }
      }
      let deal = try #require(state.tick(now: 10).broadcasts.last)
      let events = try #require(deal.diff["events"]?.elements)
      let redeal = try #require(events.first { $0["kind"] == "redeal" })
      let board = try #require(redeal["board"]?.elements)
      #expect(board.count == state.game.board.count)
      for (slot, entry) in board.enumerated() {
        #expect(entry == JSONValue.parse(#"{"id":\#(slot),"faceUp":false}"#))
      }
      if state.game.settings.turnBased {
        #expect(events.last == JSONValue.parse(#"{"kind":"turn","seat":0}"#))
      }
      #expect(deal.diff["status"]?.elements?.count == 2)
    }
    if game == "matchismo" {
      var state = TableState<PlayingCard>(
        id: "m", code: "", isPrivate: false, settings: .matchismo(seats: 2), seed: 3,
        rules: TableRules(), now: 0)
      try check(&state)
    } else {
      var state = TableState<EmojiCard>(
        id: "c", code: "", isPrivate: false, settings: .concentration(seats: 2), seed: 3,
        rules: TableRules(), now: 0, turnSeconds: 30)
      try check(&state)
    }
  }
}
