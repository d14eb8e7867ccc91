import Foundation
import Model

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
  /// The high-score list (``ScoreList``); nil: the list of the game's latest finished game
  /// (among the asking player's, with ``mine``).
  public var list: ScoreList?
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
    game: String, list: ScoreList? = nil, sort: ScoresSort = .date, descending: Bool? = nil,
    page: Int = 0, pageSize: Int = ScoresQuery.defaultPageSize, mine: Bool = false,
    player: String? = nil
  ) {
    self.game = game
    self.list = list
    self.sort = sort
    self.descending = descending ?? (sort != .duration)
    self.page = page
    self.pageSize = pageSize
    self.mine = mine
    self.player = player
  }
}

/// One page of one high-score list, with the best score and the shortest game of all of it, and
/// how many games each of the game's lists holds.
public struct ScoresPage: Hashable, Sendable {
  /// The list shown: the one asked for, or the latest game's; nil when none was asked for and
  /// there are no games.
  public var list: ScoreList?
  /// How many games each list of the game holds (the asking player's, with `mine`).
  public var lists: [ScoreList: Int]
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
    list: ScoreList? = nil, lists: [ScoreList: Int] = [:], total: Int, games: [FinishedGame],
    best: FinishedGame? = nil, shortest: FinishedGame? = nil
  ) {
    self.list = list
    self.lists = lists
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
    let theirs = all.filter { game in
      game.game == query.game
        && (!query.mine
          || (query.player != nil && game.players.contains { $0.player == query.player }))
    }
    let lists = theirs.reduce(into: [ScoreList: Int]()) { $0[ScoreList(of: $1), default: 0] += 1 }
    let latest = theirs.max {
      $0.endedAt != $1.endedAt ? $0.endedAt < $1.endedAt : number($0.id) < number($1.id)
    }
    let list = query.list ?? latest.map(ScoreList.init(of:))
    let found = theirs.filter { ScoreList(of: $0) == list }
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
      list: list, lists: lists, total: found.count, games: Array(ordered[start..<end]),
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
              if let rating = player.rating {
                members.append(("rating", .object(rating.wireMembers)))
              }
              if let bot = player.bot { members.append(("bot", ServerMessage.botMark(level: bot))) }
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
        ("game", .string(query.game)), ("list", page.list.map { .string($0.id) } ?? .null),
        (
          "lists",
          .array(
            page.lists.sorted { $0.key < $1.key }.map { list, total in
              var members: [(String, JSONValue)] = [
                ("id", .string(list.id)), ("kind", .string(list.kind)),
                ("scoring", .string(list.scoring)),
              ]
              if let cards = list.cards, let matchSize = list.matchSize {
                members += [("cards", .int(cards)), ("matchSize", .int(matchSize))]
              }
              return .object(members + [("total", .int(total))])
            })
        ),
        ("sort", .string(query.sort.rawValue)),
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
}
