import Model
import Protocol
import TestSupport
import Testing

@testable import Lobby

/// Set-Chain through the lobby: served by the standard registry, its defaults and refusals,
/// its refusals of choices that break the chain rule, and a game played to its end alone and by
/// two, followed from the wire alone (snapshot, then every diff: the chain included) and checked
/// against a fresh snapshot.
@Suite struct SetChainLobbyTests {
  let c = (1...3).map { ConnectionID(UInt64($0)) }

  func setup(_ seats: Int, _ options: TableOptions = TableOptions()) throws -> TableSetup {
    try GameCatalog.setup(game: "setChain", seats: seats, options: options, replyTo: nil).get()
  }

  @Test func setChainIsServed() {
    #expect(GameRegistry.standard.game(named: "setChain") == SetChainGame.self)
    #expect(SetChainGame.name == "setChain")
    #expect(GameCatalog.games.contains("setChain"))
  }

  @Test func defaultsAndChoices() throws {
    let solo = try setup(1)
    #expect(solo.game == "setChain")
    #expect(solo.settings == .setChain(seats: 1, scoring: .course))
    #expect(solo.settings.boardSize == 12 && solo.settings.matchSize == 3)
    #expect(solo.turnSeconds == nil && solo.showSelections)
    #expect(try setup(3).settings == .setChain(seats: 3, scoring: .classic))
    for size in SetChainGame.boardSizes {
      #expect(try setup(1, TableOptions(boardSize: size)).settings.boardSize == size)
    }
    let chosen = try setup(
      2, TableOptions(scoring: "custom", mismatchPenalty: 5, showSelections: false))
    #expect(chosen.settings.mismatchPenalty == 5 && chosen.settings.scoring == nil)
    #expect(!chosen.showSelections)
  }

  @Test func refusalsSayWhatFits() {
    func problem(_ options: TableOptions) -> String? {
      guard
        case .failure(let error) = GameCatalog.setup(
          game: "setChain", seats: 2, options: options, replyTo: nil)
      else { return nil }
      #expect(error.code == .badSettings)
      return error.message
    }
    #expect(
      problem(TableOptions(boardSize: 10))
        == "Setting 'boardSize' must be 9, 12, 15, 18 or 21 for Set-Chain.")
    #expect(
      problem(TableOptions(matchSize: 4))
        == "A chain set is always three cards: 'matchSize' must be 3.")
    #expect(problem(TableOptions(theme: 1))?.contains("'theme'") == true)
    #expect(problem(TableOptions(turnSeconds: 10)) != nil)
    #expect(problem(TableOptions(scoring: "fast")) != nil)
  }

  /// A set that may be claimed now: before the first set any set of the board, after it one card
  /// of the chain and two of the board (the chain card first).
  static func claimable(_ game: CardMatchingGame<SetChainCard>) -> [SetChainCard]? {
    guard game.isChained else { return SetChainCard.allSets(in: game.board).first }
    for anchor in game.chain {
      for card in game.board {
        let third = SetChainCard.thirdCard(anchor, card)
        if third != card, game.board.contains(third) { return [anchor, card, third] }
      }
    }
    return nil
  }

  /// Plays table `id` to its end: a claimable set, card by card, by `players` in turn, every
  /// diff applied to `views` (one per player). Returns each player's claims and the last
  /// claim's deliveries.
  func playToTheEnd(
    _ harness: LobbyHarness, table id: String, players: [ConnectionID],
    views: inout [TableClientView]
  ) async throws -> (claims: [Int], last: [OutboundRecorder.Delivery]) {
    var claims = Array(repeating: 0, count: players.count)
    var last: [OutboundRecorder.Delivery] = []
    var message = 100
    for turn in 0..<60 {
      let state = try #require(harness.lobby.state.table(id) as? TableState<SetChainCard>)
      if state.game.isOver { return (claims, last) }
      let set = try #require(Self.claimable(state.game), "no chain set in a game not over")
      if state.game.isChained {
        // The chain card is no board card, and the set uses one of the chain.
        #expect(!state.game.board.contains(set[0]) && state.game.chain.contains(set[0]))
      }
      let seat = turn % players.count
      for card in set {
        message += 1
        last = try await harness.send(
          #"{"type":"choose","id":\#(message),"card":\#(card.id)}"#, from: players[seat])
        for (i, player) in players.enumerated() {
          for diff in messages(last, to: player) where diff["type"] == "diff" {
            try views[i].apply(diff: diff)
          }
        }
      }
      claims[seat] += 1
      for player in players {
        let events = try #require(diffEvents(messages(last, to: player)).last)
        let matched = try #require(events.first { $0["kind"] == "match" })
        #expect(matched["cards"] == .array(set.map { .int($0.id) }))
        // The new chain comes with the match: the chain card first, then the board's two.
        let chain = try #require(events.first { $0["kind"] == "chain" })
        let after = try #require(harness.lobby.state.table(id) as? TableState<SetChainCard>)
        #expect(chain["cards"] == .array(after.game.chain.map(\.wireObject)))
        #expect(after.game.chain.map(\.id).sorted() == set.map(\.id).sorted())
      }
    }
    Issue.record("the game did not end")
    return (claims, last)
  }

  func standings(_ last: [OutboundRecorder.Delivery], to connection: ConnectionID) throws
    -> [JSONValue]
  {
    let events = try #require(diffEvents(messages(last, to: connection)).last)
    let over = try #require(events.first { $0["kind"] == "over" })
    return try #require(over["standings"]?.elements)
  }

  /// The table as a fresh snapshot shows it to `connection`.
  func resync(_ harness: LobbyHarness, _ connection: ConnectionID) async throws -> JSONValue {
    let answer = try await harness.send(#"{"type":"resync","id":"r"}"#, from: connection)
    return try only(answer, to: connection)
  }

  @Test func soloToTheEndWithRefusalsAndAMiss() async throws {
    let harness = LobbyHarness()
    _ = try await harness.hello(c[0], "Ada")
    let answer = try await harness.send(
      #"{"type":"playSolo","id":2,"game":"setChain"}"#, from: c[0])
    let snapshot = try only(answer, to: c[0])
    let table = try #require(snapshot["table"])
    #expect(table["game"] == "setChain")
    #expect(table["chain"] == .array([]))
    #expect(table["board"]?.elements?.count == 12)
    #expect(table["settings"]?["scoring"] == "course")
    #expect(
      table["status"]
        == .array([
          StyledRun.text("Find a set: after it, each set takes one card of the one before!").json
        ]))
    let id = try #require(table["id"]?.stringValue)
    var view = try TableClientView(snapshot: snapshot)

    // The first set: any set; it becomes the chain.
    var state = try #require(harness.lobby.state.table(id) as? TableState<SetChainCard>)
    let first = try #require(Self.claimable(state.game))
    var last: [OutboundRecorder.Delivery] = []
    for (i, card) in first.enumerated() {
      last = try await harness.send(
        #"{"type":"choose","id":\#(3 + i),"card":\#(card.id)}"#, from: c[0])
      try view.apply(diff: only(last, to: c[0]))
    }
    #expect(view.chain == first.map(\.wireObject))
    state = try #require(harness.lobby.state.table(id) as? TableState<SetChainCard>)
    #expect(state.game.chain == first)

    // Two chain cards: the second is refused with chainRule and changes nothing.
    let (a, b) = (first[0], first[1])
    try view.apply(
      diff: only(
        try await harness.send(#"{"type":"choose","id":10,"card":\#(a.id)}"#, from: c[0]),
        to: c[0]))
    let second = try await harness.send(#"{"type":"choose","id":11,"card":\#(b.id)}"#, from: c[0])
    expectError(try only(second, to: c[0]), .chainRule, replyTo: .int(11))
    try view.apply(
      diff: only(
        try await harness.send(#"{"type":"choose","id":12,"card":\#(a.id)}"#, from: c[0]),
        to: c[0]))

    // Three board cards: the third is refused with chainRule, even when they are a set.
    state = try #require(harness.lobby.state.table(id) as? TableState<SetChainCard>)
    let triple =
      SetChainCard.allSets(in: state.game.board).first ?? Array(state.game.board.prefix(3))
    for (i, card) in triple.prefix(2).enumerated() {
      try view.apply(
        diff: only(
          try await harness.send(
            #"{"type":"choose","id":\#(20 + i),"card":\#(card.id)}"#, from: c[0]),
          to: c[0]))
    }
    let third = try await harness.send(
      #"{"type":"choose","id":22,"card":\#(triple[2].id)}"#, from: c[0])
    let refusal = try only(third, to: c[0])
    expectError(refusal, .chainRule, replyTo: .int(22))
    #expect(refusal["message"]?.stringValue?.contains("card of the chain") == true)
    // A chain card that is no set with them: a miss (the course's −2, the newest card kept).
    let anchor = try #require(
      state.game.chain.first { !SetChainCard.isSet($0, triple[0], triple[1]) })
    let miss = try await harness.send(
      #"{"type":"choose","id":23,"card":\#(anchor.id)}"#, from: c[0])
    let missDiff = try only(miss, to: c[0])
    try view.apply(diff: missDiff)
    let mismatch = try #require(missDiff["events"]?.elements?.first { $0["kind"] == "mismatch" })
    #expect(mismatch["penalty"] == .int(2))
    state = try #require(harness.lobby.state.table(id) as? TableState<SetChainCard>)
    #expect(state.game.players[0].selection == [anchor.id])
    // Let the kept card go.
    try view.apply(
      diff: only(
        try await harness.send(#"{"type":"choose","id":24,"card":\#(anchor.id)}"#, from: c[0]),
        to: c[0]))

    var views = [view]
    let (claims, end) = try await playToTheEnd(harness, table: id, players: [c[0]], views: &views)
    let rows = try standings(end, to: c[0])
    #expect(rows.first?["matches"] == .int(claims[0] + 1))
    let after = try #require(harness.lobby.state.table(id) as? TableState<SetChainCard>)
    #expect(after.game.deckCount == 0 && after.game.isOver)
    #expect(after.game.board.count == 81 - 3 - 2 * claims[0])
    // What the client followed is what a fresh snapshot says, chain and all.
    let fresh = try await resync(harness, c[0])
    #expect(try TableClientView(snapshot: fresh) == views[0])
    #expect(fresh["table"]?["chain"] == .array(after.game.chain.map(\.wireObject)))
    #expect(views[0].chain?.count == 3)
  }

  @Test func twoPlayersByQuickMatch() async throws {
    var configuration = LobbyConfiguration()
    configuration.countdown = 0
    let harness = LobbyHarness(configuration: configuration)
    _ = try await harness.hello(c[0], "Ada")
    _ = try await harness.hello(c[1], "Bob")
    var snapshots: [JSONValue] = []
    for (i, connection) in c.prefix(2).enumerated() {
      let answer = try await harness.send(
        #"{"type":"quickMatch","id":\#(i + 2),"game":"setChain","seats":2}"#, from: connection)
      snapshots.append(try #require(messages(answer, to: connection).first))
    }
    let tables = snapshots.compactMap { $0["table"] }
    #expect(tables.map { $0["id"] } == [tables[0]["id"], tables[0]["id"]])
    #expect(tables[0]["settings"]?["scoring"] == "classic")
    let id = try #require(tables[0]["id"]?.stringValue)
    _ = try await harness.tick(at: 1)
    // Each player follows the table from the wire, from a snapshot taken once play began.
    var views = [
      try TableClientView(snapshot: try await resync(harness, c[0])),
      try TableClientView(snapshot: try await resync(harness, c[1])),
    ]
    let state = try #require(harness.lobby.state.table(id) as? TableState<SetChainCard>)
    #expect(state.phase == .playing && state.game.chain.isEmpty)
    #expect(views[0].chain == [])

    let players = Array(c.prefix(2))
    let (claims, last) = try await playToTheEnd(
      harness, table: id, players: players, views: &views)
    #expect(claims[0] >= claims[1] && claims[0] - claims[1] <= 1)
    for (i, connection) in players.enumerated() {
      let rows = try standings(last, to: connection)
      #expect(rows.map { $0["name"] } == ["Ada", "Bob"])
      #expect(rows.map { $0["matches"] } == claims.map { .int($0) })
      let fresh = try await resync(harness, connection)
      #expect(try TableClientView(snapshot: fresh) == views[i])
      #expect(views[i].chain?.count == 3)
    }
  }

  /// A journaled Set-Chain table: reopened from its moves halfway (a restart) it is the same
  /// game, chain and all, and plays on; its finished game replays move by move to the same
  /// chain and board, with a look back.
  @Test func journaledTableRestoresAndItsFinishedGameReplays() throws {
    var rules = TableRules()
    rules.journals = true
    var table = TableState<SetChainCard>(
      id: "t5", settings: try SetChainGame.setup(seats: 1, options: TableOptions()).settings,
      seed: 21, names: ["Ada"], rules: rules)
    var moves: [JournalMove] = []
    var finished: FinishedGame?
    var restoredOnce = false
    for _ in 0..<60 where !table.game.isOver {
      let set = try #require(Self.claimable(table.game))
      for card in set {
        guard case .accepted = table.apply(.choose(seat: 0, card: card.id), replyTo: nil) else {
          Issue.record("choosing \(card.id) was refused")
          return
        }
      }
      for entry in table.takeJournal(creator: "token-1") {
        if case .move(let move) = entry { moves.append(move) }
        if case .finished(let game) = entry { finished = game }
      }
      if table.game.players[0].matches == 3 && !restoredOnce {
        restoredOnce = true
        let record = table.journalRecord(creator: "token-1")
        #expect(record.game == "setChain")
        let reopened = try GameCatalog.reopen(record, moves: moves, rules: rules, now: 100)
        var restored = try #require(reopened as? TableState<SetChainCard>)
        #expect(restored.game == table.game)
        #expect(restored.game.chain == table.game.chain && !table.game.chain.isEmpty)
        // It plays on: a chain set is taken there too.
        let next = try #require(Self.claimable(restored.game))
        for card in next {
          guard case .accepted = restored.apply(.choose(seat: 0, card: card.id), replyTo: nil)
          else {
            Issue.record("the restored table refused \(card.id)")
            return
          }
        }
        #expect(restored.game.players[0].matches == 4)
      }
    }
    #expect(restoredOnce)
    #expect(table.phase == .finished)
    let game = try #require(finished)
    #expect(game.game == "setChain")
    let replay = try #require(FinishedGameReplay.replay(game))
    #expect(replay.diffs.count == game.moves.count)
    // Followed from the replay's frames alone, the chain ends where the game's did.
    var chain: JSONValue = try #require(replay.table["chain"])
    #expect(chain == .array([]))
    var board = try #require(replay.table["board"]?.elements)
    for frame in replay.diffs {
      let diff = try #require(JSONValue.parse(frame.payload))
      for event in diff["events"]?.elements ?? [] {
        switch event["kind"]?.stringValue {
        case "chain": chain = try #require(event["cards"])
        case "replace":
          board[try #require(event["slot"]?.intValue)] = try #require(event["card"])
        case "remove":
          let gone = try #require(event["cards"]?.elements)
          board.removeAll { gone.contains($0["id"] ?? .null) }
        case "deal": board += try #require(event["cards"]?.elements)
        default: break
        }
      }
    }
    #expect(chain == .array(table.game.chain.map(\.wireObject)))
    #expect(board == table.game.board.map(\.wireObject))
    #expect(replay.lookBack?.boardSeen == true)
  }
}
