import Model
import Protocol
import Testing

/// The diff written straight into its frame (``ServerMessage/diffFrame``) must be the very
/// bytes the `JSONValue` builders encode (``ServerMessage/diff``, ``TableEvent/json``,
/// ``StyledRun/json``), which stay as the oracle.
@Suite struct DiffEncodingTests {
  /// Names and ids that need escaping, and some that do not.
  static let awkward = [
    "Ada", "Bob \"the\" Builder", #"back\slash"#, "tab\there", "new\nline", "é ♥ 😀", "\u{1}",
  ]

  static func pick<T>(_ items: [T], _ random: inout SeededGenerator) -> T {
    items[Int(random.next() % UInt64(items.count))]
  }

  static func replyTo(_ random: inout SeededGenerator) -> MessageID? {
    switch random.next() % 3 {
    case 0: nil
    case 1: .int(Int(random.next() % 100_000) - 50)
    default: .string(pick(awkward, &random))
    }
  }

  /// Plays `moves` random moves of a game of `Card` and checks every accepted move's diff.
  static func checkGame<Card: WireCard>(
    _: Card.Type, settings: GameSettings, seed: UInt64, moves: Int
  ) -> Int {
    var random = SeededGenerator(seed: seed)
    var game = CardMatchingGame<Card>(settings: settings, seed: seed)
    let names = (0..<settings.seats).map { _ in pick(awkward, &random) }
    var checked = 0
    for version in 1...moves {
      let seat = Int(random.next() % UInt64(settings.seats))
      let move: Move =
        random.next() % 40 == 0
        ? .redeal(seat: seat)
        : .choose(seat: seat, card: pick(game.board, &random).id)
      guard let events = try? game.apply(move) else { continue }
      let status = StatusLine.runs(for: events, names: names)
      let tableID = pick(["t1", "t\(version)", "odd \"id\""], &random)
      let replyTo = replyTo(&random)
      let diffSeat: Int? = random.next() % 5 == 0 ? nil : seat
      let withStatus = random.next() % 4 != 0
      let expected = ServerMessage.diff(
        tableID: tableID, version: version, seat: diffSeat, replyTo: replyTo,
        encodedEvents: events.map { ServerMessage.event($0, names: names) },
        status: withStatus ? status : nil
      ).encoded
      let frame = ServerMessage.diffFrame(
        tableID: tableID, version: version, seat: diffSeat, replyTo: replyTo,
        status: withStatus ? status : nil
      ) { list in
        for event in events { list.add(event, names: names) }
      }
      #expect(frame.payload == expected, "move \(version) of seed \(seed): \(events)")
      if frame.payload != expected { return checked }
      checked += 1
      if game.isOver { game = CardMatchingGame<Card>(settings: settings, seed: random.next()) }
    }
    return checked
  }

  @Test(arguments: 1...24)
  func setGamesEncodeAsTheOracle(seed: UInt64) {
    let seats = Int(seed % 4) + 1
    #expect(
      Self.checkGame(SetCard.self, settings: .set(seats: seats), seed: seed, moves: 400) > 100)
  }

  @Test(arguments: 1...12)
  func matchismoGamesEncodeAsTheOracle(seed: UInt64) {
    let settings = GameSettings.matchismo(matchSize: Int(seed % 2) + 2, seats: Int(seed % 3) + 1)
    #expect(Self.checkGame(PlayingCard.self, settings: settings, seed: seed, moves: 300) > 50)
  }

  @Test func everyTableEventEncodesAsTheOracle() {
    var random = SeededGenerator(seed: 7)
    for _ in 0..<500 {
      let n = Int(random.next() % 9) - 1
      let events: [TableEvent] = [
        .joined(seat: n, name: Self.pick(Self.awkward, &random)), .left(seat: n),
        .away(seat: n, seconds: Int(random.next() % 120)), .back(seat: n), .host(seat: n),
        .host(seat: nil), .spectators(count: n * 1000),
        .phase(Self.pick([.waiting, .countdown, .playing, .finished], &random), countdown: nil),
        .phase(.countdown, countdown: n), .vote(seats: [], needed: n),
        .vote(seats: Array(0..<max(0, n)), needed: n),
      ]
      for event in events {
        let frame = ServerMessage.diffFrame(
          tableID: "t1", version: 1, seat: nil, replyTo: nil, status: nil
        ) { $0.add(event) }
        let expected = ServerMessage.diff(
          tableID: "t1", version: 1, seat: nil, replyTo: nil, encodedEvents: [event.json]
        ).encoded
        #expect(frame.payload == expected)
      }
    }
  }

  @Test func statusRunsEncodeAsTheOracle() {
    let numbers: [Double?] = [nil, 0, -0.0, 1, 0.35, 2, 1e15, 1e16, -3.25, .infinity, .nan]
    var random = SeededGenerator(seed: 11)
    for _ in 0..<300 {
      let run = StyledRun(
        text: Self.pick(Self.awkward, &random),
        color: Self.pick([nil, StatusColor.gain, "\"x\""], &random),
        card: Self.pick([nil, 0, 80, -1], &random),
        symbol: Self.pick([nil, "oval", "é"], &random), count: Self.pick([nil, 1, 3], &random),
        shading: Self.pick([nil, "striped"], &random), alpha: Self.pick(numbers, &random),
        stroke: Self.pick(numbers, &random))
      let frame = ServerMessage.diffFrame(
        tableID: "t", version: 2, seat: 0, replyTo: .int(1), status: [run, .text(" ")]
      ) { _ in }
      let expected = ServerMessage.diff(
        tableID: "t", version: 2, seat: 0, replyTo: .int(1), encodedEvents: [],
        status: [run, .text(" ")]
      ).encoded
      #expect(frame.payload == expected)
    }
  }

  /// A fixed diff, byte for byte (the shape `docs/PROTOCOL.md` documents).
  @Test func aChooseDiffIsTheseBytes() {
    let card = SetCard.fullDeck[5]
    let events: [GameEvent<SetCard>] = [
      .selected(seat: 1, card: card), .scored(seat: 1, score: -1),
    ]
    let frame = ServerMessage.diffFrame(
      tableID: "t3", version: 12, seat: 1, replyTo: .int(40),
      status: StatusLine.runs(for: events, names: ["Ada", "Bob"])
    ) { list in
      for event in events { list.add(event, names: ["Ada", "Bob"]) }
    }
    let run = card.statusRun
    let text =
      #"{"type":"diff","table":"t3","version":12,"seat":1,"replyTo":40,"events":["#
      + #"{"kind":"select","seat":1,"card":5},{"kind":"score","seat":1,"score":-1}],"#
      + #""status":[{"text":"Bob chose "},{"card":5,"text":"\#(run.text)","symbol":"#
      + #""\#(run.symbol!)","count":\#(run.count!),"color":"\#(run.color!)","shading":"#
      + #""\#(run.shading!)","alpha":\#(Self.number(run.alpha!)),"#
      + #""stroke":\#(Self.number(run.stroke!)),"label":"\#(run.label!)"}]}"#
    #expect(String(decoding: frame.payload, as: UTF8.self) == text)
  }

  static func number(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }
}
