import Model
import Protocol
import TestSupport

/// Reads a diff's events back from what the server wrote, as a client would: the other way round
/// from the server's one encoder, field by field as PROTOCOL.md documents them (cards named by
/// id, as at a face-up table). A test that reads every event of random games back to the very
/// event the game made checks that encoder without a second one.
enum WireEventReader {
  /// The game event `json` says, or nil when it is not exactly one: a field missing or one too
  /// many, a card that is not one, a standing whose name is not its seat's.
  static func gameEvent<Card: WireCard>(
    _ json: JSONValue, names: [String], as _: Card.Type = Card.self
  ) -> GameEvent<Card>? {
    let fields = Set(json.keys)
    func has(_ expected: Set<String>) -> Bool { fields == expected.union(["kind"]) }
    func int(_ key: String) -> Int? { json[key]?.intValue }
    func card(id: Int?) -> Card? {
      guard let id, Card.fullDeck.indices.contains(id) else { return nil }
      return Card.fullDeck[id]
    }
    func card(object: JSONValue?) -> Card? {
      guard let card = card(id: object?["id"]?.intValue), card.wireObject == object else {
        return nil
      }
      return card
    }
    func all<T>(_ key: String, _ read: (JSONValue) -> T?) -> [T]? {
      guard let items = json[key]?.elements else { return nil }
      let read = items.compactMap(read)
      return read.count == items.count ? read : nil
    }
    func ids(_ key: String) -> [Card]? { all(key) { card(id: $0.intValue) } }
    func objects(_ key: String) -> [Card]? { all(key) { card(object: $0) } }

    switch json["kind"]?.stringValue {
    case "select"?:
      guard has(["seat", "card"]), let seat = int("seat"), let card = card(id: int("card"))
      else { return nil }
      return .selected(seat: seat, card: card)
    case "deselect"?:
      guard has(["seat", "card"]), let seat = int("seat"), let card = card(id: int("card"))
      else { return nil }
      return .deselected(seat: seat, card: card)
    case "match"?:
      guard has(["seat", "cards", "points"]), let seat = int("seat"), let cards = ids("cards"),
        let points = int("points")
      else { return nil }
      return .matched(seat: seat, cards: cards, points: points)
    case "mismatch"?:
      guard has(["seat", "cards", "penalty"]), let seat = int("seat"), let cards = ids("cards"),
        let penalty = int("penalty")
      else { return nil }
      return .mismatched(seat: seat, cards: cards, penalty: penalty)
    case "score"?:
      guard has(["seat", "score"]), let seat = int("seat"), let score = int("score") else {
        return nil
      }
      return .scored(seat: seat, score: score)
    case "replace"?:
      guard has(["slot", "card"]), let slot = int("slot"), let card = card(object: json["card"])
      else { return nil }
      return .replaced(slot: slot, card: card)
    case "remove"?:
      guard has(["cards"]), let cards = ids("cards") else { return nil }
      return .removed(cards)
    case "deal"?:
      guard has(["cards", "reason"]), let cards = objects("cards"),
        let reason = json["reason"]?.stringValue.flatMap(DealReason.init(rawValue:))
      else { return nil }
      return .dealt(cards, reason: reason)
    case "deck"?:
      guard has(["count"]), let count = int("count") else { return nil }
      return .deckCount(count)
    case "redeal"?:
      guard has(["board", "deckCount"]), let board = objects("board"),
        let deckCount = int("deckCount")
      else { return nil }
      return .redealt(board: board, deckCount: deckCount)
    case "over"?:
      guard has(["standings"]), let rows = all("standings", { standing($0, names: names) })
      else { return nil }
      return .ended(rows)
    case "flip"?:
      guard has(["seat", "card"]), let seat = int("seat"), let card = card(object: json["card"])
      else { return nil }
      return .turnedUp(seat: seat, card: card)
    case "hide"?:
      guard has(["cards"]), let cards = ids("cards") else { return nil }
      return .turnedDown(cards)
    case "turn"?:
      guard has(["seat"]), let seat = int("seat") else { return nil }
      return .turn(seat: seat)
    case "chain"?:
      guard has(["cards"]), let cards = objects("cards") else { return nil }
      return .chained(cards)
    default:
      return nil
    }
  }

  /// A row of an `over` event's standings, named as its seat is named.
  private static func standing(_ row: JSONValue, names: [String]) -> Standing? {
    guard Set(row.keys) == ["seat", "name", "score", "matches", "rank"],
      let seat = row["seat"]?.intValue,
      row["name"]?.stringValue
        == ServerMessage.name(
          of: seat, in: names),
      let score = row["score"]?.intValue, let matches = row["matches"]?.intValue,
      let rank = row["rank"]?.intValue
    else { return nil }
    return Standing(seat: seat, score: score, matches: matches, rank: rank)
  }

  /// The table event `json` says, or nil when it is not exactly one.
  static func tableEvent(_ json: JSONValue) -> TableEvent? {
    let fields = Set(json.keys)
    func has(_ expected: Set<String>) -> Bool { fields == expected.union(["kind"]) }
    let seat = json["seat"]?.intValue
    switch json["kind"]?.stringValue {
    case "join"?:
      guard has(["seat", "name"]) || has(["seat", "name", "bot"]), let seat,
        let name = json["name"]?.stringValue
      else { return nil }
      guard let bot = json["bot"] else { return .joined(seat: seat, name: name) }
      guard let level = bot["level"]?.stringValue.flatMap(BotLevel.named), bot.keys == ["level"]
      else { return nil }
      return .joined(seat: seat, name: name, bot: level)
    case "leave"?:
      guard has(["seat"]), let seat else { return nil }
      return .left(seat: seat)
    case "away"?:
      guard has(["seat", "seconds"]), let seat, let seconds = json["seconds"]?.intValue else {
        return nil
      }
      return .away(seat: seat, seconds: seconds)
    case "back"?:
      guard has(["seat"]), let seat else { return nil }
      return .back(seat: seat)
    case "host"?:
      guard has(seat == nil ? [] : ["seat"]) else { return nil }
      return .host(seat: seat)
    case "phase"?:
      let countdown = json["countdown"]?.intValue
      guard has(countdown == nil ? ["phase"] : ["phase", "countdown"]),
        let phase = json["phase"]?.stringValue.flatMap(TablePhase.init(rawValue:))
      else { return nil }
      return .phase(phase, countdown: countdown)
    case "vote"?:
      guard has(["seats", "needed"]), let seats = json["seats"]?.elements,
        let needed = json["needed"]?.intValue
      else { return nil }
      let read = seats.compactMap(\.intValue)
      return read.count == seats.count ? .vote(seats: read, needed: needed) : nil
    case "lookBack"?:
      guard has(["lookBack"]), let lookBack = json["lookBack"] else { return nil }
      return .lookBack(EncodedJSON(lookBack))
    case "computerOffer"?:
      guard has(["open"]), case .bool(let open)? = json["open"] else { return nil }
      return .computerOffer(open: open)
    default:
      return nil
    }
  }
}
