import Model
import Protocol
import Testing

@testable import Lobby

/// The daily puzzle (issue 21): the day's deal of a game is the same for everyone, in any
/// process, and another the next day; one attempt each; its one deal is never dealt again; the
/// game it ends is kept under the player's daily source; the board is asked of the store.
@Suite struct DailyPuzzleTests {
  /// A lobby that journals, whose day is `today`, with sessions made in order.
  static func lobby(
    today: String, seed: UInt64 = 5, attemptsKept: Int = 100, ratingsKept: Int = 100
  ) throws -> LobbyState {
    var configuration = LobbyConfiguration()
    configuration.dailyAttemptsKept = attemptsKept
    configuration.ratingsKept = ratingsKept
    configuration.journal = true
    configuration.lobbyFlushInterval = 0
    let tokens = SessionDeskTests.Counter()
    let draws = SessionDeskTests.Counter()
    var state = LobbyState(
      configuration: configuration,
      entropy: LobbyEntropy(
        seed: { seed }, token: { "s\(tokens.next())" }, below: { draws.next() % $0 },
        hash: { "h(\($0))" }, today: { today }))
    try state.restore(JournalContents(lastTableNumber: 0), now: 0)
    return state
  }

  /// `text` from `connection`; the messages it got.
  static func send(_ text: String, _ connection: ConnectionID, to lobby: inout LobbyState)
    throws -> [JSONValue]
  {
    try ClusterLobbyTests.messages(
      lobby.receive(ClientMessageDecoder.decode(Array(text.utf8)), from: connection, now: 1),
      to: connection)
  }

  /// The board of the daily snapshot `connection` got after hello as `name` (with `player`).
  static func daily(
    _ lobby: inout LobbyState, _ connection: ConnectionID, _ name: String,
    player: String? = nil, game: String = "set"
  ) throws -> JSONValue {
    let token = player.map { #","player":"\#($0)""# } ?? ""
    _ = try send(#"{"type":"hello","id":1,"name":"\#(name)"\#(token)}"#, connection, to: &lobby)
    return try #require(
      try send(#"{"type":"playDaily","id":2,"game":"\#(game)"}"#, connection, to: &lobby).first)
  }

  static let ada = ConnectionID(1)
  static let bob = ConnectionID(2)

  @Test func everyoneGetsTheDaysDealAndTheNextDayAnother() throws {
    var first = try Self.lobby(today: "2026-11-27", seed: 5)
    let ada = try Self.daily(&first, Self.ada, "Ada")
    let bob = try Self.daily(&first, Self.bob, "Bob")
    #expect(ada["type"] == "snapshot" && ada["table"]?["board"] == bob["table"]?["board"])
    #expect(ada["table"]?["id"] != bob["table"]?["id"])
    // Another process, whose own seeds differ, deals the same cards that day…
    var second = try Self.lobby(today: "2026-11-27", seed: 99)
    #expect(try Self.daily(&second, Self.ada, "Cy")["table"]?["board"] == ada["table"]?["board"])
    // …and other cards the next day, and for another game.
    var next = try Self.lobby(today: "2026-11-28")
    #expect(try Self.daily(&next, Self.ada, "Ada")["table"]?["board"] != ada["table"]?["board"])
    var other = try Self.lobby(today: "2026-11-27")
    let ultra = try Self.daily(&other, Self.ada, "Ada", game: "ultraSet")
    #expect(ultra["type"] == "snapshot" && ultra["table"]?["board"] != ada["table"]?["board"])
    // Set-Chain's puzzle: the same for everyone that day, its chain empty at the start.
    let chain = try Self.daily(&other, Self.bob, "Bob", game: "setChain")
    var again = try Self.lobby(today: "2026-11-27", seed: 99)
    let chainAgain = try Self.daily(&again, Self.ada, "Cy", game: "setChain")
    #expect(chain["table"]?["game"] == "setChain" && chain["table"]?["chain"] == .array([]))
    #expect(chain["table"]?["board"] == chainAgain["table"]?["board"])
    #expect(chain["table"]?["board"] != ada["table"]?["board"])
  }

  @Test func oneAttemptEachAndItsDealIsNeverDealtAgain() throws {
    var lobby = try Self.lobby(today: "2026-11-27")
    let first = try Self.daily(&lobby, Self.ada, "Ada", player: "playerToken000000A1")
    #expect(first["type"] == "snapshot")
    let redeal = try Self.send(#"{"type":"redeal","id":3}"#, Self.ada, to: &lobby)
    #expect(redeal.first?["code"] == "alreadyPlayed")
    let again = try Self.send(#"{"type":"playDaily","id":4,"game":"set"}"#, Self.ada, to: &lobby)
    #expect(again.first?["code"] == "alreadyPlayed" && again.first?["replyTo"] == .int(4))
    // The same person in another session: the same answer.
    let elsewhere = try Self.daily(&lobby, Self.bob, "Ada", player: "playerToken000000A1")
    #expect(elsewhere["code"] == "alreadyPlayed")
    // Another game's puzzle is another attempt.
    let junior = try Self.send(
      #"{"type":"playDaily","id":5,"game":"setJunior"}"#, Self.ada, to: &lobby)
    #expect(junior.first?["type"] == "snapshot")
  }

  /// The attempts a node remembers are bounded: past the bound it forgets them (the store still
  /// keeps each player's first result only).
  @Test func theAttemptsRememberedAreBounded() throws {
    var lobby = try Self.lobby(today: "2026-11-27", attemptsKept: 2)
    for i in 0..<5 {
      let connection = ConnectionID(UInt64(10 + i))
      #expect(try Self.daily(&lobby, connection, "P\(i)")["type"] == "snapshot")
      #expect(lobby.dailyStarted.count <= 2)
    }
  }

  @Test func theGameAnAttemptEndsIsKeptUnderThePlayersDailySource() throws {
    var rules = TableRules()
    rules.journals = true
    var table = TableState<SetCard>(
      id: "t1", settings: .set(seats: 1), seed: DailyDeal.seed(game: "set", day: "2026-11-27"),
      names: ["Ada"], tokens: ["h(s1)"], players: ["hash-ada"], rules: rules)
    table.daily = "2026-11-27"
    var finished: FinishedGame?
    for _ in 0..<40 where table.phase != .finished {
      let set = try #require(SetCard.allSets(in: table.game.playableCards).first)
      for card in set { _ = table.apply(.choose(seat: 0, card: card.id), replyTo: nil) }
      for case .finished(let game) in table.takeJournal(creator: "h(s1)") { finished = game }
    }
    #expect(table.phase == .finished)
    let game = try #require(finished)
    #expect(game.source == "daily:2026-11-27:set:hash-ada")
    // The record keeps the day through a restart.
    let record = table.journalRecord(creator: "h(s1)")
    #expect(record.daily == "2026-11-27")
    #expect(
      TableState<SetCard>(restoring: record, moves: [], rules: rules, now: 9).daily == "2026-11-27")
  }

  @Test func theBoardIsAskedOfTheStoreForTodayOrYesterday() throws {
    var lobby = try Self.lobby(today: "2026-03-01")
    _ = try Self.send(
      #"{"type":"hello","id":1,"name":"Ada","player":"playerToken000000A1"}"#, Self.ada, to: &lobby)
    for (text, day) in [
      (#"{"type":"daily","id":2,"game":"set"}"#, "2026-03-01"),
      (#"{"type":"daily","id":3,"game":"set","day":"yesterday"}"#, "2026-02-28"),
    ] {
      let actions = lobby.receive(
        ClientMessageDecoder.decode(Array(text.utf8)), from: Self.ada, now: 1)
      let asked = actions.compactMap { if case .query(let request) = $0 { request } else { nil } }
      #expect(
        asked.map(\.kind) == [
          .daily(game: "set", day: day, who: "h(playerToken000000A1)", started: false)
        ])
    }
    let bad = try Self.send(
      #"{"type":"daily","id":4,"game":"set","day":"someday"}"#, Self.ada, to: &lobby)
    #expect(bad.first?["code"] == "badField")
  }

  @Test func theBoardSaysWhetherTodaysAttemptIsUsed() throws {
    var lobby = try Self.lobby(today: "2026-03-01")
    _ = try Self.send(
      #"{"type":"hello","id":1,"name":"Ada","player":"playerToken000000A1"}"#, Self.ada, to: &lobby)
    func asked(_ text: String) -> [RecordRequest.Kind] {
      lobby.receive(ClientMessageDecoder.decode(Array(text.utf8)), from: Self.ada, now: 1)
        .compactMap { if case .query(let request) = $0 { request.kind } else { nil } }
    }
    let today = #"{"type":"daily","id":2,"game":"set"}"#
    let who = "h(playerToken000000A1)"
    #expect(asked(today) == [.daily(game: "set", day: "2026-03-01", who: who, started: false)])
    _ = try Self.send(#"{"type":"playDaily","id":3,"game":"set"}"#, Self.ada, to: &lobby)
    #expect(asked(today) == [.daily(game: "set", day: "2026-03-01", who: who, started: true)])
    // Yesterday's and another game's attempts are not today's Set.
    #expect(
      asked(#"{"type":"daily","id":4,"game":"set","day":"yesterday"}"#) == [
        .daily(game: "set", day: "2026-02-28", who: who, started: false)
      ])
    #expect(
      asked(#"{"type":"daily","id":5,"game":"ultraSet"}"#) == [
        .daily(game: "ultraSet", day: "2026-03-01", who: who, started: false)
      ])
    // The answer says it: a result kept, or an attempt started.
    let board = DailyBoard(game: "set", day: "2026-03-01", games: [])
    #expect(ServerMessage.daily(board, who: who, replyTo: nil)["played"] == false)
    #expect(ServerMessage.daily(board, who: who, started: true, replyTo: nil)["played"] == true)
  }

  @Test func theDailyPuzzleIsPlayedWithoutHints() throws {
    var lobby = try Self.lobby(today: "2026-11-27")
    _ = try Self.daily(&lobby, Self.ada, "Ada")
    for type in ["hint", "countMatches"] {
      let refused = try Self.send(#"{"type":"\#(type)","id":3}"#, Self.ada, to: &lobby)
      #expect(refused.first?["code"] == "dailyNoHints", "\(refused)")
    }
  }
}
