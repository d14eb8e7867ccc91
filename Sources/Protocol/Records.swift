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
  /// What was said at the table during the game (of its last lines of chat), `at` seconds
  /// into it; nil in a record kept before chat.
  public var chat: [ChatLine]?
  /// Whether the game counts for its players' ratings (``ratedPlayers``): a game of two or
  /// more players at a public table; nil in a record kept before ratings.
  public var rated: Bool?

  /// Creates a record.
  public init(
    id: String = "", game: String, settings: GameSettings, seed: UInt64,
    showSelections: Bool = true, players: [FinishedPlayer], moves: [FinishedMove],
    seconds: Double, endedAt: Double = 0, source: String = "", chat: [ChatLine]? = nil,
    rated: Bool? = nil
  ) {
    self.rated = rated
    self.chat = chat
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
  /// What the game did to the player's rating, when it was rated: filled in when the game is
  /// read back (the store keeps it beside the record, not in it).
  public var rating: RatingChange?
  /// A computer player's level (``BotLevel/name``); nil for a person.
  public var bot: String?

  /// Creates a row.
  public init(
    seat: Int, name: String, score: Int, matches: Int, mistakes: Int, rank: Int,
    player: String? = nil, bot: String? = nil
  ) {
    self.bot = bot
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

extension ServerMessage {
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
            .object(
              [
                ("seat", .int($0.seat)), ("name", .string($0.name)), ("score", .int($0.score)),
                ("matches", .int($0.matches)), ("mistakes", .int($0.mistakes)),
                ("rank", .int($0.rank)),
              ] + ($0.rating.map { [("rating", .object($0.wireMembers))] } ?? [])
                + ($0.bot.map { [("bot", ServerMessage.botMark(level: $0))] } ?? []))
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
      ("chat", chatLines(game.chat ?? [], timed: true)),
    ])
  }

  /// The `record` answer: the game, its look back (``lookBack(_:seats:daily:)``; null when
  /// there is none) and its replay (the table when play began, as a snapshot's `table`, and the
  /// diff each move made). The look back and the diffs go in as they were encoded.
  public static func record(
    _ game: FinishedGame, lookBack: EncodedJSON? = nil, table: JSONValue, diffs: [Frame],
    replyTo: MessageID?
  ) -> Frame {
    Frame { out in
      object("record", replyTo: replyTo, [("record", finishedGame(game))]).write(to: &out)
      // The message's closing brace makes way for the look back and the replay.
      out.removeLast()
      out += #","lookBack":"#.utf8
      if let lookBack { out += lookBack.bytes } else { out += "null".utf8 }
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
