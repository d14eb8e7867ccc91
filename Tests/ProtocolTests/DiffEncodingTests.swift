import Model
import Protocol
import TestSupport
import Testing

/// The diff a table writes straight into its frame (``ServerMessage/diffFrame``, the one encoder
/// of diffs) reads back to what happened: random games of Set, Matchismo, Concentration and
/// Set-Chain, with names, table ids and reply ids that need escaping; every diff parses as JSON,
/// its envelope says what it was given, its events read back (``WireEventReader``) to the very
/// events of the move and its status to the runs a snapshot shows (``StyledRun/json``).
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

  /// Plays `moves` moves of a game of `Card` (each from `next`), checks the diff of every
  /// accepted one, and returns the kinds of the events read back.
  static func play<Card: WireCard>(
    _: Card.Type, settings: GameSettings, seed: UInt64, moves: Int,
    next: (CardMatchingGame<Card>, inout SeededGenerator) -> Move
  ) throws -> Set<String> {
    var random = SeededGenerator(seed: seed)
    var game = CardMatchingGame<Card>(settings: settings, seed: seed)
    let names = (0..<settings.seats).map { _ in pick(awkward, &random) }
    var kinds = Set<String>()
    for version in 1...moves {
      guard let events = try? game.apply(next(game, &random)) else { continue }
      let status = StatusLine.runs(for: events, names: names)
      let tableID = pick(["t1", "t\(version)", "odd \"id\""], &random)
      let replyTo = replyTo(&random)
      let seat: Int? = random.next() % 5 == 0 ? nil : 0
      let withStatus = random.next() % 4 != 0
      let frame = Written.diff(
        tableID: tableID, version: version, seat: seat, replyTo: replyTo, events: events,
        names: names, status: withStatus ? status : nil)
      let context = "move \(version) of seed \(seed): \(Written.text(frame))"
      let diff = try #require(JSONValue.parse(frame.payload), "not JSON: \(context)")
      var keys: Set<String> = ["type", "table", "version", "events"]
      if seat != nil { keys.insert("seat") }
      if replyTo != nil { keys.insert("replyTo") }
      if withStatus { keys.insert("status") }
      #expect(Set(diff.keys) == keys, "\(context)")
      #expect(diff["type"] == "diff" && diff["table"] == .string(tableID), "\(context)")
      #expect(diff["version"] == .int(version) && diff["seat"] == seat.map { .int($0) })
      #expect(diff["replyTo"] == replyTo?.json, "\(context)")
      if withStatus { #expect(diff["status"] == .array(status.map(\.json)), "\(context)") }
      let written = try #require(diff["events"]?.elements, "\(context)")
      let read = written.map { WireEventReader.gameEvent($0, names: names, as: Card.self) }
      #expect(read == events.map { Optional($0) }, "\(context)")
      if read != events.map({ Optional($0) }) { return kinds }
      kinds.formUnion(written.compactMap { $0["kind"]?.stringValue })
      if game.isOver { game = CardMatchingGame<Card>(settings: settings, seed: random.next()) }
    }
    return kinds
  }

  /// A random card of the board, now and then a re-deal; at a turn-based table, from the seat
  /// whose turn it is.
  static func anyCard<Card: WireCard>(
    _ game: CardMatchingGame<Card>, _ random: inout SeededGenerator
  )
    -> Move
  {
    let seat = game.turn ?? Int(random.next() % UInt64(game.settings.seats))
    if random.next() % 40 == 0 { return .redeal(seat: seat) }
    return .choose(seat: seat, card: pick(game.board, &random).id)
  }

  static func setGame(seed: UInt64) throws -> Set<String> {
    var player = SetPlayer(seed: seed)
    player.redealPercent = 1
    return try play(SetCard.self, settings: .set(seats: 2), seed: seed, moves: 400) { game, _ in
      player.nextMove(in: game, seat: 0)
    }
  }

  static func matchismoGame(seed: UInt64) throws -> Set<String> {
    let settings = GameSettings.matchismo(matchSize: Int(seed % 2) + 2, seats: Int(seed % 3) + 1)
    return try play(PlayingCard.self, settings: settings, seed: seed, moves: 300, next: anyCard)
  }

  static func concentrationGame(seed: UInt64) throws -> Set<String> {
    try play(
      EmojiCard.self, settings: .concentration(pairs: 4, seats: 2), seed: seed, moves: 300,
      next: anyCard)
  }

  /// Set-Chain: mostly a set of the board, chosen after letting go of the selection (refused
  /// when it breaks the chain), else a card.
  static func setChainGame(seed: UInt64) throws -> Set<String> {
    var plan: [Move] = []
    return try play(SetChainCard.self, settings: .setChain(), seed: seed, moves: 300) {
      game, random in
      if !plan.isEmpty { return plan.removeFirst() }
      let sets = SetChainCard.allSets(in: game.board)
      if !sets.isEmpty && random.next() % 4 != 0 {
        plan =
          game.players[0].selection.map { .choose(seat: 0, card: $0) }
          + pick(sets, &random).map { .choose(seat: 0, card: $0.id) }
        return plan.removeFirst()
      }
      return anyCard(game, &random)
    }
  }

  @Test(arguments: 1...12)
  func setDiffsReadBackToTheirEvents(seed: UInt64) throws {
    #expect(try Self.setGame(seed: seed).isSuperset(of: ["select", "match", "replace", "score"]))
  }

  @Test(arguments: 1...8)
  func matchismoDiffsReadBackToTheirEvents(seed: UInt64) throws {
    #expect(try Self.matchismoGame(seed: seed).isSuperset(of: ["select", "flip", "score"]))
  }

  @Test(arguments: 1...6)
  func concentrationDiffsReadBackToTheirEvents(seed: UInt64) throws {
    #expect(try Self.concentrationGame(seed: seed).isSuperset(of: ["flip", "turn"]))
  }

  @Test(arguments: 1...6)
  func setChainDiffsReadBackToTheirEvents(seed: UInt64) throws {
    _ = try Self.setChainGame(seed: seed)
  }

  /// Between them, the games write every kind of game event there is: one the reader cannot
  /// read back fails the tests above.
  @Test func theGamesWriteEveryKindOfEvent() throws {
    var kinds = Set<String>()
    for seed: UInt64 in 1...12 { kinds.formUnion(try Self.setGame(seed: seed)) }
    for seed: UInt64 in 1...8 { kinds.formUnion(try Self.matchismoGame(seed: seed)) }
    for seed: UInt64 in 1...6 { kinds.formUnion(try Self.concentrationGame(seed: seed)) }
    for seed: UInt64 in 1...6 { kinds.formUnion(try Self.setChainGame(seed: seed)) }
    #expect(
      kinds == [
        "select", "deselect", "match", "mismatch", "score", "replace", "remove", "deal", "deck",
        "redeal", "over", "flip", "hide", "turn", "chain",
      ])
  }

  @Test func everyTableEventReadsBack() {
    var random = SeededGenerator(seed: 7)
    for _ in 0..<500 {
      let n = Int(random.next() % 9) - 1
      let events: [TableEvent] = [
        .joined(seat: n, name: Self.pick(Self.awkward, &random)), .left(seat: n),
        .joined(seat: n, name: "Computer", bot: Self.pick(BotLevel.all, &random)),
        .away(seat: n, seconds: Int(random.next() % 120)), .back(seat: n), .host(seat: n),
        .host(seat: nil),
        .phase(Self.pick([.waiting, .countdown, .playing, .finished], &random), countdown: nil),
        .phase(.countdown, countdown: n), .vote(seats: [], needed: n),
        .vote(seats: Array(0..<max(0, n)), needed: n),
        .lookBack(EncodedJSON(.object([("boardSeen", .bool(n > 3))]))), .computerOffer(open: n > 3),
      ]
      for event in events {
        let frame = ServerMessage.diffFrame(
          tableID: "t1", version: 1, seat: nil, replyTo: nil, status: nil
        ) { $0.add(event) }
        let written = Written.json(frame)["events"]?.elements ?? []
        #expect(written.map(WireEventReader.tableEvent) == [event], "\(Written.text(frame))")
      }
    }
  }

  /// A history entry in a diff is the entry a snapshot lists, byte for byte: names that need
  /// escaping, both kinds, penalties or none, choices paid or not, any card.
  @Test func historyEntriesReadBackAsTheSnapshotShowsThem() {
    var random = SeededGenerator(seed: 13)
    for _ in 0..<300 {
      let names = [Self.pick(Self.awkward, &random), Self.pick(Self.awkward, &random)]
      var entry = HistoryEntry(
        number: Int(random.next() % 40) + 1, at: Double(random.next() % 100_000) / 97,
        seat: Int(random.next() % 2), kind: Self.pick([.match, .mismatch], &random),
        points: Int(random.next() % 4) * 3,
        cards: (0..<3).map { _ in Int(random.next() % 81) })
      entry.choiceCost = Self.pick([0, 0, 1, 4], &random)
      let naming = CardNaming<SetCard>.byID
      let frame = ServerMessage.diffFrame(
        tableID: "t", version: 2, seat: nil, replyTo: nil, status: nil
      ) { $0.add(entry, names: names, naming: naming) }
      let json = entry.json(names: names, naming: naming)
      #expect(
        Written.text(frame)
          == #"{"type":"diff","table":"t","version":2,"events":[{"kind":"history","entry":"#
          + json.text + "}]}")
    }
  }

  @Test func statusRunsReadBackAsTheSnapshotShowsThem() {
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
      // Byte for byte: the diff's writer of runs and the snapshot's (``StyledRun/json``).
      #expect(
        Written.text(frame)
          == #"{"type":"diff","table":"t","version":2,"seat":0,"replyTo":1,"events":[],"status":["#
          + run.json.text + #",{"text":" "}]}"#)
    }
  }

  /// A fixed diff, byte for byte (the shape `docs/PROTOCOL.md` documents).
  @Test func aChooseDiffIsTheseBytes() {
    let card = SetCard.fullDeck[5]
    let events: [GameEvent<SetCard>] = [
      .selected(seat: 1, card: card), .scored(seat: 1, score: -1),
    ]
    let frame = Written.diff(
      tableID: "t3", version: 12, seat: 1, replyTo: .int(40), events: events,
      names: ["Ada", "Bob"], status: StatusLine.runs(for: events, names: ["Ada", "Bob"]))
    let run = card.statusRun
    let text =
      #"{"type":"diff","table":"t3","version":12,"seat":1,"replyTo":40,"events":["#
      + #"{"kind":"select","seat":1,"card":5},{"kind":"score","seat":1,"score":-1}],"#
      + #""status":[{"text":"Bob","seat":1},{"text":" chose "},"#
      + #"{"card":5,"text":"\#(run.text)","symbol":"#
      + #""\#(run.symbol!)","count":\#(run.count!),"color":"\#(run.color!)","shading":"#
      + #""\#(run.shading!)","alpha":\#(Self.number(run.alpha!)),"#
      + #""stroke":\#(Self.number(run.stroke!)),"label":"\#(run.label!)"}]}"#
    #expect(Written.text(frame) == text)
  }

  static func number(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }
}
