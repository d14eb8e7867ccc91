import Foundation
import Model
import Protocol
import Testing

@testable import Store

/// High-score lists (issue 21): a game's scores are ranked only with games whose scores can be
/// compared (one player or several, the same scoring, the same board where the board is the
/// whole game), every store answers one list as ``ScoresPage/select(_:from:)`` defines, and
/// games kept before lists existed are given theirs when the schema is brought up to date.
@Suite struct ScoreListTests {
  typealias Kind = JournalStoreTests.Kind

  /// A finished game of `game` under `settings`, played by `players` seats (the first scores
  /// `score`), ended at `endedAt`.
  static func game(
    _ settings: GameSettings, players: Int = 1, score: Int, seconds: Double = 60,
    endedAt: Double, game: String = "set", player: String? = nil
  ) -> FinishedGame {
    FinishedGame(
      game: game, settings: settings, seed: 7,
      players: (0..<players).map { seat in
        FinishedPlayer(
          seat: seat, name: "P\(seat)", score: seat == 0 ? score : 0, matches: 1, mistakes: 0,
          rank: seat + 1, player: seat == 0 ? player : nil)
      },
      moves: [FinishedMove(.choose(seat: 0, card: 3), at: 0.5)], seconds: seconds,
      endedAt: endedAt, source: "t\(Int(endedAt))#1")
  }

  /// Set games in three lists (course solo ~225 points, classic solo ~24, classic for two),
  /// written oldest first, the newest a classic solo game; and a Matchismo game.
  static var games: [FinishedGame] {
    let classic = GameSettings.set(seats: 1, scoring: .classic)
    let course = GameSettings.set(seats: 1, scoring: .course)
    let duel = GameSettings.set(seats: 2, scoring: .classic)
    return [
      game(course, score: 231, seconds: 300, endedAt: 1000, player: "pa"),
      game(classic, score: 24, seconds: 200, endedAt: 1100, player: "pa"),
      game(duel, players: 2, score: 15, seconds: 150, endedAt: 1200, player: "pb"),
      game(course, score: 198, seconds: 250, endedAt: 1300, player: "pb"),
      game(classic, score: 27, seconds: 260, endedAt: 1400, player: "pb"),
      game(.matchismo(), score: 40, endedAt: 1500, game: "matchismo"),
      game(classic, score: 22, seconds: 90, endedAt: 1600, player: "pa"),
    ]
  }

  static let soloClassic = ScoreList(solo: true, scoring: "classic")
  static let soloCourse = ScoreList(solo: true, scoring: "course")
  static let duelClassic = ScoreList(solo: false, scoring: "classic")

  @Test func aGamesListSaysWhoPlayedHowItScoredAndOnWhatBoard() {
    #expect(ScoreList(settings: .set(seats: 1, scoring: .classic), players: 1).id == "solo.classic")
    #expect(ScoreList(settings: .set(seats: 4), players: 3).id == "multiplayer.course")
    // A four-seat table played by one person is a solo game.
    #expect(ScoreList(settings: .set(seats: 4), players: 1).id == "solo.course")
    // Set's board size does not enter (the whole deck is played); Matchismo's and
    // Concentration's do, with the match size.
    var wide = GameSettings.set(seats: 1)
    wide.boardSize = 18
    #expect(ScoreList(settings: wide, players: 1).id == "solo.course")
    #expect(ScoreList(settings: .matchismo(), players: 1).id == "solo.course.24x2")
    #expect(
      ScoreList(settings: .matchismo(matchSize: 3, seats: 2, boardSize: 12), players: 2).id
        == "multiplayer.course.12x3")
    #expect(
      ScoreList(settings: .concentration(pairs: 8, seats: 2), players: 2).id
        == "multiplayer.custom.16x2")
  }

  /// Set Junior, UltraSet and Set-Chain are Set's kind of game (matched cards replaced): their lists have
  /// no board, and they are their own game's lists, never Set's.
  @Test func setsVariantsHaveListsOfTheirOwn() {
    #expect(ScoreList(settings: .setJunior(seats: 1), players: 1).id == "solo.course")
    #expect(
      ScoreList(settings: .ultraSet(seats: 2, scoring: .classic), players: 2).id
        == "multiplayer.classic")
    let kept =
      Self.games + [
        Self.game(.setJunior(), score: 70, endedAt: 1700, game: "setJunior"),
        Self.game(.ultraSet(), score: 150, endedAt: 1800, game: "ultraSet"),
        Self.game(.setChain(), score: 90, endedAt: 1900, game: "setChain"),
      ]
    let junior = ScoresPage.select(ScoresQuery(game: "setJunior"), from: kept)
    #expect(junior.list == Self.soloCourse)
    #expect(junior.lists == [Self.soloCourse: 1])
    #expect(junior.games.map(\.game) == ["setJunior"])
    // Set-Chain's settings are Set's: its games are in its own lists all the same.
    #expect(ScoreList(settings: .setChain(seats: 1), players: 1).id == "solo.course")
    let chain = ScoresPage.select(ScoresQuery(game: "setChain"), from: kept)
    #expect(chain.list == Self.soloCourse)
    #expect(chain.lists == [Self.soloCourse: 1])
    #expect(chain.games.map(\.game) == ["setChain"])
    let set = ScoresPage.select(ScoresQuery(game: "set", list: Self.soloCourse), from: kept)
    #expect(set.total == 2)
    #expect(set.games.allSatisfy { $0.game == "set" })
  }

  @Test(arguments: [
    "solo.classic", "multiplayer.course", "solo.course.24x2", "multiplayer.custom.16x2",
    "solo.custom.999x999", "computer.classic", "computer.course.24x2", "daily.course",
    "daily.custom.16x2",
  ])
  func anIDReadsBackAsTheSameList(_ id: String) {
    #expect(ScoreList(id: id)?.id == id)
  }

  @Test(arguments: [
    "", "solo", "duo.course", "solo.fancy", "solo.course.", "solo.course.24", "solo.course.24x",
    "solo.course.x2", "solo.course.024x2", "solo.course.0x2", "solo.course.1000x2",
    "solo.course.24x2.1", "solo.course.+4x2", "solo.course.２４x2", "SOLO.course",
  ])
  func anythingElseIsNoList(_ id: String) {
    #expect(ScoreList(id: id) == nil)
  }

  /// A game with computer players is never ranked with people's: its list is `computer.…`,
  /// after the solo and multiplayer ones.
  @Test func gamesAgainstTheComputerAreAListApart() {
    var against = Self.game(.set(seats: 2, scoring: .classic), players: 2, score: 12, endedAt: 1)
    #expect(ScoreList(of: against).id == "multiplayer.classic")
    against.players[1].bot = "expert"
    let list = ScoreList(of: against)
    #expect(list.id == "computer.classic" && list.kind == "computer" && !list.solo)
    #expect(Self.soloClassic < list && Self.duelClassic < list)
    let page = ScoresPage.select(ScoresQuery(game: "set"), from: [against] + Self.games)
    #expect(page.lists[list] == 1 && page.lists[Self.duelClassic] == 1)
  }

  @Test func theDefinitionRanksOneListAndCountsThemAll() {
    var kept = Self.games
    for index in kept.indices { kept[index].id = "g\(index + 1)" }
    // No list asked for: the latest game's (a classic solo game).
    let latest = ScoresPage.select(ScoresQuery(game: "set", sort: .score), from: kept)
    #expect(latest.list == Self.soloClassic)
    #expect(latest.games.map(\.id) == ["g5", "g2", "g7"])
    #expect(latest.best?.id == "g5")
    #expect(latest.shortest?.id == "g7")
    #expect(latest.lists == [Self.soloClassic: 3, Self.soloCourse: 2, Self.duelClassic: 1])
    // A course-scored solo game is ranked only with its own kind.
    let course = ScoresPage.select(
      ScoresQuery(game: "set", list: Self.soloCourse, sort: .score), from: kept)
    #expect(course.games.map(\.id) == ["g1", "g4"])
    #expect(course.total == 2 && course.best?.id == "g1")
    // "Only mine": the lists of the player's games, and the latest of those by default.
    let mine = ScoresPage.select(ScoresQuery(game: "set", mine: true, player: "pb"), from: kept)
    #expect(mine.lists == [Self.soloClassic: 1, Self.soloCourse: 1, Self.duelClassic: 1])
    #expect(mine.list == Self.soloClassic && mine.games.map(\.id) == ["g5"])
    // A list with no games: empty, and still the one shown.
    let empty = ScoresPage.select(
      ScoresQuery(game: "set", list: ScoreList(solo: false, scoring: "course")), from: kept)
    #expect(empty.total == 0 && empty.games.isEmpty && empty.best == nil)
    #expect(empty.list == ScoreList(solo: false, scoring: "course"))
    // No games at all: no list.
    #expect(ScoresPage.select(ScoresQuery(game: "concentration"), from: kept).list == nil)
  }

  @Test(arguments: Kind.allCases)
  func everyStoreAnswersEachListAsTheDefinitionSays(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    for game in Self.games { try store.write([.finished(game)]) }
    var kept = Self.games
    for index in kept.indices { kept[index].id = "g\(index + 1)" }
    let lists: [ScoreList?] = [
      nil, Self.soloClassic, Self.soloCourse, Self.duelClassic,
      ScoreList(solo: false, scoring: "course"),
    ]
    for list in lists {
      for sort in ScoresSort.allCases {
        for (mine, player) in [(false, nil), (true, "pa"), (true, "pb"), (true, nil)]
          as [(Bool, String?)]
        {
          for (page, size) in [(0, 20), (0, 2), (1, 2)] {
            let query = ScoresQuery(
              game: "set", list: list, sort: sort, page: page, pageSize: size, mine: mine,
              player: player)
            let answer = try store.scores(query)
            let expected = ScoresPage.select(query, from: kept)
            #expect(answer == expected, "\(query)")
          }
        }
      }
    }
    #expect(try store.scores(ScoresQuery(game: "matchismo")).list?.id == "solo.course.24x2")
  }

  @Test func aVersionThreeJournalGivesItsFinishedGamesTheirLists() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("journal-v3-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let queue = try SQLiteConnection(path: folder + "/journal.sqlite")
    try SQLiteJournalStore.migrate(queue, upTo: "v3: closed tables deleted, finished games by age")
    let encoder = JSONEncoder()
    try queue.transaction { db in
      for game in Self.games {
        try db.run(
          """
          INSERT INTO finished_game (source, game, ended_at, seconds, score, record)
          VALUES (?, ?, ?, ?, ?, ?)
          """,
          [
            .text(game.source), .text(game.game), .real(game.endedAt), .real(game.seconds),
            .integer(Int64(game.score)),
            .text(String(decoding: try encoder.encode(game), as: UTF8.self)),
          ])
      }
    }
    queue.close()
    let store = try SQLiteJournalStore(directory: folder)
    let answer = try store.scores(ScoresQuery(game: "set"))
    #expect(answer.lists == [Self.soloClassic: 3, Self.soloCourse: 2, Self.duelClassic: 1])
    #expect(
      try store.scores(ScoresQuery(game: "set", list: Self.soloCourse)).games.map(\.id)
        == ["g4", "g1"])
  }

  /// A database of version 5 (no lists), with games in it as that version kept them, is given
  /// the lists when a server of the latest version opens it.
  @Test func aVersionFiveDatabaseGivesItsFinishedGamesTheirLists() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let old = try PostgresJournalStore(
      location: location, owner: "test", logger: PostgresCluster.quiet, schema: 5)
    for game in Self.games { try Self.keep(game, in: old) }
    old.close()
    let reopened = try PostgresJournalStore(
      location: location, owner: "test", logger: PostgresCluster.quiet)
    let answer = try reopened.scores(ScoresQuery(game: "set"))
    #expect(answer.lists == [Self.soloClassic: 3, Self.soloCourse: 2, Self.duelClassic: 1])
    #expect(
      try reopened.scores(ScoresQuery(game: "set", list: Self.soloCourse)).games.map(\.id)
        == ["g4", "g1"])
    // And it writes lists as before.
    try reopened.write([
      .finished(Self.game(.set(seats: 3), players: 3, score: 9, endedAt: 2000))
    ])
    #expect(
      try reopened.scores(ScoresQuery(game: "set")).list
        == ScoreList(solo: false, scoring: "course"))
  }

  /// A daily puzzle's game (kept under its daily source).
  static func daily(score: Int, endedAt: Double) -> FinishedGame {
    var game = Self.game(.set(seats: 1, scoring: .course), score: score, endedAt: endedAt)
    game.source = FinishedGame.dailySource(day: "2026-11-27", game: "set", who: "hash-ada")
    return game
  }

  /// The daily puzzle's games (everyone's same deal, once) are never ranked with other solo
  /// games: their lists are `daily.…`, after the solo ones; every store keeps them apart, and
  /// a database of the version before gives its daily games theirs.
  @Test func theDailyPuzzlesGamesAreAListApart() {
    let list = ScoreList(of: Self.daily(score: 150, endedAt: 1))
    #expect(list.id == "daily.course" && list.kind == "daily" && list.daily && list.solo)
    #expect(Self.soloCourse < list && list < Self.duelClassic)
    #expect(ScoreList(id: "daily.course") == list)
    let page = ScoresPage.select(
      ScoresQuery(game: "set"), from: [Self.daily(score: 150, endedAt: 1)] + Self.games)
    #expect(page.lists[list] == 1 && page.lists[Self.soloCourse] == 2)
  }

  @Test(arguments: Kind.allCases)
  func everyStoreKeepsTheDailyPuzzlesListApart(_ kind: Kind) throws {
    let (store, _) = try JournalStoreTests.make(kind)
    for game in Self.games + [Self.daily(score: 150, endedAt: 2000)] {
      try store.write([.finished(game)])
    }
    let answer = try store.scores(ScoresQuery(game: "set"))
    #expect(answer.list?.id == "daily.course")
    #expect(answer.lists[Self.soloCourse] == 2 && answer.total == 1)
  }

  @Test func anSQLiteJournalOfVersionSevenMovesItsDailyGamesToTheirList() throws {
    let (store, folder) = try JournalStoreTests.make(.sqlite)
    try store.write([.finished(Self.daily(score: 150, endedAt: 2000))])
    let queue = try SQLiteConnection(path: folder + "/journal.sqlite")
    try queue.transaction { db in
      try db.execute("UPDATE finished_game SET list = 'solo.course'")
      try db.execute("DELETE FROM grdb_migrations WHERE identifier LIKE 'v8:%'")
    }
    queue.close()
    let reopened = try SQLiteJournalStore(directory: folder)
    #expect(try reopened.scores(ScoresQuery(game: "set")).list?.id == "daily.course")
  }

  @Test func aPostgreSQLDatabaseOfVersionTenMovesItsDailyGamesToTheirList() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let old = try PostgresJournalStore(
      location: location, owner: "test", logger: PostgresCluster.quiet, schema: 10)
    try Self.keep(Self.daily(score: 150, endedAt: 2000), list: "solo.course", in: old)
    old.close()
    let reopened = try PostgresJournalStore(
      location: location, owner: "test", logger: PostgresCluster.quiet)
    #expect(try reopened.scores(ScoresQuery(game: "set")).list?.id == "daily.course")
  }

  /// Keeps `game` in the database of `store` as a server of an older schema did: its row
  /// (with `list`, from version 6 on), written by hand, as the current write may not exist yet.
  static func keep(_ game: FinishedGame, list: String? = nil, in store: PostgresJournalStore)
    throws
  {
    // Dollar-quoted: a record is JSON, with quotes of its own.
    let record = String(decoding: try JSONEncoder().encode(game), as: UTF8.self)
    try store.execute(
      """
      INSERT INTO finished_game (source, game, ended_at, seconds, score, record\(list == nil ? "" : ", list"))
      VALUES ('\(game.source)', '\(game.game)', \(game.endedAt), \(game.seconds), \(game.score),
        $record$\(record)$record$\(list.map { ", '\($0)'" } ?? ""))
      """)
  }
}
