import Protocol
import TestSupport
import Testing

/// What a client at a multiplayer table knows, built only from the wire: a `snapshot`, then every
/// `diff` and `status` applied exactly as PROTOCOL.md says, including the people events (`join`,
/// `leave`, `away`, `back`, `host`, `phase`, `vote`), and the `spectators` message. Two views are
/// equal when a client could not tell them apart; the time-dependent numbers (`away` seconds,
/// `countdown` seconds) are kept but left out of the comparison, since a diff states them at the
/// moment it was made and a snapshot at the moment it is taken, and so is the spectators' count,
/// which is no part of the versioned table (it is told at most once a second: `CrowdCount`).
struct TableClientView: Equatable, CustomStringConvertible {
  /// One occupied seat as the client sees it.
  struct Player: Equatable {
    var name: String
    var score: Int
    var matches: Int
    var selection: [Int]
    var connected: Bool
    /// Seconds left before the seat is released, while away (not compared).
    var away: Int?
    /// Cards turned up (face-down games; nil otherwise).
    var flips: Int?
    /// A computer player's level (nil: a person).
    var bot: String? = nil

    static func == (a: Player, b: Player) -> Bool {
      (a.name, a.score, a.matches, a.selection, a.connected)
        == (b.name, b.score, b.matches, b.selection, b.connected) && a.flips == b.flips
        && a.bot == b.bot
    }
  }

  var tableID: String
  var version: Int
  var you: Int?
  var phase: String
  var code: String
  var isPrivate: Bool
  var seatCount: Int
  var host: Int?
  var spectators: Int
  /// Seconds left in the countdown (not compared).
  var countdown: Int?
  var over: Bool
  var deckCount: Int
  var settings: JSONValue
  /// Card objects in display order.
  var board: [JSONValue]
  /// A chained game's chain (Set-Chain: the previous set, beside the board); nil in others.
  var chain: [JSONValue]?
  /// Occupied seats only.
  var players: [Int: Player]
  var status: JSONValue
  var standings: JSONValue?
  /// The game's matches and mismatches (the snapshot's `history`, grown by `history` events).
  var history: [JSONValue] = []
  /// Face-down games: the matched slots, and whose turn it is (turn-based games).
  var matched: [Int] = []
  var turn: Int?
  /// The open re-deal vote, or nil.
  var vote: (seats: [Int], needed: Int)?
  /// Whether a computer player is offered to the host.
  var computerOffer = false
  /// Cards matched by the diff being applied (bookkeeping, not state).
  private var matchedNow = Set<Int>()

  static func == (a: TableClientView, b: TableClientView) -> Bool {
    (a.tableID, a.version, a.you, a.phase) == (b.tableID, b.version, b.you, b.phase)
      && (a.code, a.isPrivate, a.seatCount, a.host) == (b.code, b.isPrivate, b.seatCount, b.host)
      && (a.over, a.deckCount) == (b.over, b.deckCount)
      && a.settings == b.settings && a.board == b.board && a.chain == b.chain
      && a.players == b.players
      && a.status == b.status && a.standings == b.standings && a.history == b.history
      && a.matched == b.matched && a.turn == b.turn
      && a.vote?.seats == b.vote?.seats && a.vote?.needed == b.vote?.needed
      && a.computerOffer == b.computerOffer
  }

  /// The view a multiplayer snapshot gives.
  init(snapshot: JSONValue) throws {
    #expect(snapshot["type"] == "snapshot")
    let table = try #require(snapshot["table"])
    tableID = try #require(table["id"]?.stringValue)
    version = try #require(table["version"]?.intValue)
    you = table["you"]?.intValue
    phase = try #require(table["phase"]?.stringValue)
    code = try #require(table["code"]?.stringValue)
    isPrivate = try #require(table["private"]?.boolValue as Bool?)
    seatCount = try #require(table["seats"]?.intValue)
    host = table["host"]?.intValue
    spectators = try #require(table["spectators"]?.intValue)
    countdown = table["countdown"]?.intValue
    over = try #require(table["over"]?.boolValue as Bool?)
    deckCount = try #require(table["deckCount"]?.intValue)
    settings = try #require(table["settings"])
    board = try #require(table["board"]?.elements)
    chain = table["chain"]?.elements
    players = [:]
    for player in try #require(table["players"]?.elements) {
      let seat = try #require(player["seat"]?.intValue)
      #expect(players[seat] == nil, "seat \(seat) listed twice")
      players[seat] = Player(
        name: try #require(player["name"]?.stringValue),
        score: try #require(player["score"]?.intValue),
        matches: try #require(player["matches"]?.intValue),
        selection: try #require(player["selection"]?.elements).map { try #require($0.intValue) },
        connected: try #require(player["connected"]?.boolValue as Bool?),
        away: player["away"]?.intValue, flips: player["flips"]?.intValue,
        bot: player["bot"]?["level"]?.stringValue)
    }
    computerOffer = table["computerOffer"]?.boolValue ?? false
    status = try #require(table["status"])
    history = table["history"]?.elements ?? []
    matched = try Self.ids(table["matched"] ?? .array([]))
    turn = table["turn"]?.intValue
    standings = table["standings"]
    if let vote = table["vote"] {
      self.vote = (try Self.ids(vote["seats"]), try #require(vote["needed"]?.intValue))
    }
  }

  /// Applies a `diff`, which must be the next version of this table.
  /// A `spectators` message: how many watch now.
  mutating func apply(spectators message: JSONValue) throws {
    guard message["table"]?.stringValue == tableID else { return }
    spectators = try #require(message["count"]?.intValue)
  }

  mutating func apply(diff: JSONValue) throws {
    #expect(diff["type"] == "diff")
    #expect(diff["table"]?.stringValue == tableID)
    let next = try #require(diff["version"]?.intValue)
    try #require(next == version + 1, "diff \(next) does not follow \(version)")
    matchedNow = []
    for event in try #require(diff["events"]?.elements) {
      try apply(event: event)
    }
    version = next
    // Protocol v2: a change's status line travels inside its diff.
    if let runs = diff["status"] { status = runs }
  }

  private mutating func apply(event: JSONValue) throws {
    let kind = try #require(event["kind"]?.stringValue)
    switch kind {
    case "select":
      let (seat, card) = (try occupied(event), try int(event, "card"))
      players[seat]?.selection.append(card)
    case "deselect":
      let card = try int(event, "card")
      let seat = try int(event, "seat")
      // After a match, seats holding a matched card are told; the match already cleared it
      // (and a seat that has been left keeps no view here).
      if matchedNow.contains(card) {
        players[seat]?.selection.removeAll { $0 == card }
      } else {
        let holder = try occupied(event)
        #expect(
          players[holder]?.selection.contains(card) == true, "deselect of unselected \(card)")
        players[holder]?.selection.removeAll { $0 == card }
      }
    case "match":
      let cards = try Self.ids(event["cards"])
      matchedNow.formUnion(cards)
      if settings["faceDown"] == .bool(true) {
        // Matched cards stay, face up and out of play.
        matched = (matched + cards).sorted()
        for slot in cards {
          guard case .object(var members) = board[slot] else { continue }
          members.append(("matched", .bool(true)))
          board[slot] = .object(members)
        }
      }
      for seat in players.keys { players[seat]?.selection.removeAll { cards.contains($0) } }
      let seat = try occupied(event)
      players[seat]?.matches += 1
    case "mismatch":
      _ = try int(event, "penalty")
    case "score":
      let (seat, score) = (try occupied(event), try int(event, "score"))
      players[seat]?.score = score
    case "replace":
      let slot = try int(event, "slot")
      try #require(board.indices.contains(slot), "replace at slot \(slot) of \(board.count)")
      board[slot] = try #require(event["card"])
    case "remove":
      let cards = try Self.ids(event["cards"])
      let before = board.count
      board.removeAll { cards.contains($0["id"]?.intValue ?? -1) }
      #expect(board.count == before - cards.count, "removed cards were not all on the board")
    case "deal":
      board += try #require(event["cards"]?.elements)
      #expect(event["reason"] == "noMatch")
    case "deck":
      deckCount = try int(event, "count")
    case "chain":
      try #require(chain != nil, "a chain event in a game without a chain")
      chain = try #require(event["cards"]?.elements)
    case "redeal":
      board = try #require(event["board"]?.elements)
      if chain != nil { chain = [] }
      deckCount = try int(event, "deckCount")
      for seat in players.keys {
        players[seat]?.selection = []
        players[seat]?.score = 0
        players[seat]?.matches = 0
      }
      over = false
      standings = nil
      history = []
      matched = []
      for seat in Array(players.keys) where players[seat]?.flips != nil || countsFlips(seat) {
        players[seat]?.flips = 0
      }
    case "flip":
      let card = try #require(event["card"])
      let slot = try int(card, "id")
      try #require(board.indices.contains(slot), "flip of slot \(slot)")
      board[slot] = card
      // A flip without a seat shows a card an opponent matched unseen: nobody's flip.
      if event["seat"] != nil {
        let seat = try occupied(event)
        if players[seat]?.flips != nil || countsFlips(seat) {
          let flips = players[seat]?.flips ?? 0
          players[seat]?.flips = flips + 1
        }
      }
    case "hide":
      for slot in try Self.ids(event["cards"]) {
        board[slot] = .object([("id", .int(slot)), ("faceUp", .bool(false))])
      }
    case "turn":
      turn = try int(event, "seat")
    case "history":
      history.append(try #require(event["entry"]))
    case "over":
      over = true
      standings = event["standings"]
      #expect(standings?.elements != nil, "over without standings")
    case "phase":
      phase = try #require(event["phase"]?.stringValue)
      countdown = phase == "countdown" ? try int(event, "countdown") : nil
      #expect(phase == "countdown" || event["countdown"] == nil)
    case "vote":
      let seats = try Self.ids(event["seats"])
      vote = seats.isEmpty ? nil : (seats, try int(event, "needed"))
    case "join":
      let seat = try int(event, "seat")
      try #require((0..<seatCount).contains(seat), "join at seat \(seat) of \(seatCount)")
      #expect(players[seat] == nil, "join at the occupied seat \(seat)")
      players[seat] = Player(
        name: try #require(event["name"]?.stringValue), score: 0, matches: 0, selection: [],
        connected: true, flips: countsFlips(seat) ? 0 : nil,
        bot: event["bot"]?["level"]?.stringValue)
    case "leave":
      let seat = try occupied(event)
      players[seat] = nil
    case "away":
      let seat = try occupied(event)
      #expect(players[seat]?.connected == true, "away of a seat already away")
      players[seat]?.connected = false
      let seconds = try int(event, "seconds")
      players[seat]?.away = seconds
    case "back":
      let seat = try occupied(event)
      #expect(players[seat]?.connected == false, "back of a connected seat")
      players[seat]?.connected = true
      players[seat]?.away = nil
    case "host":
      host = event["seat"] == nil ? nil : try occupied(event)
    case "computerOffer":
      computerOffer = try #require(event["open"]?.boolValue as Bool?)
    default:
      Issue.record("unknown event kind \(kind)")
    }
  }

  /// Whether this client counts `seat`'s flips: in face-down games, every seat's unless the
  /// selections are hidden, then only its own (a spectator's: still every seat's).
  private func countsFlips(_ seat: Int) -> Bool {
    settings["faceDown"] == .bool(true)
      && (settings["showSelections"] != .bool(false) || you == nil || seat == you)
  }

  private func int(_ event: JSONValue, _ key: String) throws -> Int {
    try #require(event[key]?.intValue, "\(key) missing in \(event.text)")
  }

  /// The event's seat, which must be occupied.
  private func occupied(_ event: JSONValue) throws -> Int {
    let seat = try int(event, "seat")
    try #require(players[seat] != nil, "seat \(seat) is not occupied: \(event.text)")
    return seat
  }

  private static func ids(_ value: JSONValue?) throws -> [Int] {
    try #require(value?.elements).map { try #require($0.intValue) }
  }

  var description: String {
    var cards = board.map { $0["id"]?.text ?? "?" }.joined(separator: " ")
    if let chain {
      cards += " chain: " + chain.map { $0["id"]?.text ?? "?" }.joined(separator: " ")
    }
    let seats = players.keys.sorted().map { "\($0):\(players[$0]!)" }.joined(separator: " ")
    return "v\(version) \(phase) host:\(host.map(String.init) ?? "-") spectators:\(spectators)"
      + " over:\(over) deck:\(deckCount) board:[\(cards)] players:[\(seats)]"
      + " vote:\(vote.map { "\($0.seats)/\($0.needed)" } ?? "-")"
      + " status:\(status.text) standings:\(standings?.text ?? "-")"
  }
}
