import Foundation
import Protocol
import TestSupport
import Testing

@testable import Model

/// Expects `message` to equal the fixture at `path`, structurally and, because the server writes
/// members in a fixed order, byte for byte once the fixture's whitespace is removed.
func expect(
  _ message: JSONValue, matches path: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let expected = try Fixture.json(path)
  #expect(message == expected, "\(path): got \(message.text)", sourceLocation: sourceLocation)
  #expect(
    message.text == compacted(try Fixture.text(path)), "\(path): member order differs",
    sourceLocation: sourceLocation)
}

/// Checks that `frame`, as the server sends it, is the fixture at `path`: the same JSON, and
/// byte for byte the fixture without its whitespace (so members come in the documented order).
func expect(
  _ frame: Frame, matches path: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let expected = try Fixture.json(path)
  let text = Written.text(frame)
  #expect(Written.json(frame) == expected, "\(path): got \(text)", sourceLocation: sourceLocation)
  #expect(
    text == compacted(try Fixture.text(path)), "\(path): member order differs",
    sourceLocation: sourceLocation)
}

/// A one-seat Set table driven by hand, building messages the way a table does.
private struct ScriptedTable {
  var game: CardMatchingGame<SetCard>
  var version = 0
  var status = StatusLine.newGame
  let names = ["Ada"]

  init(seed: UInt64) { game = CardMatchingGame(settings: .set(), seed: seed) }

  func snapshot(replyTo: MessageID?) -> JSONValue {
    ServerMessage.snapshot(
      replyTo: replyTo, tableID: "t1", version: version, you: 0, game: game, names: names,
      status: status)
  }

  /// Chooses `card`, returning the diff's frame (which carries the new status line).
  mutating func choose(_ card: Int, id: MessageID?) throws -> Frame {
    let events = try game.apply(.choose(seat: 0, card: card))
    version += 1
    status = StatusLine.runs(for: events, names: names)
    return Written.diff(
      tableID: "t1", version: version, seat: 0, replyTo: id, events: events, names: names,
      status: status)
  }
}

@Suite struct ServerMessageTests {
  @Test func welcomeIsTheDocumentedExample() throws {
    // The example lists one game, Set: LobbyTests' GameDescriptionTests hold it to Set's
    // definition, byte for byte. Here the message around it: the same value, its members in
    // the documented order up to the games (whose members the parse sorted).
    let fixture = try Fixture.json("server/welcome.json")
    let welcome = ServerMessage.welcome(
      replyTo: .int(1), session: "q3J1bHqk1n7wWm7v0k3t8A", name: "Ada", resumed: false,
      maxMessageBytes: 8192, node: "play1:8080",
      gamesVersion: try #require(fixture["gamesVersion"]?.stringValue),
      games: fixture["games"])
    #expect(welcome == fixture)
    let documented = compacted(try Fixture.text("server/welcome.json"))
    let head = try #require(documented.range(of: #""games":"#))
    #expect(welcome.text.hasPrefix(documented[..<head.upperBound]))
  }

  @Test func errorIsTheDocumentedExample() throws {
    let error = ProtocolError(.cardNotOnTable, "Card 17 is not on the table.", replyTo: .int(3))
    try expect(ServerMessage.error(error), matches: "server/error.json")
  }

  @Test func documentExamplesAreTheFixturesVerbatim() throws {
    let document = try String(contentsOf: protocolDocumentURL, encoding: .utf8)
    for path in ["server/welcome.json", "server/error.json"] {
      let fixture = try Fixture.text(path).trimmingCharacters(in: .newlines)
      #expect(document.contains(fixture), "\(path) is not in PROTOCOL.md")
    }
  }

  @Test func errorWithoutReadableIdHasNoReplyTo() {
    let error = ServerMessage.error(ProtocolError(.badJSON, "A message must be one JSON object."))
    #expect(error.keys == ["type", "code", "message"])
    #expect(error["code"] == "badJSON")
  }

  @Test func errorEchoesAStringId() {
    let error = ServerMessage.error(ProtocolError(.gameOver, "Over.", replyTo: .string("m-9")))
    #expect(error.keys == ["type", "replyTo", "code", "message"])
    #expect(error["replyTo"]?.stringValue == "m-9")
  }

  @Test func welcomeForAResumedSession() {
    let welcome = ServerMessage.welcome(
      replyTo: nil, session: "tok", name: "Bea", resumed: true, maxMessageBytes: 4096,
      node: "n2", gamesVersion: "v1", games: .array([]))
    #expect(
      welcome.text
        == #"{"type":"welcome","protocol":2,"session":"tok","name":"Bea","resumed":true,"maxMessageBytes":4096,"node":"n2","gamesVersion":"v1","games":[]}"#
    )
  }

  @Test func aWelcomeNotAskedForTheGamesNamesOnlyTheirVersion() {
    let welcome = ServerMessage.welcome(
      replyTo: .int(1), session: "tok", name: "Bea", resumed: false, maxMessageBytes: 4096,
      node: "n2", gamesVersion: "v1", games: nil)
    #expect(
      welcome.text
        == #"{"type":"welcome","replyTo":1,"protocol":2,"session":"tok","name":"Bea","resumed":false,"maxMessageBytes":4096,"node":"n2","gamesVersion":"v1"}"#
    )
  }

  /// Seed 42 deals 6 30 53 72 76 58 78 62 55 42 48 20; {6, 78, 42} is a set and {77, 30, 53}
  /// (after the replacement) is not. The fixtures were written from PROTOCOL.md's shapes; the
  /// load generator's tests (`LoadKitTests`) read the same files.
  @Test func seededGameMessagesMatchFixtures() throws {
    var table = ScriptedTable(seed: 42)
    try expect(table.snapshot(replyTo: .int(2)), matches: "server/seed42-v0-snapshot.json")

    let v1 = try table.choose(6, id: .int(3))
    try expect(v1, matches: "server/seed42-v1-diff.json")
    let v2 = try table.choose(78, id: .int(4))
    try expect(v2, matches: "server/seed42-v2-diff.json")
    let v3 = try table.choose(42, id: .int(5))
    try expect(v3, matches: "server/seed42-v3-diff.json")
    try expect(table.snapshot(replyTo: .int(6)), matches: "server/seed42-v3-snapshot.json")

    let v4 = try table.choose(77, id: .int(7))
    try expect(v4, matches: "server/seed42-v4-diff.json")
    let v5 = try table.choose(30, id: .int(8))
    try expect(v5, matches: "server/seed42-v5-diff.json")
    let v6 = try table.choose(53, id: .int(9))
    try expect(v6, matches: "server/seed42-v6-diff.json")
    try expect(table.snapshot(replyTo: .string("r-10")), matches: "server/seed42-v6-snapshot.json")

    let v7 = try table.choose(53, id: .int(11))
    try expect(v7, matches: "server/seed42-v7-diff.json")
  }

  @Test func everyEventKindEncodesToTheDocumentedFields() throws {
    let card = { (id: Int) in SetCard.fullDeck[id] }
    let events: [GameEvent<SetCard>] = [
      .selected(seat: 0, card: card(17)),
      .deselected(seat: 1, card: card(40)),
      .matched(seat: 0, cards: [card(17), card(40), card(63)], points: 12),
      .mismatched(seat: 1, cards: [card(0), card(1), card(5)], penalty: 2),
      .scored(seat: 0, score: -3),
      .replaced(slot: 2, card: card(5)),
      .removed([card(17), card(40), card(63)]),
      .dealt([card(0), card(1), card(2)], reason: .noMatch),
      .deckCount(60),
      .redealt(board: [card(0), card(40)], deckCount: 69),
      .ended([
        Standing(seat: 1, score: 41, matches: 20, rank: 1),
        Standing(seat: 0, score: 41, matches: 25, rank: 1),
        Standing(seat: 2, score: 3, matches: 1, rank: 3),
      ]),
    ]
    // What the server writes for each, read back.
    let texts = events.map { Written.text($0, names: ["Ada", "Bob"]) }
    let encoded = events.map { Written.json($0, names: ["Ada", "Bob"]) }
    #expect(.array(encoded) == (try Fixture.json("server/events.json")))
    #expect(
      "[" + texts.joined(separator: ",") + "]" == compacted(try Fixture.text("server/events.json")),
      "member order differs")

    var kinds = Set<String>()
    for (event, text) in zip(encoded, texts) {
      let kind = try #require(event["kind"]?.stringValue)
      kinds.insert(kind)
      let fields = try #require(Self.documentedFields[kind], "undocumented kind \(kind)")
      #expect(text.hasPrefix(#"{"kind":"#), "\(text)")
      #expect(Set(event.keys) == fields.union(["kind"]), "\(kind): \(event.keys)")
    }
    #expect(kinds == Set(Self.documentedFields.keys))
  }

  /// The event table of PROTOCOL.md.
  static let documentedFields: [String: Set<String>] = [
    "select": ["seat", "card"], "deselect": ["seat", "card"],
    "match": ["seat", "cards", "points"], "mismatch": ["seat", "cards", "penalty"],
    "score": ["seat", "score"], "replace": ["slot", "card"], "remove": ["cards"],
    "deal": ["cards", "reason"], "deck": ["count"], "redeal": ["board", "deckCount"],
    "over": ["standings"],
  ]

  @Test func diffWithoutReplyToOmitsIt() {
    let diff = Written.diff(
      tableID: "t9", version: 3, seat: 0, replyTo: nil, events: [GameEvent<SetCard>.deckCount(3)])
    #expect(
      Written.text(diff)
        == #"{"type":"diff","table":"t9","version":3,"seat":0,"events":[{"kind":"deck","count":3}]}"#
    )
  }

  @Test func spectatorSnapshotHasNoSeat() throws {
    let game = CardMatchingGame<SetCard>(settings: .set(seats: 2), seed: 7)
    let snapshot = ServerMessage.snapshot(
      replyTo: nil, tableID: "t2", version: 0, you: nil, game: game, names: ["Ada"],
      status: StatusLine.newGame)
    let table = try #require(snapshot["table"])
    #expect(table["you"] == nil)
    #expect(snapshot["replyTo"] == nil)
    // A seat without a name still has one on the wire.
    let names = try #require(table["players"]?.elements).compactMap { $0["name"]?.stringValue }
    #expect(names == ["Ada", "Seat 2"])
  }

  @Test func snapshotOfAFinishedGameSaysSo() throws {
    var game = CardMatchingGame<SetCard>(settings: .set(), seed: 2024)
    var player = SetPlayer(seed: 1)
    for _ in 0..<2000 where !game.isOver {
      _ = try? game.apply(player.nextMove(in: game))
    }
    try #require(game.isOver)
    let snapshot = ServerMessage.snapshot(
      replyTo: nil, tableID: "t1", version: 99, you: 0, game: game, names: ["Ada"],
      status: [])
    let table = try #require(snapshot["table"])
    #expect(table["over"] == .bool(true))
    #expect(table["deckCount"] == .int(0))
    let standings = try #require(table["standings"]?.elements)
    #expect(standings.count == 1)
    #expect(standings.first?["score"] == .int(game.players[0].score))
    #expect(standings.first?["rank"] == .int(1))
  }

  @Test func setCardWireObjectFollowsTheIdFormula() {
    let symbols = ["diamond", "squiggle", "oval"]
    let shadings = ["solid", "striped", "open"]
    let colors = ["red", "green", "purple"]
    for number in 1...3 {
      for symbol in 0..<3 {
        for shading in 0..<3 {
          for color in 0..<3 {
            // PROTOCOL.md: id = 27·(number−1) + 9·symbol + 3·shading + color.
            let id = 27 * (number - 1) + 9 * symbol + 3 * shading + color
            let expected = JSONValue.object([
              ("id", .int(id)), ("number", .int(number)), ("symbol", .string(symbols[symbol])),
              ("shading", .string(shadings[shading])), ("color", .string(colors[color])),
            ])
            #expect(SetCard.fullDeck[id].wireObject.text == expected.text)
          }
        }
      }
    }
  }
}
