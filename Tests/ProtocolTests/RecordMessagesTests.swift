import Testing

@testable import Model
@testable import Protocol

/// `scores`, `record` and `hello`'s `player` on the wire: what is accepted, with which
/// defaults, and what is refused with which code.
@Suite struct RecordMessagesTests {
  func decode(_ text: String) -> Result<ClientEnvelope, ProtocolError> {
    ClientMessageDecoder.decode(Array(text.utf8))
  }

  @Test func scoresTakesDefaultsPerSort() throws {
    let plain = try decode(#"{"type":"scores","id":1,"game":"set"}"#).get().message
    #expect(plain == .scores(ScoresQuery(game: "set", sort: .date, descending: true)))
    let shortest = try decode(#"{"type":"scores","game":"set","sort":"duration"}"#).get().message
    #expect(shortest == .scores(ScoresQuery(game: "set", sort: .duration, descending: false)))
    let all = try decode(
      #"{"type":"scores","game":"matchismo","sort":"score","order":"asc","page":3,"pageSize":7,"mine":true}"#
    ).get().message
    #expect(
      all
        == .scores(
          ScoresQuery(
            game: "matchismo", sort: .score, descending: false, page: 3, pageSize: 7,
            mine: true)))
    let list = try decode(#"{"type":"scores","game":"matchismo","list":"solo.course.24x2"}"#)
      .get().message
    #expect(
      list
        == .scores(
          ScoresQuery(
            game: "matchismo",
            list: ScoreList(solo: true, scoring: "course", cards: 24, matchSize: 2))))
  }

  @Test(arguments: [
    #"{"type":"scores","id":1}"#,
    #"{"type":"scores","id":1,"game":"set","sort":"fastest"}"#,
    #"{"type":"scores","id":1,"game":"set","order":"up"}"#,
    #"{"type":"scores","id":1,"game":"set","page":-1}"#,
    #"{"type":"scores","id":1,"game":"set","pageSize":0}"#,
    #"{"type":"scores","id":1,"game":"set","pageSize":51}"#,
    #"{"type":"scores","id":1,"game":"set","mine":"yes"}"#,
    #"{"type":"scores","id":1,"game":"set","list":"duo.course"}"#,
    #"{"type":"scores","id":1,"game":"set","list":"solo.course.24x"}"#,
    #"{"type":"scores","id":1,"game":"set","list":3}"#,
    #"{"type":"scores","id":1,"game":"set","list":"solo.classic.1234567890123456789012"}"#,
    #"{"type":"record","id":1}"#,
    #"{"type":"record","id":1,"record":7}"#,
    #"{"type":"record","id":1,"record":"g1234567890123456789012345678901234"}"#,
    #"{"type":"hello","id":1,"player":"short"}"#,
    #"{"type":"hello","id":1,"player":"has spaces in it, sixteen+"}"#,
    #"{"type":"hello","id":1,"player":12345678901234567}"#,
  ])
  func badFieldsAreRefusedWithTheirID(_ text: String) {
    guard case .failure(let error) = decode(text) else {
      Issue.record("accepted \(text)")
      return
    }
    #expect(error.code == .badField)
    #expect(error.replyTo == .int(1))
  }

  @Test func aPlayerTokenAndARecordIDAreRead() throws {
    let hello = try decode(#"{"type":"hello","name":"Ada","player":"x0Vd4bq9yRJ1pQo2mZ8c1A"}"#)
      .get().message
    #expect(
      hello == .hello(name: "Ada", resume: nil, version: nil, player: "x0Vd4bq9yRJ1pQo2mZ8c1A"))
    #expect(try decode(#"{"type":"record","record":"g12"}"#).get().message == .record(id: "g12"))
  }

  @Test func theNewMessagesRoundTrip() throws {
    for message: ClientMessage in [
      .scores(
        ScoresQuery(game: "set", sort: .score, descending: false, page: 2, pageSize: 9, mine: true)),
      .scores(ScoresQuery(game: "set", list: ScoreList(id: "multiplayer.custom.16x2"))),
      .record(id: "g3"), .hello(name: "Bo", resume: nil, version: nil, player: "abcdefghijklmnop"),
    ] {
      let envelope = ClientEnvelope(id: .int(4), message: message)
      #expect(try decode(String(decoding: envelope.json.encoded, as: UTF8.self)).get() == envelope)
    }
  }

  @Test func aScoresAnswerSaysWhichGamesAreMineAndNeverAPlayerHash() {
    let mine = FinishedPlayer(
      seat: 0, name: "Ada", score: 9, matches: 3, mistakes: 1, rank: 1, player: "hash-a")
    let other = FinishedPlayer(
      seat: 1, name: "Bob", score: 4, matches: 2, mistakes: 0, rank: 2, player: "hash-b")
    let game = FinishedGame(
      id: "g2", game: "set", settings: .set(seats: 2), seed: 1, players: [mine, other], moves: [],
      seconds: 61.26, endedAt: 1_795_500_000)
    let query = ScoresQuery(game: "set", player: "hash-a")
    let answer = ServerMessage.scores(
      ScoresPage(total: 1, games: [game], best: game, shortest: game), query: query,
      replyTo: .int(5))
    let text = String(decoding: answer.encoded, as: UTF8.self)
    #expect(!text.contains("hash-"))
    #expect(answer["games"]?.elements?.first?["mine"] == .bool(true))
    #expect(answer["games"]?.elements?.first?["seconds"] == .double(61.3))
    #expect(answer["games"]?.elements?.first?["endedAt"] == .string("2026-11-24T06:00:00Z"))
    #expect(answer["best"]?["id"] == .string("g2"))
    let players = answer["games"]?.elements?.first?["players"]?.elements ?? []
    #expect(players.map { $0["you"] } == [.bool(true), nil])
  }

  @Test func aScoresAnswerNamesItsListAndCountsEveryListInOrder() {
    let game = FinishedGame(
      id: "g2", game: "matchismo", settings: .matchismo(), seed: 1,
      players: [FinishedPlayer(seat: 0, name: "Ada", score: 9, matches: 3, mistakes: 1, rank: 1)],
      moves: [], seconds: 61, endedAt: 1_795_500_000)
    let list = ScoreList(of: game)
    let lists: [ScoreList: Int] = [
      ScoreList(solo: false, scoring: "course", cards: 24, matchSize: 2): 4,
      ScoreList(solo: true, scoring: "course", cards: 30, matchSize: 2): 2, list: 1,
    ]
    let answer = ServerMessage.scores(
      ScoresPage(list: list, lists: lists, total: 1, games: [game]),
      query: ScoresQuery(game: "matchismo"), replyTo: nil)
    #expect(answer["list"] == .string("solo.course.24x2"))
    // Solo first, then the smaller board.
    #expect(
      String(decoding: answer["lists"]!.encoded, as: UTF8.self)
        == #"[{"id":"solo.course.24x2","kind":"solo","scoring":"course","cards":24,"matchSize":2,"total":1},"#
        + #"{"id":"solo.course.30x2","kind":"solo","scoring":"course","cards":30,"matchSize":2,"total":2},"#
        + #"{"id":"multiplayer.course.24x2","kind":"multiplayer","scoring":"course","cards":24,"matchSize":2,"total":4}]"#
    )
    let none = ServerMessage.scores(
      ScoresPage(total: 0, games: []), query: ScoresQuery(game: "set"), replyTo: nil)
    #expect(none["list"] == .null && none["lists"] == .array([]))
  }
}
