import Foundation
import Lobby
import Protocol

/// One notification on the channel `matchismo_lobby`: changes to the tables one node holds
/// (or that node leaving), as JSON small enough for PostgreSQL's 8,000-byte payload.
struct ClusterNotice: Codable, Sendable {
  /// One table's change: its row, or its removal.
  struct Row: Codable, Sendable, Hashable {
    var id: String
    /// Set (true) when the table closed; the other fields are then absent.
    var removed: Bool?
    var game: String?
    var seats: Int?
    var seated: Int?
    var spectators: Int?
    var phase: String?
    var code: String?
    var isPrivate: Bool?
    var players: [TableListing.Player]?
    /// The settings object, as JSON text.
    var settings: String?
    var turnSeconds: Int?

    /// The row of `change`.
    init(_ change: ClusterChange) {
      switch change {
      case .remove(let id):
        self.id = id
        removed = true
      case .upsert(let table):
        id = table.id
        game = table.listing.game
        seats = table.listing.seats
        seated = table.listing.seated
        spectators = table.listing.spectators
        phase = table.listing.phase.rawValue
        code = table.code
        isPrivate = table.isPrivate
        players = table.listing.players
        settings = table.listing.settings.map { String(decoding: $0.encoded, as: UTF8.self) }
        turnSeconds = table.listing.turnSeconds
      }
    }

    /// The change this row says, for a table of `node` (at `url` for clients, and at `link` for
    /// the nodes, `url` when nil); nil for a row that makes no sense (a newer server's phase, a
    /// missing field).
    func change(node: String, url: String?, link: String?) -> ClusterChange? {
      if removed == true { return .remove(id: id) }
      guard let game, let seats, let seated, let spectators, let code,
        let phase = phase.flatMap(TablePhase.init(rawValue:))
      else { return nil }
      let listing = TableListing(
        id: id, game: game, seats: seats, seated: seated, spectators: spectators, phase: phase,
        node: node, players: players ?? [],
        settings: settings.flatMap { JSONValue.parse(Array($0.utf8)) },
        turnSeconds: turnSeconds)
      return .upsert(
        ClusterTable(
          listing: listing, code: code, isPrivate: isPrivate ?? false, url: url, linkURL: link))
    }
  }

  /// The node that holds the tables.
  var node: String
  /// Its own WebSocket URL for clients, if it gives one.
  var url: String?
  /// Where the other nodes reach it, when that is not ``url``.
  var link: String? = nil
  /// When it was sent: seconds since 1970 on the sender's clock.
  var at: Double
  /// Set (true) when the node leaves (or starts again): every table it held is gone.
  var gone: Bool?
  /// The changes, in order.
  var rows: [Row]
  /// Unknown invite codes tried on the node since its last notice of them, by client address.
  var misses: [String: Int]? = nil

  /// The largest payload sent: PostgreSQL refuses 8,000 bytes and more.
  static let payloadLimit = 7_000

  /// `changes` of `node` (at `url` for clients, `link` for the nodes) as payloads of at most
  /// ``payloadLimit`` bytes each, in order.
  static func payloads(
    node: String, url: String?, link: String? = nil, at: Double, changes: [ClusterChange],
    gone: Bool = false
  ) throws -> [String] {
    // The link is said only where it differs from the URL (a notice without one means the URL).
    let link = link == url ? nil : link
    let encoder = JSONEncoder()
    var payloads: [String] = []
    var rows: [Row] = []
    var size = 0
    func flush() throws {
      let notice = ClusterNotice(
        node: node, url: url, link: link, at: at, gone: gone && payloads.isEmpty ? true : nil,
        rows: rows)
      payloads.append(String(decoding: try encoder.encode(notice), as: UTF8.self))
      rows = []
      size = 0
    }
    // The envelope takes a few hundred bytes at most (ids and URLs are short).
    let room =
      payloadLimit - 512 - node.utf8.count - (url?.utf8.count ?? 0) - (link?.utf8.count ?? 0)
    for change in changes {
      let row = Row(change)
      let rowSize = try encoder.encode(row).count + 1
      if size + rowSize > room, !rows.isEmpty { try flush() }
      rows.append(row)
      size += rowSize
    }
    if !rows.isEmpty || gone || payloads.isEmpty { try flush() }
    return payloads
  }

  /// Most addresses in one notice of misses (an address and its count take under 60 bytes).
  static let missesPerPayload = 100

  /// `misses` (unknown invite codes by client address) of `node`, as payloads of at most
  /// ``missesPerPayload`` addresses each.
  static func missPayloads(node: String, at: Double, misses: [String: Int]) throws -> [String] {
    let encoder = JSONEncoder()
    let entries = misses.sorted { $0.key < $1.key }
    return try stride(from: 0, to: entries.count, by: missesPerPayload).map { start in
      let part = entries[start..<min(start + missesPerPayload, entries.count)]
      let notice = ClusterNotice(
        node: node, url: nil, at: at, rows: [],
        misses: Dictionary(uniqueKeysWithValues: part.map { ($0.key, $0.value) }))
      return String(decoding: try encoder.encode(notice), as: UTF8.self)
    }
  }

  /// What the lobby hears from this notice.
  var news: [ClusterNews] {
    var news: [ClusterNews] = []
    if let misses, !misses.isEmpty { news.append(.guessesMissed(misses)) }
    if gone == true { news.append(.nodeGone(node)) }
    let changes = rows.compactMap { $0.change(node: node, url: url, link: link) }
    if !changes.isEmpty { news.append(.changes(node: node, changes)) }
    return news
  }
}
