import Model
import Protocol
import TestSupport
import Testing

@testable import Lobby

/// Set Junior and UltraSet through the lobby: served by the standard registry, their defaults
/// and refusals, and a game of each played to its end alone and by two.
@Suite struct SetVariantsTests {
  let c = (1...3).map { ConnectionID(UInt64($0)) }

  func setup(_ game: String, seats: Int, _ options: TableOptions = TableOptions()) throws
    -> TableSetup
  {
    try GameCatalog.setup(game: game, seats: seats, options: options, replyTo: nil).get()
  }

  @Test func bothVariantsAreServed() {
    #expect(GameRegistry.standard.game(named: "setJunior") == SetJuniorGame.self)
    #expect(GameRegistry.standard.game(named: "ultraSet") == UltraSetGame.self)
    #expect(SetJuniorGame.name == "setJunior")
    #expect(UltraSetGame.name == "ultraSet")
    #expect(GameCatalog.games.isSuperset(of: ["setJunior", "ultraSet"]))
  }

  @Test func setJuniorDefaults() throws {
    let solo = try setup("setJunior", seats: 1)
    #expect(solo.game == "setJunior")
    #expect(solo.settings == .setJunior(seats: 1, scoring: .course))
    #expect(solo.settings.boardSize == 9)
    #expect(solo.settings.matchSize == 3)
    #expect(solo.turnSeconds == nil)
    #expect(solo.showSelections)
    let four = try setup("setJunior", seats: 4)
    #expect(four.settings == .setJunior(seats: 4, scoring: .classic))
    let chosen = try setup(
      "setJunior", seats: 2,
      TableOptions(boardSize: 12, scoring: "custom", matchBonus: 2, showSelections: false))
    #expect(chosen.settings.boardSize == 12)
    #expect(chosen.settings.matchBonus == 2)
    #expect(chosen.settings.scoring == nil)
    #expect(!chosen.showSelections)
    #expect(try setup("setJunior", seats: 1, TableOptions(boardSize: 6)).settings.boardSize == 6)
  }

  @Test func ultraSetDefaults() throws {
    let solo = try setup("ultraSet", seats: 1)
    #expect(solo.game == "ultraSet")
    #expect(solo.settings == .ultraSet(seats: 1, scoring: .course))
    #expect(solo.settings.boardSize == 12)
    #expect(solo.settings.matchSize == 4)
    #expect(solo.settings.matchedCards == .replace)
    #expect(solo.settings.dealsMoreWhenNoMatch)
    let two = try setup("ultraSet", seats: 2)
    #expect(two.settings == .ultraSet(seats: 2, scoring: .classic))
    for size in UltraSetGame.boardSizes {
      #expect(
        try setup("ultraSet", seats: 1, TableOptions(boardSize: size)).settings.boardSize == size)
    }
    #expect(try setup("ultraSet", seats: 1, TableOptions(matchSize: 4)).settings.matchSize == 4)
    #expect(try setup("setJunior", seats: 1, TableOptions(matchSize: 3)).settings.matchSize == 3)
  }

  @Test func refusalsSayWhatFits() {
    func problem(_ game: String, _ options: TableOptions) -> String? {
      guard
        case .failure(let error) = GameCatalog.setup(
          game: game, seats: 2, options: options, replyTo: nil)
      else { return nil }
      #expect(error.code == .badSettings)
      return error.message
    }
    #expect(
      problem("setJunior", TableOptions(boardSize: 15))
        == "Setting 'boardSize' must be 6, 9 or 12 for Set Junior.")
    #expect(
      problem("setJunior", TableOptions(matchSize: 4))
        == "A set is always three cards: 'matchSize' must be 3.")
    #expect(
      problem("ultraSet", TableOptions(boardSize: 10))
        == "Setting 'boardSize' must be 9, 12, 15, 18 or 21 for UltraSet.")
    #expect(
      problem("ultraSet", TableOptions(matchSize: 3))
        == "An UltraSet is always four cards: 'matchSize' must be 4.")
    #expect(
      problem("set", TableOptions(boardSize: 13))
        == "Setting 'boardSize' must be 9, 12, 15, 18 or 21 for Set.")
    #expect(problem("ultraSet", TableOptions(theme: 1))?.contains("'theme'") == true)
  }

  @Test(arguments: [
    #""game":"setJunior","boardSize":15"#, #""game":"setJunior","boardSize":8"#,
    #""game":"setJunior","matchSize":4"#, #""game":"setJunior","matchSize":2"#,
    #""game":"setJunior","scoring":"fast""#, #""game":"setJunior","costToChoose":0"#,
    #""game":"setJunior","theme":1"#, #""game":"setJunior","turnSeconds":10"#,
    #""game":"ultraSet","matchSize":3"#, #""game":"ultraSet","boardSize":10"#,
    #""game":"ultraSet","boardSize":24"#,
    #""game":"ultraSet","scoring":"custom","costToChoose":11"#,
    #""game":"ultraSet","theme":0"#, #""game":"ultraSet","turnSeconds":30"#,
  ])
  func settingsThatDoNotFitAreRefusedAndChangeNothing(_ fields: String) async throws {
    let harness = LobbyHarness()
    let (_, snapshot) = try await harness.seatSolo(c[0])
    let tableID = try #require(snapshot["table"]?["id"])
    for type in ["createTable", "playSolo", "quickMatch"] {
      let answer = try await harness.send(
        #"{"type":"\#(type)","id":"s","seats":2,\#(fields)}"#, from: c[0])
      expectError(try only(answer, to: c[0]), .badSettings, replyTo: "s")
    }
    #expect(harness.lobby.tableCount == 1)
    let resync = try await harness.send(#"{"type":"resync","id":9}"#, from: c[0])
    #expect(try only(resync, to: c[0])["table"]?["id"] == tableID)
  }

  // MARK: - Games played through the lobby

  /// Plays table `id` to its end through the lobby: the first match `find` sees on the board,
  /// claimed card by card, by `players` in turn. Returns how many matches each claimed and what
  /// the last claim sent.
  func playToTheEnd<Card: WireCard>(
    _ harness: LobbyHarness, table id: String, as _: Card.Type, players: [ConnectionID],
    find: ([Card]) -> [Card]?
  ) async throws -> (claims: [Int], last: [OutboundRecorder.Delivery]) {
    var claims = Array(repeating: 0, count: players.count)
    var last: [OutboundRecorder.Delivery] = []
    var message = 10
    for turn in 0..<40 {
      let state = try #require(harness.lobby.state.table(id) as? TableState<Card>)
      if state.game.isOver { return (claims, last) }
      let match = try #require(find(state.game.playableCards), "no match on the board")
      let seat = turn % players.count
      for card in match {
        message += 1
        last = try await harness.send(
          #"{"type":"choose","id":\#(message),"card":\#(card.id)}"#, from: players[seat])
      }
      claims[seat] += 1
      // Everyone at the table sees the match, with its cards in the order claimed.
      for player in players {
        let events = try #require(diffEvents(messages(last, to: player)).last)
        let matched = try #require(events.first { $0["kind"] == "match" })
        #expect(matched["seat"] == .int(seat))
        #expect(matched["cards"] == .array(match.map { .int($0.id) }))
      }
    }
    Issue.record("the game did not end")
    return (claims, last)
  }

  /// The final standings the last claim sent `connection`.
  func standings(_ last: [OutboundRecorder.Delivery], to connection: ConnectionID) throws
    -> [JSONValue]
  {
    let events = try #require(diffEvents(messages(last, to: connection)).last)
    let over = try #require(events.first { $0["kind"] == "over" })
    return try #require(over["standings"]?.elements)
  }

  @Test func setJuniorSolo() async throws {
    let harness = LobbyHarness()
    _ = try await harness.hello(c[0], "Ada")
    let answer = try await harness.send(
      #"{"type":"playSolo","id":2,"game":"setJunior"}"#, from: c[0])
    let table = try #require(only(answer, to: c[0])["table"])
    #expect(table["game"] == "setJunior")
    #expect(table["status"] == .array([StyledRun.text("Find a set!").json]))
    #expect(table["settings"]?["boardSize"] == .int(9))
    #expect(table["settings"]?["scoring"] == "course")
    let board = try #require(table["board"]?.elements)
    #expect(board.count >= 9)
    #expect(board.allSatisfy { $0["shading"] == "solid" && ($0["id"]?.intValue ?? 99) < 27 })
    #expect(table["deckCount"] == .int(27 - board.count))
    let id = try #require(table["id"]?.stringValue)

    let (claims, last) = try await playToTheEnd(
      harness, table: id, as: JuniorSetCard.self, players: [c[0]]
    ) { JuniorSetCard.allSets(in: $0).first }
    let rows = try standings(last, to: c[0])
    #expect(rows.first?["matches"] == .int(claims[0]))
    // The course's scoring: −1 a choice, a set 3 × 4.
    #expect(rows.first?["score"] == .int(claims[0] * (12 - 3)))
    let state = try #require(harness.lobby.state.table(id) as? TableState<JuniorSetCard>)
    #expect(state.game.deckCount == 0)
    #expect(state.history.count == claims[0])
  }

  @Test func ultraSetSoloWithAMiss() async throws {
    let harness = LobbyHarness()
    _ = try await harness.hello(c[0], "Ada")
    let answer = try await harness.send(
      #"{"type":"playSolo","id":2,"game":"ultraSet","scoring":"classic"}"#, from: c[0])
    let table = try #require(only(answer, to: c[0])["table"])
    #expect(table["game"] == "ultraSet")
    #expect(
      table["status"]
        == .array([
          StyledRun.text("Find an UltraSet: two pairs that need the same third card!").json
        ]))
    #expect(table["settings"]?["matchSize"] == .int(4))
    #expect(table["board"]?.elements?.count == 12)
    let id = try #require(table["id"]?.stringValue)

    // Four cards that are no UltraSet: a miss, which costs a point and lets all four go.
    let state = try #require(harness.lobby.state.table(id) as? TableState<UltraSetCard>)
    let board = state.game.board
    let miss = try #require(
      combinations(board, 4).first { UltraSetCard.matchScore($0) == 0 })
    var missed: [OutboundRecorder.Delivery] = []
    for (i, card) in miss.enumerated() {
      missed = try await harness.send(
        #"{"type":"choose","id":\#(3 + i),"card":\#(card.id)}"#, from: c[0])
    }
    let events = try #require(diffEvents(messages(missed, to: c[0])).first)
    let mismatch = try #require(events.first { $0["kind"] == "mismatch" })
    #expect(mismatch["cards"] == .array(miss.map { .int($0.id) }))
    #expect(mismatch["penalty"] == .int(1))
    #expect(events.filter { $0["kind"] == "deselect" }.count == 4)

    let (claims, last) = try await playToTheEnd(
      harness, table: id, as: UltraSetCard.self, players: [c[0]]
    ) { UltraSetCard.allUltraSets(in: $0).first }
    let rows = try standings(last, to: c[0])
    #expect(rows.first?["matches"] == .int(claims[0]))
    #expect(rows.first?["score"] == .int(claims[0] - 1))
    let after = try #require(harness.lobby.state.table(id) as? TableState<UltraSetCard>)
    #expect(after.game.board.count == 81 - 4 * claims[0])
    #expect(after.history.count == claims[0] + 1)
  }

  /// Two players meet by quick match and race through the game, taking matches in turn.
  @Test(arguments: ["setJunior", "ultraSet"])
  func twoPlayersByQuickMatch(_ game: String) async throws {
    var configuration = LobbyConfiguration()
    configuration.countdown = 0
    let harness = LobbyHarness(configuration: configuration)
    _ = try await harness.hello(c[0], "Ada")
    _ = try await harness.hello(c[1], "Bob")
    var tables: [JSONValue] = []
    for (i, connection) in c.prefix(2).enumerated() {
      let answer = try await harness.send(
        #"{"type":"quickMatch","id":\#(i + 2),"game":"\#(game)","seats":2}"#, from: connection)
      tables.append(try #require(messages(answer, to: connection).first?["table"]))
    }
    #expect(tables.map { $0["id"] } == [tables[0]["id"], tables[0]["id"]])
    #expect(tables.allSatisfy { $0["game"] == .string(game) })
    #expect(tables[0]["settings"]?["scoring"] == "classic")
    let id = try #require(tables[0]["id"]?.stringValue)
    _ = try await harness.tick(at: 1)
    let players = Array(c.prefix(2))
    let played: (claims: [Int], last: [OutboundRecorder.Delivery])
    if game == "setJunior" {
      let state = try #require(harness.lobby.state.table(id) as? TableState<JuniorSetCard>)
      #expect(state.phase == .playing)
      #expect(state.game.board.count >= 9)
      played = try await playToTheEnd(
        harness, table: id, as: JuniorSetCard.self, players: players
      ) { JuniorSetCard.allSets(in: $0).first }
    } else {
      let state = try #require(harness.lobby.state.table(id) as? TableState<UltraSetCard>)
      #expect(state.phase == .playing)
      #expect(state.game.board.count == 12)
      played = try await playToTheEnd(
        harness, table: id, as: UltraSetCard.self, players: players
      ) { UltraSetCard.allUltraSets(in: $0).first }
    }
    let (claims, last) = played
    // Classic scoring: a match is a point, choosing is free; Ada claimed first.
    #expect(claims[0] >= claims[1] && claims[0] - claims[1] <= 1)
    for connection in players {
      let rows = try standings(last, to: connection)
      #expect(rows.map { $0["name"] } == ["Ada", "Bob"])
      #expect(rows.map { $0["score"] } == claims.map { .int($0) })
      #expect(rows.map { $0["matches"] } == claims.map { .int($0) })
    }
  }
}

/// Every `k` of `items`, in order.
private func combinations<T>(_ items: [T], _ k: Int) -> [[T]] {
  guard k > 0 else { return [[]] }
  guard items.count >= k else { return [] }
  return items.indices.flatMap { i in
    combinations(Array(items[(i + 1)...]), k - 1).map { [items[i]] + $0 }
  }
}
