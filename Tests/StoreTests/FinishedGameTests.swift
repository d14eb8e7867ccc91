import Foundation
import Protocol
import TestSupport
import Testing

@testable import Lobby
@testable import Model
@testable import Store

/// Finished games: kept with the move that ended them, listed by every store in the order
/// ``ScoresPage/select(_:from:)`` defines, replayed into the scores they ended with, exported
/// as JSON that replays without the server.
@Suite struct FinishedGameTests {
  typealias Kind = JournalStoreTests.Kind

  /// A finished Set game for one seat, `seconds` long, scoring `score`, ended at `endedAt`.
  static func game(
    score: Int, seconds: Double, endedAt: Double, player: String? = nil, name: String = "Ada",
    game: String = "set", source: String? = nil
  ) -> FinishedGame {
    FinishedGame(
      game: game, settings: .set(seats: 1), seed: 7,
      players: [
        FinishedPlayer(
          seat: 0, name: name, score: score, matches: 1, mistakes: 0, rank: 1, player: player)
      ],
      moves: [FinishedMove(.choose(seat: 0, card: 3), at: 0.5)], seconds: seconds,
      endedAt: endedAt, source: source ?? "t-\(name)-\(endedAt)#1")
  }

  /// Twelve games with ties in every key, from two players and nobody, and one of another game.
  static var games: [FinishedGame] {
    let scores = [5, 9, 2, 9, 0, -3]
    let seconds: [Double] = [100, 40, 250, 40]
    let players: [String?] = [nil, "pa", "pb"]
    var games: [FinishedGame] = (0..<12).map { (i: Int) -> FinishedGame in
      game(
        score: scores[i % 6], seconds: seconds[i % 4],
        endedAt: 1_800_000_000 + Double(i / 2) * 60, player: players[i % 3], name: "P\(i)")
    }
    games.append(game(score: 99, seconds: 1, endedAt: 1_800_000_000, game: "matchismo"))
    return games
  }

  static var queries: [ScoresQuery] {
    var queries: [ScoresQuery] = []
    for sort in ScoresSort.allCases {
      for descending in [true, false] {
        for (mine, player) in [(false, nil), (false, "pa"), (true, "pa"), (true, nil)]
          as [(Bool, String?)]
        {
          for (page, size) in [(0, 20), (0, 5), (1, 5), (2, 5), (7, 5)] {
            queries.append(
              ScoresQuery(
                game: "set", sort: sort, descending: descending, page: page, pageSize: size,
                mine: mine, player: player))
          }
        }
      }
    }
    return queries
  }

  @Test(arguments: Kind.allCases)
  func everyStoreListsFinishedGamesAsTheDefinitionSays(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    // One batch each, as the writer would write them; ids follow the order written.
    for game in Self.games { try store.write([.finished(game)]) }
    var kept = Self.games
    for index in kept.indices { kept[index].id = "g\(index + 1)" }
    for query in Self.queries {
      let page = try store.scores(query)
      let expected = ScoresPage.select(query, from: kept)
      #expect(page.total == expected.total, "\(query)")
      #expect(page.games.map(\.id) == expected.games.map(\.id), "\(query)")
      #expect(page.best?.id == expected.best?.id, "\(query)")
      #expect(page.shortest?.id == expected.shortest?.id, "\(query)")
    }
    #expect(try store.finishedGame(id: "g2") == kept[1])
    #expect(try store.finishedGame(id: "g99") == nil)
    #expect(try store.finishedGame(id: "nonsense") == nil)
    // A batch written again (the writer's retry after an uncertain failure) keeps one copy.
    try store.write([.finished(Self.games[0])])
    #expect(try store.scores(ScoresQuery(game: "set")).total == 12)
  }

  @Test func theDefinitionOrdersPagesAndFindsTheBestAndTheShortest() {
    var kept = Self.games
    for index in kept.indices { kept[index].id = "g\(index + 1)" }
    let all = ScoresPage.select(ScoresQuery(game: "set", pageSize: 50), from: kept)
    #expect(all.total == 12)
    // Newest first; a tie (two games per minute) puts the later-written one first.
    #expect(all.games.map(\.id).prefix(4) == ["g12", "g11", "g10", "g9"])
    // The best score (9) first reached by g2; the shortest (40 s) first by g2 too.
    #expect(all.best?.id == "g2")
    #expect(all.shortest?.id == "g2")
    let byScore = ScoresPage.select(
      ScoresQuery(game: "set", sort: .score, pageSize: 50), from: kept)
    #expect(byScore.games.map(\.score) == byScore.games.map(\.score).sorted(by: >))
    let shortestFirst = ScoresPage.select(
      ScoresQuery(game: "set", sort: .duration, pageSize: 50), from: kept)
    #expect(shortestFirst.games.map(\.seconds) == shortestFirst.games.map(\.seconds).sorted())
    // Pages do not overlap and cover everything.
    let pages = (0..<3).flatMap {
      ScoresPage.select(ScoresQuery(game: "set", sort: .score, page: $0, pageSize: 5), from: kept)
        .games.map(\.id)
    }
    #expect(pages == byScore.games.map(\.id))
    let mine = ScoresPage.select(ScoresQuery(game: "set", mine: true, player: "pb"), from: kept)
    #expect(mine.total == 4)
    #expect(mine.games.allSatisfy { $0.players.first?.player == "pb" })
  }

  @Test func aFirstVersionJournalIsMigratedAndKeepsItsTables() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("journal-v1-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // The schema as version 1 made it, with a table and a session in it.
    // (GRDB made it: its table of migrations named the one it had.)
    let queue = try SQLiteConnection(path: folder + "/journal.sqlite")
    try queue.execute(
      """
      CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
      INSERT INTO grdb_migrations VALUES ('v1: tables, moves, sessions');
      CREATE TABLE game_table (id TEXT PRIMARY KEY NOT NULL, number INTEGER NOT NULL,
        open INTEGER NOT NULL, deal INTEGER NOT NULL, record TEXT NOT NULL);
      CREATE TABLE move (table_id TEXT NOT NULL, deal INTEGER NOT NULL, idx INTEGER NOT NULL,
        kind INTEGER NOT NULL, seat INTEGER NOT NULL, card INTEGER NOT NULL, at REAL NOT NULL,
        version INTEGER NOT NULL, PRIMARY KEY (table_id, deal, idx)) WITHOUT ROWID;
      CREATE TABLE session (token TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL,
        table_id TEXT, seat INTEGER) WITHOUT ROWID;
      INSERT INTO session VALUES ('hash-ada', 'Ada', NULL, NULL);
      """)
    queue.close()
    let store = try SQLiteJournalStore(directory: folder)
    let contents = try store.load()
    #expect(contents.sessions.map(\.name) == ["Ada"])
    #expect(contents.sessions.first?.player == nil)
    try store.write([.finished(Self.game(score: 3, seconds: 10, endedAt: 1))])
    #expect(try store.scores(ScoresQuery(game: "set")).total == 1)
  }

  // MARK: - Through the lobby

  /// A solo Set game played by `lobby` to its end, its player known by `player`.
  /// First, the player chooses the board's first card `toggles` times (on, off, on, …).
  static func playSolo(
    _ lobby: JournalTests.Journaled, _ connection: ConnectionID, name: String, player: String?,
    toggles: Int = 0
  ) throws -> JSONValue {
    let playerField = player.map { #","player":"\#($0)""# } ?? ""
    _ = try lobby.send(
      #"{"type":"hello","id":1,"name":"\#(name)"\#(playerField)}"#, from: connection)
    var table = try #require(
      try lobby.send(#"{"type":"playSolo","id":2,"game":"set"}"#, from: connection).first?[
        "table"])
    var id = 3
    let first = try #require(table["board"]?.elements?.first?["id"]?.intValue)
    for _ in 0..<toggles {
      _ = try lobby.send(#"{"type":"choose","id":\#(id),"card":\#(first)}"#, from: connection)
      id += 1
    }
    if toggles % 2 == 1 {
      _ = try lobby.send(#"{"type":"choose","id":\#(id),"card":\#(first)}"#, from: connection)
      id += 1
    }
    while table["over"] != .bool(true) {
      let board = try #require(table["board"]?.elements).compactMap { $0["id"]?.intValue }
      let cards = board.map { SetCard.fullDeck[$0] }
      let found = try #require(SetCard.allSets(in: cards).first, "a set on a live board")
      for card in found {
        lobby.now += 1.5
        _ = try lobby.send(#"{"type":"choose","id":\#(id),"card":\#(card.id)}"#, from: connection)
        id += 1
      }
      table = try #require(
        try lobby.send(#"{"type":"resync","id":\#(id)}"#, from: connection).first?["table"])
      id += 1
    }
    return table
  }

  @Test func aGamePlayedToItsEndIsKeptListedAndReplayedIntoItsScores() throws {
    let lobby = JournalTests.Journaled()
    let ada = ConnectionID(1)
    let end = try Self.playSolo(lobby, ada, name: "Ada", player: "ada-player-token-0001")
    let finished = lobby.written.compactMap { entry -> FinishedGame? in
      if case .finished(let game) = entry { game } else { nil }
    }
    #expect(finished.count == 1)
    let game = try #require(finished.first)
    let score = try #require(end["players"]?.elements?.first?["score"]?.intValue)
    #expect(game.players.map(\.score) == [score])
    #expect(game.players.first?.player == TokenDigest.hex("ada-player-token-0001"), "hashed")
    #expect(!"\(lobby.written)".contains("ada-player-token-0001"))
    #expect(game.moves.count == game.moves.filter { $0.move.isPlay }.count)
    #expect(game.seconds == game.moves.last?.at)
    // The engine replays the kept moves into the same scores.
    let (replayed, _) = try CardMatchingGame<SetCard>.replay(game.gameRecord)
    #expect(replayed.isOver)
    #expect(replayed.players.map(\.score) == [score])

    // Listed, "mine" for its player only, and replayed for a client.
    let scores = try lobby.send(
      #"{"type":"scores","id":40,"game":"set","mine":true}"#, from: ada)
    #expect(scores.last?["total"] == .int(1))
    #expect(scores.last?["games"]?.elements?.first?["mine"] == .bool(true))
    let bob = ConnectionID(2)
    _ = try lobby.send(#"{"type":"hello","id":1,"name":"Bob"}"#, from: bob)
    let theirs = try lobby.send(#"{"type":"scores","id":2,"game":"set","mine":true}"#, from: bob)
    #expect(theirs.last?["total"] == .int(0))
    let record = try #require(
      try lobby.send(#"{"type":"record","id":3,"record":"g1"}"#, from: bob).last)
    #expect(record["type"] == "record")
    let diffs = try #require(record["replay"]?["diffs"]?.elements)
    #expect(diffs.count == game.moves.count)
    // Scores followed through the replay's diffs end where the game did.
    var last = 0
    for diff in diffs {
      for event in diff["events"]?.elements ?? [] where event["kind"] == "score" {
        last = event["score"]?.intValue ?? last
      }
    }
    #expect(last == score)
  }

  @Test func aGameLongerThanTheMoveLogIsKeptWholeAndReplays() throws {
    let lobby = JournalTests.Journaled(seed: 9)
    let ada = ConnectionID(1)
    let end = try Self.playSolo(lobby, ada, name: "Ada", player: nil, toggles: 2_100)
    let score = try #require(end["players"]?.elements?.first?["score"]?.intValue)
    // The table kept no more than its log's cap in memory, and left the moves to the journal.
    #expect(
      lobby.written.contains { if case .finishedInJournal = $0 { true } else { false } })
    let game = try #require(try lobby.store.finishedGame(id: "g1"), "the long game was kept")
    #expect(game.moves.count > MoveLog.defaultCap + 60)
    #expect(game.moves.prefix(2_100).allSatisfy { $0.move == game.moves[0].move })
    #expect(game.seconds == game.moves.last?.at)
    let (replayed, _) = try CardMatchingGame<SetCard>.replay(game.gameRecord)
    #expect(replayed.isOver)
    #expect(replayed.players.map(\.score) == [score])
    // A client is shown its replay, every move of it.
    let record = try #require(
      try lobby.send(#"{"type":"record","id":3,"record":"g1"}"#, from: ada).last)
    #expect(record["type"] == "record")
    #expect(record["replay"]?["diffs"]?.elements?.count == game.moves.count)
  }

  @Test func aGameTooLongToReplayIsAnsweredUnavailable() throws {
    let store = MemoryJournalStore()
    var game = Self.game(score: 0, seconds: 1, endedAt: 1)
    let card = SetCard.fullDeck[0].id
    game.moves = (0...FinishedGameReplay.mostMoves).map {
      FinishedMove(.choose(seat: 0, card: card), at: Double($0))
    }
    try store.write([.finished(game)])
    let answer = store.answer(
      RecordRequest(connection: ConnectionID(1), replyTo: .int(4), kind: .record(id: "g1")))
    let message = try #require(JSONValue.parse(answer.payload))
    #expect(message["type"] == "error")
    #expect(message["code"] == "unavailable")
  }

  @Test func anExportedRecordReplaysWithoutTheServer() throws {
    let lobby = JournalTests.Journaled(seed: 5)
    let ada = ConnectionID(1)
    _ = try Self.playSolo(lobby, ada, name: "Ada", player: nil)
    let answer = try #require(
      try lobby.send(#"{"type":"record","id":9,"record":"g1"}"#, from: ada).last)
    // The export is the `record` object as JSON text; read it back as any program would.
    let export = try #require(answer["record"]).encoded
    let object = try #require(JSONSerialization.jsonObject(with: Data(export)) as? [String: Any])
    let rulesObject = try #require(object["rules"])
    let rules = try JSONSerialization.data(withJSONObject: rulesObject)
    let settings = try JSONDecoder().decode(GameSettings.self, from: rules)
    let seedText = try #require(object["seed"] as? String)
    let seed = try #require(UInt64(seedText))
    let moves = try #require(object["moves"] as? [[String: Any]]).map { move -> Move in
      let seat = move["seat"] as? Int ?? -1
      if let card = move["card"] as? Int { return .choose(seat: seat, card: card) }
      return move["pass"] != nil ? .pass(seat: seat) : .redeal(seat: seat)
    }
    let (game, _) = try CardMatchingGame<SetCard>.replay(
      GameRecord(settings: settings, seed: seed, moves: moves))
    let players = try #require(object["players"] as? [[String: Any]])
    #expect(game.isOver)
    #expect(game.players.map(\.score) == players.map { $0["score"] as? Int })
  }

  @Test func aGameThatEndedBeforeARestartIsNotKeptTwice() throws {
    let old = JournalTests.Journaled()
    _ = try Self.playSolo(old, ConnectionID(1), name: "Ada", player: nil)
    let restarted = JournalTests.Journaled(tokens: "later")
    try restarted.state.restore(try old.store.load(), now: 100)
    restarted.now = 100
    // Ada comes back to the finished table (token-1 is the first session the old lobby made),
    // and time passes until the table closes.
    let back = try restarted.send(
      #"{"type":"hello","id":1,"name":"Ada","resume":"token-1"}"#, from: ConnectionID(5))
    #expect(back.first?["resumed"] == .bool(true))
    try restarted.run(restarted.state.advance(to: 1_000))
    #expect(
      !restarted.written.contains { if case .finished = $0 { true } else { false } },
      "the restored finished table journaled its game again")
  }
}
