import Model
import Protocol
import Testing

@testable import Lobby

/// Chat (issue 21): a line said at a table reaches everyone there, players and spectators, as
/// plain text with the sender's name and seat; the table keeps it (in its journal record, before
/// anyone sees it) and a finished game keeps what was said during it; a line in the lobby
/// reaches who watches the list; too long, blank or too fast is refused and says nothing.
@Suite struct ChatTests {
  let c = (1...6).map { ConnectionID(UInt64($0)) }

  /// Ada and Bob at a two-seat table, Eve watching it; returns the harness.
  func tableOfThree() async throws -> LobbyHarness {
    let harness = LobbyHarness()
    try await harness.hello(c[0], "Ada")
    try await harness.hello(c[1], "Bob")
    try await harness.hello(c[2], "Eve")
    let created = try await harness.send(
      #"{"type":"createTable","id":1,"game":"set","seats":2}"#, from: c[0])
    let table = try #require(
      messages(created, to: c[0]).first { $0["type"] == "snapshot" }?["table"]?["id"]?.stringValue)
    try await harness.send(#"{"type":"join","id":2,"table":"\#(table)"}"#, from: c[1])
    try await harness.send(#"{"type":"spectate","id":3,"table":"\#(table)"}"#, from: c[2])
    return harness
  }

  @Test func aLineAtATableReachesPlayersAndSpectatorsAsPlainText() async throws {
    let harness = try await tableOfThree()
    let said = try await harness.send(
      #"{"type":"chat","id":9,"text":"  <b>gg</b> & <script>x()</script>  "}"#, from: c[1])
    let mine = try one(said, to: c[1])
    #expect(
      mine
        == JSONValue.parse(
          #"{"type":"chat","replyTo":9,"where":"table","name":"Bob","seat":1,"text":"<b>gg</b> & <script>x()</script>"}"#
        ))
    for other in [c[0], c[2]] {
      let line = try one(said, to: other)
      #expect(line["replyTo"] == nil && line["text"] == "<b>gg</b> & <script>x()</script>")
      #expect(line["seat"] == .int(1) && line["name"] == "Bob")
    }
    // A spectator's line says so, with no seat.
    let watched = try await harness.send(#"{"type":"chat","id":4,"text":"nice"}"#, from: c[2])
    let line = try one(watched, to: c[0])
    #expect(line["spectator"] == .bool(true) && line["seat"] == nil && line["name"] == "Eve")
    // A snapshot carries the table's lines, oldest first.
    let snapshot = try one(
      try await harness.send(#"{"type":"resync","id":5}"#, from: c[0]), to: c[0])
    #expect(
      snapshot["chat"]?.elements?.map { $0["text"] } == [
        "<b>gg</b> & <script>x()</script>", "nice",
      ])
  }

  @Test(arguments: [
    #""""#, #""   ""#, #""line\nbreak""#, #""bell\u0007""#, #"7"#, #"null"#,
    "\"\(String(repeating: "é", count: 201))\"",
  ])
  func aLineThatIsNotOneIsRefusedAndSaysNothing(_ text: String) async throws {
    let harness = try await tableOfThree()
    let answer = try await harness.send(#"{"type":"chat","id":6,"text":\#(text)}"#, from: c[0])
    let error = try one(answer, to: c[0])
    #expect(error["code"] == "badField" && error["replyTo"] == .int(6))
    #expect(messages(answer, to: c[1]).isEmpty && messages(answer, to: c[2]).isEmpty)
  }

  @Test func twoHundredCharactersAreALine() async throws {
    let harness = try await tableOfThree()
    let text = String(repeating: "é", count: 200)
    let answer = try await harness.send(#"{"type":"chat","id":6,"text":"\#(text)"}"#, from: c[0])
    #expect(try one(answer, to: c[1])["text"] == .string(text), "\(messages(answer, to: c[0]))")
  }

  @Test func aSenderOverTheRateIsRefusedUntilTheBucketRefills() async throws {
    let harness = try await tableOfThree()
    for i in 0..<5 {
      let answer = try await harness.send(
        #"{"type":"chat","id":\#(i),"text":"hi \#(i)"}"#, from: c[0])
      #expect(try one(answer, to: c[0])["type"] == "chat")
    }
    let refused = try await harness.send(#"{"type":"chat","id":9,"text":"again"}"#, from: c[0])
    let error = try one(refused, to: c[0])
    #expect(error["code"] == "tooFast" && error["replyTo"] == .int(9))
    #expect(messages(refused, to: c[1]).isEmpty)
    // Another sender has a bucket of their own.
    #expect(
      try one(
        try await harness.send(#"{"type":"chat","id":1,"text":"me too"}"#, from: c[1]), to: c[0])[
          "text"]
        == "me too")
    // Two seconds later, one more line.
    harness.clock.set(harness.clock.now + 2)
    let again = try await harness.send(#"{"type":"chat","id":10,"text":"again"}"#, from: c[0])
    #expect(try one(again, to: c[1])["text"] == "again")
  }

  @Test func aLineInTheLobbyReachesWhoWatchesTheList() async throws {
    let harness = LobbyHarness()
    try await harness.hello(c[0], "Ada")
    try await harness.hello(c[1], "Bob")
    try await harness.hello(c[3], "Cy")
    try await harness.send(#"{"type":"lobby","id":1}"#, from: c[1])
    let said = try await harness.send(
      #"{"type":"chat","id":2,"text":"anyone for Set?"}"#, from: c[0])
    #expect(
      try one(said, to: c[0])
        == JSONValue.parse(
          #"{"type":"chat","replyTo":2,"where":"lobby","name":"Ada","text":"anyone for Set?"}"#))
    #expect(try one(said, to: c[1])["text"] == "anyone for Set?")
    // Cy does not watch the list.
    #expect(messages(said, to: c[3]).isEmpty)
  }

  /// A table that journals keeps its lines in its record (taken before the frames go), brings
  /// them back after a restart, and gives the game that ends the lines said during it, timed.
  @Test func theTableKeepsItsLinesAndTheGameItsOwn() throws {
    var rules = TableRules()
    rules.journals = true
    var table = TableState<TwinsGame.Card>(
      id: "t3", settings: try TwinsGame.setup(seats: 1, options: TableOptions()).settings,
      seed: 5, names: ["Ada"], rules: rules, now: 100)
    _ = table.takeJournal(creator: "token-1")
    let line = table.say("hello <i>there</i>", name: "Ada", seat: 0, now: 103.5)
    #expect(line == ChatLine(name: "Ada", seat: 0, text: "hello <i>there</i>", deal: 1, at: 3.5))
    var host = TableHost(table: table, creator: "token-1", emptyTableGrace: 30)
    let outcome = host.handle(
      .chat(text: "gg", name: "Eve", seat: nil, connection: ConnectionID(9), replyTo: .int(4)),
      now: 104)
    // The record with the line is written before the line goes out.
    guard case .table(let record)? = outcome.journal.first else {
      Issue.record("no table record: \(outcome.journal)")
      return
    }
    #expect(record.chat?.map(\.text) == ["hello <i>there</i>", "gg"])
    #expect(record.chat?.last?.spectator == true)
    let restored = TableState<TwinsGame.Card>(restoring: record, moves: [], rules: rules, now: 500)
    #expect(restored.chat == record.chat)
    #expect(
      restored.snapshot(replyTo: nil, you: 0, now: 500)["chat"]
        == JSONValue.parse(
          #"[{"name":"Ada","seat":0,"text":"hello <i>there</i>"},{"name":"Eve","spectator":true,"text":"gg"}]"#
        ))
    // The game, played to its end, keeps its lines with their times.
    table = try #require(host.table as? TableState<TwinsGame.Card>)
    var finished: FinishedGame?
    for number in 1...4 {
      for card in table.game.board where card.number == number {
        _ = table.apply(.choose(seat: 0, card: card.id), replyTo: nil)
      }
    }
    for entry in table.takeJournal(creator: "token-1") {
      if case .finished(let game) = entry { finished = game }
    }
    let game = try #require(finished)
    #expect(game.chat?.map(\.text) == ["hello <i>there</i>", "gg"])
    #expect(game.chat?.map(\.at) == [3.5, 4])
    #expect(
      ServerMessage.finishedGame(game)["chat"]?.elements?.first
        == JSONValue.parse(#"{"name":"Ada","seat":0,"text":"hello <i>there</i>","at":3.5}"#))
    // Only the last hundred lines stay.
    for i in 0..<120 { _ = table.say("line \(i)", name: "Ada", seat: 0, now: 200) }
    #expect(table.chat.count == 100 && table.chat.first?.text == "line 20")
  }

  @Test func theBucketsAreBoundedAndRefill() {
    // Two thousand sessions, each saying one line ten seconds after the last.
    var allowances = ChatAllowances()
    for i in 0..<2000 {
      let taken = allowances.take("s\(i)", now: Double(i) * 10)
      #expect(taken)
    }
    // Full buckets are let go once the map grows past its bound.
    #expect(allowances.count <= 1025)
  }
}

/// The one message `connection` got among `deliveries`.
private func one(
  _ deliveries: [OutboundRecorder.Delivery], to connection: ConnectionID,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> JSONValue {
  let got = messages(deliveries, to: connection)
  try #require(got.count == 1, "\(deliveries)", sourceLocation: sourceLocation)
  return got[0]
}
