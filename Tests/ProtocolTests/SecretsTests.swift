import Model
import Protocol
import TestSupport
import Testing

/// Nothing secret — the seed, the deck, undealt cards — ever reaches the wire.
@Suite struct SecretsTests {
  /// Large seeds, so that their decimal form cannot turn up in a message by chance.
  static let seeds: [UInt64] = {
    var generator = SeededGenerator(seed: 0x5EC2_E75)
    return (0..<24).map { _ in generator.next() | 1 << 63 }
  }()

  /// Every key PROTOCOL.md gives a server message (plus `matched`, which a game that keeps its
  /// matched cards lists in a snapshot).
  static let publicKeys: Set<String> = [
    "type", "replyTo", "table", "id", "game", "version", "you", "over", "deckCount", "settings",
    "boardSize", "matchSize", "costToChoose", "mismatchPenalty", "matchBonus", "board", "number",
    "symbol", "shading", "color", "players", "seat", "name", "score", "matches", "selection",
    "status", "text", "card", "count", "alpha", "stroke", "events", "kind", "cards", "points",
    "penalty", "slot", "reason", "standings", "rank", "runs", "matched", "label", "scoring",
  ]

  @Test(arguments: seeds)
  func messagesHoldNoSecrets(seed: UInt64) throws {
    var game = CardMatchingGame<SetCard>(settings: .set(), seed: seed)
    var player = SetPlayer(seed: seed ^ 0xFF)
    player.redealPercent = 2
    var status = StatusLine.newGame
    // Every card that has been face up: the only cards a message may name.
    var seen = Set(game.board.map(\.id))

    func check(_ message: JSONValue, _ what: String) throws {
      let text = message.text
      // The table's seed, and the seed of the current deal (a re-deal draws a new one).
      for secret in [seed, game.dealSeed]
        .flatMap({ [String($0), String($0, radix: 16), String(Int64(bitPattern: $0))] })
      {
        #expect(!text.contains(secret), "\(what) holds a deal seed")
      }
      var keys = Set<String>()
      message.forEachObject { keys.formUnion($0.map(\.0)) }
      #expect(keys.isSubset(of: Self.publicKeys), "\(what): \(keys.subtracting(Self.publicKeys))")
      let named = cardIDs(in: message)
      #expect(named.isSubset(of: seen), "\(what) names unseen cards \(named.subtracting(seen))")
    }

    func checkSnapshot(version: Int) throws {
      let snapshot = ServerMessage.snapshot(
        replyTo: nil, tableID: "t1", version: version, you: 0, game: game, names: ["Ada"],
        status: status)
      try check(snapshot, "snapshot v\(version)")
      let table = try #require(snapshot["table"])
      #expect(table["deckCount"] == .int(game.deckCount))
      // The only card objects are the board's, in order.
      var cardObjects: [Int] = []
      table.forEachObject { members in
        let object = JSONValue.object(members)
        if object["symbol"] != nil, object["number"] != nil, let id = object["id"]?.intValue {
          cardObjects.append(id)
        }
      }
      #expect(cardObjects == game.board.map(\.id))
      #expect(table["board"]?.elements?.compactMap { $0["id"]?.intValue } == game.board.map(\.id))
    }

    try checkSnapshot(version: 0)
    for version in 1...250 {
      let move = player.nextMove(in: game)
      guard let events = try? game.apply(move) else { continue }
      seen.formUnion(game.board.map(\.id))
      status = StatusLine.runs(for: events, names: ["Ada"])
      let diff = Written.json(
        Written.diff(
          version: version, replyTo: .int(version), events: events, names: ["Ada"],
          status: status))
      try check(diff, "diff v\(version)")
      // Cards a diff shows in full are on the board after it.
      diff.forEachObject { members in
        let object = JSONValue.object(members)
        if object["symbol"] != nil, let id = object["id"]?.intValue {
          #expect(game.board.contains { $0.id == id }, "diff v\(version) shows card \(id)")
        }
      }
      if version.isMultiple(of: 10) || game.isOver { try checkSnapshot(version: version) }
    }
  }

  /// The ids of every card a message names: card objects, `card` and `cards` fields, selections.
  func cardIDs(in message: JSONValue) -> Set<Int> {
    var ids = Set<Int>()
    message.forEachObject { members in
      let object = JSONValue.object(members)
      if object["symbol"] != nil, let id = object["id"]?.intValue { ids.insert(id) }
      for key in ["card", "cards", "selection", "matched"] {
        switch object[key] {
        case .int(let id)?: ids.insert(id)
        case .array(let items)?: ids.formUnion(items.compactMap(\.intValue))
        default: break
        }
      }
    }
    return ids
  }
}
