import Model

/// The daily puzzle's results of one game and UTC day: every player's first game of that day's
/// deal to end, ranked.
public struct DailyBoard: Hashable, Sendable {
  /// One player's result.
  public struct Result: Hashable, Sendable {
    /// 1 for the best; equal results share a place.
    public var place: Int
    /// The name they played under.
    public var name: String
    /// Matches (sets) found.
    public var matches: Int
    /// Mismatches made.
    public var mistakes: Int
    /// How long they took, in seconds.
    public var seconds: Double
    /// Their score.
    public var score: Int
    /// The hash of their player token (or session's), to find the asker's own. Never sent.
    public var who: String
  }

  /// The game's wire name.
  public var game: String
  /// The day, `yyyy-mm-dd` (UTC).
  public var day: String
  /// The results, best first.
  public var results: [Result]

  /// The most results a board answer lists (the asker's own is always there too).
  public static let shown = 100

  /// The board of `games`, the games kept under `game`'s daily sources of `day` (any order):
  /// most matches first, then fewest mistakes, then the quickest; equal on all three share a
  /// place.
  public init(game: String, day: String, games: [FinishedGame]) {
    self.game = game
    self.day = day
    let prefix = FinishedGame.dailySource(day: day, game: game, who: "")
    var rows: [Result] = games.compactMap { kept in
      guard kept.source.hasPrefix(prefix), let player = kept.players.first else { return nil }
      return Result(
        place: 0, name: player.name, matches: player.matches, mistakes: player.mistakes,
        seconds: kept.seconds, score: player.score, who: String(kept.source.dropFirst(prefix.count))
      )
    }
    rows.sort {
      ($1.matches, $0.mistakes, $0.seconds, $0.who) < ($0.matches, $1.mistakes, $1.seconds, $1.who)
    }
    for index in rows.indices {
      let previous = index > 0 ? rows[index - 1] : nil
      let tied =
        previous.map {
          ($0.matches, $0.mistakes, $0.seconds) == (
            rows[index].matches, rows[index].mistakes, rows[index].seconds
          )
        } ?? false
      rows[index].place = tied ? previous!.place : index + 1
    }
    results = rows
  }
}

extension FinishedGame {
  /// The source a daily puzzle's game is kept under: `daily:<day>:<game>:<who>`, `who` being
  /// the player (the hash of their player token, else of their session's). A store keeps one
  /// game per source, so a player's first game of the day to end is their result, whichever
  /// node it was played on.
  public static func dailySource(day: String, game: String, who: String) -> String {
    "daily:\(day):\(game):\(who)"
  }
}

extension ServerMessage {
  /// The `daily` answer: `board`'s first ``DailyBoard/shown`` results and the asker's own
  /// (`you`: their result, or null when they have none), `total` results in all, and whether
  /// the asker has used the day's attempt (`played`: a result kept, or an attempt `started`).
  public static func daily(
    _ board: DailyBoard, who: String?, started: Bool = false, replyTo: MessageID?
  ) -> JSONValue {
    func row(_ result: DailyBoard.Result) -> JSONValue {
      var members: [(String, JSONValue)] = [
        ("place", .int(result.place)), ("name", .string(result.name)),
        ("matches", .int(result.matches)), ("mistakes", .int(result.mistakes)),
        ("seconds", .double(tenths(result.seconds))), ("score", .int(result.score)),
      ]
      if let who, result.who == who { members.append(("you", .bool(true))) }
      return .object(members)
    }
    let mine = who.flatMap { who in board.results.first { $0.who == who } }
    return object(
      "daily", replyTo: replyTo,
      [
        ("game", .string(board.game)), ("day", .string(board.day)),
        ("total", .int(board.results.count)),
        ("results", .array(board.results.prefix(DailyBoard.shown).map(row))),
        ("you", mine.map(row) ?? .null),
        ("played", .bool(started || mine != nil)),
        (
          "compare",
          who.flatMap { DailyComparison(board: board, who: $0) }?.json(day: board.day) ?? .null
        ),
      ])
  }
}
