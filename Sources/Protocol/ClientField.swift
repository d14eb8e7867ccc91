/// The fields a client message may carry. A new field is one more case and its key.
enum ClientField: Int, CaseIterable, Sendable {
  case type, id, name, resume, version, game, card, seats, isPrivate, code, table
  // Table settings (createTable, playSolo).
  case boardSize, matchSize, scoring, costToChoose, mismatchPenalty, matchBonus, turnSeconds
  case theme, showSelections
  case player, sort, order, page, pageSize, mine, record, list, text, day, games, level, bots
  case offerComputer, arena, minutes, startsIn, count, key

  /// The field's key on the wire.
  var key: String {
    switch self {
    case .type: "type"
    case .id: "id"
    case .name: "name"
    case .resume: "resume"
    case .version: "version"
    case .game: "game"
    case .card: "card"
    case .seats: "seats"
    case .isPrivate: "private"
    case .code: "code"
    case .table: "table"
    case .boardSize: "boardSize"
    case .matchSize: "matchSize"
    case .scoring: "scoring"
    case .costToChoose: "costToChoose"
    case .mismatchPenalty: "mismatchPenalty"
    case .matchBonus: "matchBonus"
    case .turnSeconds: "turnSeconds"
    case .theme: "theme"
    case .showSelections: "showSelections"
    case .player: "player"
    case .sort: "sort"
    case .order: "order"
    case .page: "page"
    case .pageSize: "pageSize"
    case .mine: "mine"
    case .record: "record"
    case .list: "list"
    case .text: "text"
    case .day: "day"
    case .games: "games"
    case .level: "level"
    case .bots: "bots"
    case .offerComputer: "offerComputer"
    case .arena: "arena"
    case .minutes: "minutes"
    case .startsIn: "startsIn"
    case .count: "count"
    case .key: "key"
    }
  }

  /// Every key as bytes, in case order, to match keys without building strings.
  private static let keys: [[UInt8]] = allCases.map { Array($0.key.utf8) }

  /// The field whose key is `key` (decoded UTF-8), or nil for a key no message reads.
  init?(key: ArraySlice<UInt8>) {
    for (index, candidate) in Self.keys.enumerated()
    where candidate.count == key.count && candidate.elementsEqual(key) {
      self.init(rawValue: index)
      return
    }
    return nil
  }
}
