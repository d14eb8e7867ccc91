import Protocol
import Testing

/// What a client knows of its table, built only from the wire: a `snapshot`, then `diff` and
/// `status` messages applied exactly as PROTOCOL.md's event table says. Two views are equal when
/// a client could not tell them apart.
struct ClientView: Equatable, CustomStringConvertible {
  /// One seat as the client sees it.
  struct Seat: Equatable {
    var name: String
    var score: Int
    var matches: Int
    var selection: [Int]
  }

  var tableID: String
  var version: Int
  var you: Int?
  var over: Bool
  var deckCount: Int
  var settings: JSONValue
  /// Card objects in display order.
  var board: [JSONValue]
  var seats: [Seat]
  /// The latest status line's runs.
  var status: JSONValue
  /// The final standings, once the game is over.
  var standings: JSONValue?
  /// The table's phase.
  var phase: String?
  /// The open re-deal vote's seats.
  var vote: [Int] = []
  /// Cards matched by the diff being applied (bookkeeping, not state).
  private var matchedNow = Set<Int>()

  static func == (lhs: ClientView, rhs: ClientView) -> Bool {
    (lhs.tableID, lhs.version, lhs.you, lhs.over, lhs.deckCount)
      == (rhs.tableID, rhs.version, rhs.you, rhs.over, rhs.deckCount)
      && lhs.settings == rhs.settings && lhs.board == rhs.board && lhs.seats == rhs.seats
      && lhs.status == rhs.status && lhs.standings == rhs.standings && lhs.phase == rhs.phase
      && lhs.vote == rhs.vote
  }

  /// The view a snapshot gives.
  init(snapshot: JSONValue) throws {
    #expect(snapshot["type"] == "snapshot")
    let table = try #require(snapshot["table"])
    tableID = try #require(table["id"]?.stringValue)
    version = try #require(table["version"]?.intValue)
    you = table["you"]?.intValue
    over = try #require(table["over"]?.boolValue as Bool?)
    deckCount = try #require(table["deckCount"]?.intValue)
    settings = try #require(table["settings"])
    board = try #require(table["board"]?.elements)
    let players = try #require(table["players"]?.elements)
    seats = []
    for (index, player) in players.enumerated() {
      #expect(player["seat"] == .int(index))
      seats.append(
        Seat(
          name: try #require(player["name"]?.stringValue),
          score: try #require(player["score"]?.intValue),
          matches: try #require(player["matches"]?.intValue),
          selection: try #require(player["selection"]?.elements).map { try #require($0.intValue) }
        ))
    }
    status = try #require(table["status"])
    standings = table["standings"]
    phase = table["phase"]?.stringValue
    vote = try table["vote"].map { try ids($0["seats"]) } ?? []
  }

  /// Applies a `diff`, which must be the next version of this table.
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
  }

  /// Applies the `status` that follows a diff (or a snapshot), for the same version.
  mutating func apply(status message: JSONValue) throws {
    #expect(message["type"] == "status")
    #expect(message["table"]?.stringValue == tableID)
    #expect(message["version"]?.intValue == version)
    status = try #require(message["runs"])
  }

  private mutating func apply(event: JSONValue) throws {
    let kind = try #require(event["kind"]?.stringValue)
    switch kind {
    case "select":
      try seats[seat(event)].selection.append(int(event, "card"))
    case "deselect":
      let card = try int(event, "card")
      let seat = try seat(event)
      // A match clears its cards from every selection, so the deselects that tell the other
      // seats about it find them gone already; any other deselect must find its card.
      #expect(
        seats[seat].selection.contains(card) || matchedNow.contains(card),
        "deselect of unselected \(card)")
      seats[seat].selection.removeAll { $0 == card }
    case "match":
      let cards = try ids(event["cards"])
      matchedNow.formUnion(cards)
      for index in seats.indices { seats[index].selection.removeAll { cards.contains($0) } }
      try seats[seat(event)].matches += 1
    case "mismatch":
      // The deselect events that follow say what leaves the selection.
      _ = try int(event, "penalty")
    case "score":
      try seats[seat(event)].score = int(event, "score")
    case "replace":
      let slot = try int(event, "slot")
      try #require(board.indices.contains(slot), "replace at slot \(slot) of \(board.count)")
      board[slot] = try #require(event["card"])
    case "remove":
      let cards = try ids(event["cards"])
      let before = board.count
      board.removeAll { cards.contains($0["id"]?.intValue ?? -1) }
      #expect(board.count == before - cards.count, "removed cards were not all on the board")
    case "deal":
      board += try #require(event["cards"]?.elements)
      #expect(event["reason"] == "noMatch")
    case "deck":
      deckCount = try int(event, "count")
    case "redeal":
      board = try #require(event["board"]?.elements)
      deckCount = try int(event, "deckCount")
      for index in seats.indices {
        seats[index].selection = []
        seats[index].score = 0
        seats[index].matches = 0
      }
      over = false
      standings = nil
    case "over":
      over = true
      let final = try #require(event["standings"])
      standings = final
    case "phase":
      phase = try #require(event["phase"]?.stringValue)
    case "vote":
      vote = try ids(event["seats"])
    case "spectators", "join", "leave", "away", "back", "host":
      // Table events about people: legacy tables in these tests never produce them.
      Issue.record("unexpected \(kind) event on a table with every seat taken")
    default:
      Issue.record("unknown event kind \(kind)")
    }
  }

  private func int(_ event: JSONValue, _ key: String) throws -> Int {
    try #require(event[key]?.intValue, "\(key) missing in \(event.text)")
  }

  private func seat(_ event: JSONValue) throws -> Int {
    let seat = try int(event, "seat")
    try #require(seats.indices.contains(seat), "no seat \(seat)")
    return seat
  }

  private func ids(_ value: JSONValue?) throws -> [Int] {
    try #require(value?.elements).map { try #require($0.intValue) }
  }

  var description: String {
    let cards = board.map { $0["id"]?.text ?? "?" }.joined(separator: " ")
    return "v\(version) over:\(over) deck:\(deckCount) board:[\(cards)] seats:\(seats)"
      + " status:\(status.text) standings:\(standings?.text ?? "-")"
  }
}
