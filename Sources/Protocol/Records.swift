import Foundation
import Model

/// A finished game as the server keeps it: the rules, the deal's seed and every move with its
/// time — enough to replay it exactly — plus who played and how it ended.
public struct FinishedGame: Hashable, Sendable, Codable {
  /// Its id (`g12`), given by the store when it is kept; empty before.
  public var id: String
  /// The game's wire name.
  public var game: String
  /// The rules.
  public var settings: GameSettings
  /// The deal's seed (secret while the game was live).
  public var seed: UInt64
  /// Whether players saw each other's selections.
  public var showSelections: Bool
  /// The seats that played, in standings order.
  public var players: [FinishedPlayer]
  /// Every accepted move of the deal, in order.
  public var moves: [FinishedMove]
  /// How long play lasted, in seconds.
  public var seconds: Double
  /// When the game ended (seconds since 1970, UTC); stamped when the record is written.
  public var endedAt: Double
  /// Where it was played: the table's id and the deal's number (`t12#3`). Unique: a store
  /// keeps one game per source, so a batch written twice (a retry) keeps it once.
  public var source: String

  /// Creates a record.
  public init(
    id: String = "", game: String, settings: GameSettings, seed: UInt64,
    showSelections: Bool = true, players: [FinishedPlayer], moves: [FinishedMove],
    seconds: Double, endedAt: Double = 0, source: String = ""
  ) {
    self.source = source
    self.id = id
    self.game = game
    self.settings = settings
    self.seed = seed
    self.showSelections = showSelections
    self.players = players
    self.moves = moves
    self.seconds = seconds
    self.endedAt = endedAt
  }

  /// The game's score: its best player's.
  public var score: Int { players.map(\.score).max() ?? 0 }

  /// The engine's record of the deal: what ``CardMatchingGame/replay(_:)`` plays again.
  public var gameRecord: GameRecord {
    GameRecord(settings: settings, seed: seed, moves: moves.map(\.move))
  }
}

/// One seat of a finished game.
public struct FinishedPlayer: Hashable, Sendable, Codable {
  /// The seat.
  public var seat: Int
  /// The name it played under.
  public var name: String
  /// The final score.
  public var score: Int
  /// Matches made.
  public var matches: Int
  /// Mismatches made.
  public var mistakes: Int
  /// 1 for the best; ties share a rank.
  public var rank: Int
  /// The hash of the person's player token (`hello`'s `player`), or nil. Never sent.
  public var player: String?

  /// Creates a row.
  public init(
    seat: Int, name: String, score: Int, matches: Int, mistakes: Int, rank: Int,
    player: String? = nil
  ) {
    self.seat = seat
    self.name = name
    self.score = score
    self.matches = matches
    self.mistakes = mistakes
    self.rank = rank
    self.player = player
  }
}

/// One move of a finished game and when it was made.
public struct FinishedMove: Hashable, Sendable, Codable {
  /// The move.
  public var move: Move
  /// Seconds since play began.
  public var at: Double

  /// Creates a timed move.
  public init(_ move: Move, at: Double) {
    self.move = move
    self.at = at
  }
}

/// How a page of finished games is ordered.
public enum ScoresSort: String, Hashable, Sendable, CaseIterable {
  /// When the game ended.
  case date
  /// The game's best score.
  case score
  /// How long play lasted.
  case duration
}

/// A `scores` request: which games, in what order, which page.
public struct ScoresQuery: Hashable, Sendable {
  /// The game's wire name.
  public var game: String
  /// The order.
  public var sort: ScoresSort
  /// Highest (latest, longest) first.
  public var descending: Bool
  /// The page, from 0.
  public var page: Int
  /// Games per page.
  public var pageSize: Int
  /// Only the games the asking player sat in.
  public var mine: Bool
  /// The asking player (hash of their token), filled in by the lobby: marks their games, and
  /// with ``mine`` keeps only those. Nil: a player without a token.
  public var player: String?

  /// The page sizes a client may ask for.
  public static let pageSizes = 1...50
  /// The page size when none is asked for.
  public static let defaultPageSize = 20

  /// Creates a query.
  public init(
    game: String, sort: ScoresSort = .date, descending: Bool? = nil, page: Int = 0,
    pageSize: Int = ScoresQuery.defaultPageSize, mine: Bool = false, player: String? = nil
  ) {
    self.game = game
    self.sort = sort
    self.descending = descending ?? (sort != .duration)
    self.page = page
    self.pageSize = pageSize
    self.mine = mine
    self.player = player
  }
}

/// One page of finished games, with the best score and the shortest game of all of them.
public struct ScoresPage: Hashable, Sendable {
  /// How many games the query finds in all.
  public var total: Int
  /// The page's games, in order.
  public var games: [FinishedGame]
  /// The game with the best score (the first to reach it), or nil when there are none.
  public var best: FinishedGame?
  /// The shortest game (the first of that length), or nil when there are none.
  public var shortest: FinishedGame?

  /// Creates a page.
  public init(
    total: Int, games: [FinishedGame], best: FinishedGame? = nil, shortest: FinishedGame? = nil
  ) {
    self.total = total
    self.games = games
    self.best = best
    self.shortest = shortest
  }

  /// The number in a game id (`g12` → 12), or 0.
  public static func number(_ id: String) -> Int { Int(id.drop { !$0.isNumber }) ?? 0 }

  /// The page `query` asks for among `all` (every finished game kept, any game): what a store
  /// without an index computes, and what an indexed one must agree with.
  public static func select(_ query: ScoresQuery, from all: [FinishedGame]) -> ScoresPage {
    let found = all.filter { game in
      game.game == query.game
        && (!query.mine
          || (query.player != nil && game.players.contains { $0.player == query.player }))
    }
    let ordered = found.sorted { a, b in
      let (x, y) = query.descending ? (b, a) : (a, b)
      switch query.sort {
      case .date: if x.endedAt != y.endedAt { return x.endedAt < y.endedAt }
      case .score: if x.score != y.score { return x.score < y.score }
      case .duration: if x.seconds != y.seconds { return x.seconds < y.seconds }
      }
      // Ties: the later game first, whatever the order, so that pages do not overlap.
      return a.endedAt != b.endedAt ? a.endedAt > b.endedAt : number(a.id) > number(b.id)
    }
    let start = min(ordered.count, query.page * query.pageSize)
    let end = min(ordered.count, start + query.pageSize)
    let byTime = found.sorted {
      $0.endedAt != $1.endedAt ? $0.endedAt < $1.endedAt : number($0.id) < number($1.id)
    }
    return ScoresPage(
      total: found.count, games: Array(ordered[start..<end]),
      best: byTime.max { $0.score < $1.score }.map { best in
        byTime.first { $0.score == best.score }!
      },
      shortest: byTime.min { $0.seconds < $1.seconds }.map { shortest in
        byTime.first { $0.seconds == shortest.seconds }!
      })
  }
}

extension ServerMessage {
  /// The `scores` answer: `page` of `query`.
  public static func scores(_ page: ScoresPage, query: ScoresQuery, replyTo: MessageID?)
    -> JSONValue
  {
    func mine(_ game: FinishedGame) -> Bool {
      query.player != nil && game.players.contains { $0.player == query.player }
    }
    let games: [JSONValue] = page.games.map { game in
      .object([
        ("id", .string(game.id)), ("endedAt", .string(isoDate(game.endedAt))),
        ("seconds", .double(tenths(game.seconds))), ("seats", .int(game.settings.seats)),
        ("score", .int(game.score)), ("mine", .bool(mine(game))),
        (
          "players",
          .array(
            game.players.map { player in
              var members: [(String, JSONValue)] = [
                ("name", .string(player.name)), ("score", .int(player.score)),
                ("matches", .int(player.matches)), ("rank", .int(player.rank)),
              ]
              if query.player != nil && player.player == query.player {
                members.append(("you", .bool(true)))
              }
              return .object(members)
            })
        ),
      ])
    }
    return object(
      "scores", replyTo: replyTo,
      [
        ("game", .string(query.game)), ("sort", .string(query.sort.rawValue)),
        ("order", .string(query.descending ? "desc" : "asc")), ("page", .int(query.page)),
        ("pageSize", .int(query.pageSize)), ("total", .int(page.total)), ("games", .array(games)),
        (
          "best",
          page.best.map { .object([("id", .string($0.id)), ("score", .int($0.score))]) } ?? .null
        ),
        (
          "shortest",
          page.shortest.map {
            .object([("id", .string($0.id)), ("seconds", .double(tenths($0.seconds)))])
          } ?? .null
        ),
      ])
  }

  /// A finished game as the `record` answer and an export carry it: everything a replay needs
  /// (the full rules, the seed, every move with its card's id in the full deck) and how it
  /// ended.
  public static func finishedGame(_ game: FinishedGame) -> JSONValue {
    // Parsed with its keys sorted: the same game is the same bytes every time.
    let rules = (try? JSONEncoder().encode(game.settings)).flatMap { JSONValue.parse(Array($0)) }
    return .object([
      ("id", .string(game.id)), ("game", .string(game.game)),
      ("settings", settings(game.settings, selectionsHidden: !game.showSelections)),
      ("rules", rules ?? .null), ("seed", .string(String(game.seed))),
      ("startedAt", .string(isoDate(game.endedAt - game.seconds))),
      ("endedAt", .string(isoDate(game.endedAt))), ("seconds", .double(tenths(game.seconds))),
      (
        "players",
        .array(
          game.players.map {
            .object([
              ("seat", .int($0.seat)), ("name", .string($0.name)), ("score", .int($0.score)),
              ("matches", .int($0.matches)), ("mistakes", .int($0.mistakes)),
              ("rank", .int($0.rank)),
            ])
          })
      ),
      (
        "moves",
        .array(
          game.moves.map { timed in
            var members: [(String, JSONValue)] = [("seat", .int(timed.move.seat))]
            switch timed.move {
            case .choose(_, let card): members.append(("card", .int(card)))
            case .redeal: members.append(("redeal", .bool(true)))
            case .pass: members.append(("pass", .bool(true)))
            }
            members.append(("at", .double(tenths(timed.at))))
            return .object(members)
          })
      ),
    ])
  }

  /// The `record` answer: the game, and its replay (the table when play began, as a
  /// snapshot's `table`, and the diff each move made). The diffs go in as they were encoded.
  public static func record(
    _ game: FinishedGame, table: JSONValue, diffs: [Frame], replyTo: MessageID?
  ) -> Frame {
    Frame { out in
      object("record", replyTo: replyTo, [("record", finishedGame(game))]).write(to: &out)
      // The message's closing brace makes way for the replay.
      out.removeLast()
      out += #","replay":{"table":"#.utf8
      table.write(to: &out)
      out += #","diffs":["#.utf8
      for (index, diff) in diffs.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        diff.appendPayload(to: &out)
      }
      out += "]}}".utf8
    }
  }

  /// `seconds` since 1970 as ISO 8601 in UTC, to the second.
  static func isoDate(_ seconds: Double) -> String {
    var time = time_t(seconds.rounded(.down))
    var parts = tm()
    gmtime_r(&time, &parts)
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }

  /// `seconds` to one decimal.
  static func tenths(_ seconds: Double) -> Double { (seconds * 10).rounded() / 10 }
}
