import Model
import Protocol
import TestSupport
import Testing

@testable import Lobby

/// Ratings in the lobby (issue 21): which games count, the store asked for people's ratings
/// when they say hello and once a rated game is written, what it says shown beside names (the
/// table's snapshot, `seatRatings`, the lobby's list), the `ratings` question, the bound on
/// what is remembered.
@Suite struct RatingLobbyTests {
  typealias Daily = DailyPuzzleTests

  static let ada = ConnectionID(1)
  static let bob = ConnectionID(2)

  /// The questions `actions` put to the store, in order.
  static func questions(_ actions: [LobbyAction]) -> [RecordRequest] {
    actions.compactMap { if case .query(let request) = $0 { request } else { nil } }
  }

  /// `text` from `connection`; every action.
  static func actions(_ text: String, _ connection: ConnectionID, _ lobby: inout LobbyState)
    -> [LobbyAction]
  {
    lobby.receive(ClientMessageDecoder.decode(Array(text.utf8)), from: connection, now: 1)
  }

  /// Ada and Bob (with player tokens) at one public table of two seats, playing.
  static func twoAtATable() throws -> (LobbyState, String) {
    var lobby = try Daily.lobby(today: "2026-11-27")
    for (connection, name) in [(ada, "Ada"), (bob, "Bob")] {
      _ = try Daily.send(
        #"{"type":"hello","id":1,"name":"\#(name)","player":"playerToken0000\#(name)"}"#,
        connection, to: &lobby)
      _ = try Daily.send(
        #"{"type":"quickMatch","id":2,"game":"set","seats":2,"scoring":"classic"}"#, connection,
        to: &lobby)
    }
    let id = try #require(lobby.tableIDs.first)
    _ = lobby.handle(.clock, now: 10)
    return (lobby, id)
  }

  @Test func helloAsksTheStoreForTheirRatingsOnlyWithAPlayerToken() throws {
    var lobby = try Daily.lobby(today: "2026-11-27")
    let asked = Self.questions(
      Self.actions(
        #"{"type":"hello","id":1,"name":"Ada","player":"playerToken0000Ada"}"#, Self.ada, &lobby))
    #expect(asked.map(\.kind) == [.ratings(players: ["h(playerToken0000Ada)"], table: nil)])
    #expect(asked.first?.isTheLobbys == true && asked.first?.connection == Self.ada)
    let none = Self.questions(
      Self.actions(#"{"type":"hello","id":1,"name":"Bob"}"#, Self.bob, &lobby))
    #expect(none.isEmpty)
  }

  @Test func whatTheStoreSaysIsShownBesideTheirNames() throws {
    var (lobby, id) = try Self.twoAtATable()
    // Nothing is shown before the store has answered.
    let before = try Daily.send(#"{"type":"resync","id":3}"#, Self.ada, to: &lobby)
    #expect(
      before.first?["table"]?["players"]?.elements?.allSatisfy { $0["rating"] == nil } == true)
    // The store: Ada has a rating at Set; Bob has none (never rated).
    let ada = PlayerRating(player: "h(playerToken0000Ada)", game: "set", rating: 1611.4, games: 12)
    let matchismo = PlayerRating(player: ada.player, game: "matchismo", rating: 1400, games: 3)
    let told = lobby.handle(
      .cluster(
        .ratings([ada, matchismo], players: [ada.player], connection: Self.ada, table: nil)),
      now: 11)
    let frames = try ClusterLobbyTests.messages(told, to: Self.bob)
    let seatRatings = try #require(frames.first { $0["type"] == "seatRatings" })
    #expect(seatRatings["table"] == .string(id))
    #expect(
      seatRatings["seats"]
        == JSONValue.parse(#"[{"seat":0,"rating":1611,"games":12,"provisional":false}]"#))
    _ = lobby.handle(
      .cluster(.ratings([], players: ["h(playerToken0000Bob)"], connection: Self.bob, table: nil)),
      now: 11)
    let resync = try Daily.send(#"{"type":"resync","id":4}"#, Self.bob, to: &lobby)
    let snapshot = try #require(resync.first)
    let players = try #require(snapshot["table"]?["players"]?.elements)
    #expect(players[0]["rating"]?["rating"] == .int(1611))
    #expect(
      players[1]["rating"] == JSONValue.parse(#"{"rating":1500,"games":0,"provisional":true}"#))
    // The lobby's list shows them too.
    let lobbyAnswer = try Daily.send(#"{"type":"lobby","id":5}"#, Self.ada, to: &lobby)
    let list = try #require(lobbyAnswer.first)
    let row = try #require(list["tables"]?.elements?.first { $0["id"] == .string(id) })
    #expect(
      row["players"]
        == JSONValue.parse(
          #"[{"name":"Ada","rating":1611,"provisional":false},{"name":"Bob","rating":1500,"provisional":true}]"#
        ))
  }

  @Test func aRatedGameThatEndsAsksForItsPlayersNewRatingsOnceItIsWritten() throws {
    var (lobby, id) = try Self.twoAtATable()
    var asked: [RecordRequest] = []
    var kept: FinishedGame?
    var turn = 0
    for _ in 0..<60 {
      let table = try #require(lobby.table(id) as? TableState<SetCard>)
      guard table.phase == .playing, let set = SetCard.allSets(in: table.game.playableCards).first
      else { break }
      let connection = turn % 2 == 0 ? Self.ada : Self.bob
      turn += 1
      for card in set {
        let actions = Self.actions(
          #"{"type":"choose","id":9,"card":\#(card.id)}"#, connection, &lobby)
        for case .journal(.finished(let game)) in actions { kept = game }
        let questions = Self.questions(actions)
        if !questions.isEmpty {
          // After the finished game's entry: the store answers once it is written.
          let entry = actions.firstIndex {
            if case .journal(.finished) = $0 { true } else { false }
          }
          let query = actions.firstIndex { if case .query = $0 { true } else { false } }
          #expect(entry != nil && query != nil && entry! < query!)
        }
        asked += questions
      }
    }
    let game = try #require(kept)
    #expect(game.rated == true)
    #expect(
      Set(game.ratedPlayers.map(\.player)) == ["h(playerToken0000Ada)", "h(playerToken0000Bob)"])
    #expect(
      asked.map(\.kind) == [
        .ratings(players: game.ratedPlayers.map(\.player), table: id)
      ])
  }

  @Test func soloPrivateAndDailyGamesDoNotCount() throws {
    var lobby = try Daily.lobby(today: "2026-11-27")
    _ = try Daily.send(
      #"{"type":"hello","id":1,"name":"Ada","player":"playerToken0000Ada"}"#, Self.ada, to: &lobby)
    _ = try Daily.send(#"{"type":"playSolo","id":2,"game":"set"}"#, Self.ada, to: &lobby)
    let soloID = try #require(lobby.tableIDs.first)
    let solo = try #require(lobby.table(soloID))
    #expect((solo as? TableState<SetCard>)?.rated == false)
    let open = TableState<SetCard>(
      id: "t9", code: "C", isPrivate: false, settings: .set(seats: 2), seed: 1,
      rules: TableRules(), now: 0)
    #expect(open.rated)
    let closed = TableState<SetCard>(
      id: "t9", code: "C", isPrivate: true, settings: .set(seats: 2), seed: 1,
      rules: TableRules(), now: 0)
    #expect(!closed.rated)
    var daily = open
    daily.daily = "2026-11-27"
    #expect(!daily.rated)
  }

  @Test func aPlayerWhoLeavesARatedGameIsRatedAllTheSame() throws {
    var rules = TableRules()
    rules.journals = true
    var table = TableState<SetCard>(
      id: "t1", code: "C", isPrivate: false, settings: .set(seats: 2, scoring: .classic),
      seed: 3, rules: rules, now: 0)
    _ = table.sit(token: "a", name: "Ada", player: "pa", replyTo: nil, now: 0)
    _ = table.sit(token: "b", name: "Bob", player: "pb", replyTo: nil, now: 0)
    _ = table.tick(now: 10)
    #expect(table.phase == .playing)
    _ = table.release(seat: 1, now: 11)
    var kept: FinishedGame?
    for _ in 0..<40 where table.phase != .finished {
      let set = try #require(SetCard.allSets(in: table.game.playableCards).first)
      for card in set { _ = table.apply(.choose(seat: 0, card: card.id), replyTo: nil) }
      for case .finished(let game) in table.takeJournal(creator: "a") { kept = game }
    }
    let game = try #require(kept)
    #expect(game.players.map(\.player) == ["pa", "pb"])
    #expect(game.ratedPlayers.map(\.rank) == [1, 2])
    #expect(table.takeRatedPlayers() == ["pa", "pb"])
    #expect(table.takeRatedPlayers() == nil, "taken once")
    // Who played survives a restart.
    let restored = TableState<SetCard>(
      restoring: table.journalRecord(creator: "a"), moves: [], rules: rules, now: 20)
    #expect(restored.playedBy == [0: "pa", 1: "pb"])
  }

  @Test func theRatingsQuestionGoesToTheStoreForThePlayer() throws {
    var lobby = try Daily.lobby(today: "2026-11-27")
    _ = try Daily.send(
      #"{"type":"hello","id":1,"name":"Ada","player":"playerToken0000Ada"}"#, Self.ada, to: &lobby)
    let asked = Self.questions(
      Self.actions(#"{"type":"ratings","id":2,"game":"set"}"#, Self.ada, &lobby))
    #expect(asked.map(\.kind) == [.ratingHistory(player: "h(playerToken0000Ada)", game: "set")])
    #expect(asked.first?.replyTo == .int(2) && asked.first?.isTheLobbys == false)
    // Without a player token: never rated, answered at once.
    _ = try Daily.send(#"{"type":"hello","id":1,"name":"Bob"}"#, Self.bob, to: &lobby)
    let answer = try Daily.send(#"{"type":"ratings","id":3,"game":"set"}"#, Self.bob, to: &lobby)
    #expect(
      answer.first
        == JSONValue.parse(
          #"{"type":"ratings","replyTo":3,"game":"set","rating":1500,"games":0,"provisional":true,"history":[]}"#
        ))
    let unknown = try Daily.send(#"{"type":"ratings","id":4,"game":"chess"}"#, Self.bob, to: &lobby)
    #expect(unknown.first?["code"] == "unknownGame")
    let missing = try Daily.send(#"{"type":"ratings","id":5}"#, Self.bob, to: &lobby)
    #expect(missing.first?["code"] == "badField")
  }

  @Test func thePeopleWhoseRatingsAreRememberedAreBounded() throws {
    var lobby = try Daily.lobby(today: "2026-11-27", ratingsKept: 2)
    for i in 0..<5 {
      let player = "p\(i)"
      _ = lobby.handle(
        .cluster(
          .ratings(
            [PlayerRating(player: player, game: "set", rating: 1500, games: 1)],
            players: [player], connection: ConnectionID(1), table: nil)), now: 1)
      #expect(lobby.ratingsKnown.count <= 2)
      #expect(lobby.ratingsKnown[player]?["set"]?.games == 1, "the newest is remembered")
    }
  }
}
