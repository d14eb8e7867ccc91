import Model
import Protocol
import TestSupport
import Testing

@testable import Lobby

/// A game is one ``GameDefinition`` and one registration: ``TwinsGame``, defined only in the
/// tests, is dealt, played, journaled, restored and replayed through the same code as the
/// six games served; a game the server does not deal stops a restore with an error.
@Suite struct GameDefinitionTests {
  let c = (1...3).map { ConnectionID(UInt64($0)) }

  @Test func theStandardRegistryServesTheSixGames() {
    #expect(
      GameRegistry.standard.names == [
        "set", "matchismo", "concentration", "setJunior", "ultraSet", "setChain",
      ])
    #expect(GameCatalog.games == GameRegistry.standard.names)
    #expect(GameRegistry.standard.game(named: "set") == SetGame.self)
    #expect(GameRegistry.standard.game(named: "twins") == nil)
    #expect(TwinsGame.registry.names == GameRegistry.standard.names.union(["twins"]))
  }

  @Test func aGameDefinedOnlyInTheTestsIsPlayedThroughTheLobby() async throws {
    try await GameCatalog.$registry.withValue(TwinsGame.registry) {
      var configuration = LobbyConfiguration()
      configuration.countdown = 0
      let harness = LobbyHarness(configuration: configuration)
      _ = try await harness.hello(c[0], "Ada")
      _ = try await harness.hello(c[1], "Bob")
      let created = try await harness.send(
        #"{"type":"createTable","id":2,"game":"twins","seats":2}"#, from: c[0])
      let table = try #require(only(created, to: c[0])["table"])
      #expect(table["game"] == "twins")
      #expect(table["status"]?.elements?.isEmpty == false)
      let id = try #require(table["id"]?.stringValue)
      let code = try #require(table["code"]?.stringValue)
      _ = try await harness.send(#"{"type":"join","id":3,"code":"\#(code)"}"#, from: c[1])
      let state = try #require(harness.lobby.state.table(id) as? TableState<TwinsGame.Card>)
      #expect(state.phase == .playing)
      #expect(
        state.status
          == [.name("Bob", seat: 1), .text(" joined. "), .text("Go! ")]
          + TwinsGame.Card.newGameLine)

      // Ada chooses a card and its twin: both players see each diff.
      let board = state.game.board
      let first = board[0]
      let twin = try #require(board.first { $0 != first && $0.number == first.number })
      let chose = try await harness.send(
        #"{"type":"choose","id":4,"card":\#(first.id)}"#, from: c[0])
      for connection in c.prefix(2) {
        let events = try #require(diffEvents(messages(chose, to: connection)).first)
        #expect(events.first == JSONValue.parse(#"{"kind":"select","seat":0,"card":\#(first.id)}"#))
      }
      let matched = try await harness.send(
        #"{"type":"choose","id":5,"card":\#(twin.id)}"#, from: c[0])
      for connection in c.prefix(2) {
        let diff = try #require(messages(matched, to: connection).first { $0["type"] == "diff" })
        let events = try #require(diff["events"]?.elements)
        #expect(events.contains { $0["kind"] == "match" && $0["seat"] == .int(0) })
        #expect(events.contains { $0["kind"] == "history" })
        #expect(diff["status"]?.elements?.isEmpty == false)
      }
      let after = try #require(harness.lobby.state.table(id) as? TableState<TwinsGame.Card>)
      #expect(after.game.players[0].matches == 1)
      #expect(after.history.count == 1)
    }
  }

  @Test func aGameNotRegisteredIsAnUnknownGame() async throws {
    let harness = LobbyHarness()
    _ = try await harness.hello(c[0], "Ada")
    let answer = try await harness.send(
      #"{"type":"createTable","id":2,"game":"twins","seats":2}"#, from: c[0])
    expectError(try only(answer, to: c[0]), .unknownGame, replyTo: .int(2))
  }

  @Test func theTestGamesSettingsAreItsOwn() {
    GameCatalog.$registry.withValue(TwinsGame.registry) {
      let refused = GameCatalog.setup(
        game: "twins", seats: 2, options: TableOptions(boardSize: 6), replyTo: .int(1))
      #expect(throws: ProtocolError.self) { try refused.get() }
      let setup = try? GameCatalog.setup(
        game: "twins", seats: 3, options: TableOptions(), replyTo: nil
      ).get()
      #expect(setup?.game == "twins")
      #expect(setup?.settings.seats == 3)
    }
  }

  /// A journaled table of the test game comes back as that game, and its finished game
  /// replays, while the game is registered.
  @Test func theTestGameIsRestoredAndReplayed() throws {
    var rules = TableRules()
    rules.journals = true
    var table = TableState<TwinsGame.Card>(
      id: "t3", settings: try TwinsGame.setup(seats: 1, options: TableOptions()).settings,
      seed: 5, names: ["Ada"], rules: rules)
    var moves: [JournalMove] = []
    var finished: FinishedGame?
    // Play every pair, in board order of the numbers.
    for number in 1...4 {
      for card in table.game.board where card.number == number {
        guard case .accepted = table.apply(.choose(seat: 0, card: card.id), replyTo: nil) else {
          Issue.record("choosing \(card.id) was refused")
          return
        }
      }
      for entry in table.takeJournal(creator: "token-1") {
        if case .move(let move) = entry { moves.append(move) }
        if case .finished(let game) = entry { finished = game }
      }
    }
    #expect(table.phase == .finished)
    let record = table.journalRecord(creator: "token-1")
    #expect(record.game == "twins")

    try GameCatalog.$registry.withValue(TwinsGame.registry) {
      let restored = try GameCatalog.reopen(record, moves: moves, rules: rules, now: 100)
      let twins = try #require(restored as? TableState<TwinsGame.Card>)
      #expect(twins.game == table.game)
      let game = try #require(finished)
      let replay = try #require(FinishedGameReplay.replay(game))
      #expect(replay.diffs.count == game.moves.count)
    }
    #expect(FinishedGameReplay.replay(try #require(finished)) == nil)
  }

  /// A table of a game this server does not deal stops the restore with an error naming the
  /// game and the table, instead of becoming another game or vanishing.
  @Test func anUnknownGameInTheJournalStopsTheRestore() throws {
    let table = TableState<SetCard>(id: "t7", settings: .set(), seed: 1, names: ["Ada"])
    var record = table.journalRecord(creator: "token-1")
    record.game = "twins"
    let expected = UnknownGameError(game: "twins", table: "t7")
    #expect(throws: expected) {
      try GameCatalog.reopen(record, moves: [], rules: TableRules(), now: 0)
    }
    let contents = JournalContents(
      tables: [(table.journalRecord(creator: "token-1"), []), (record, [])])
    #expect(throws: expected) { try GameCatalog.check(contents) }
    #expect(expected.description.contains("'twins'"))
    #expect(expected.description.contains("t7"))
    // The game once registered, the same journal opens.
    try GameCatalog.$registry.withValue(TwinsGame.registry) {
      try GameCatalog.check(contents)
    }
  }
}
