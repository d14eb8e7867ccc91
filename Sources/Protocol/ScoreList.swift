import Model

/// Which high-score list a finished game belongs to: only games whose scores can be compared
/// share one. A game's list is who played (one player, several people, or people against
/// computer players: those games are never ranked with people's), how its points were counted
/// (``GameSettings/Scoring``, or `custom`) and, for a game played on one board to the end
/// (matched cards stay: Matchismo, Concentration), how many cards were dealt and how many make
/// a match, since the points there grow with the board. The board size of Set and its variants
/// (Set Junior, UltraSet, Set-Chain: matched cards replaced) does not enter: the whole deck is played
/// whatever the board shows. Lists are per game (``ScoresQuery/game``).
///
/// A daily puzzle's games (everyone's same deal, played once) have lists of their own, `daily`,
/// never ranked with other solo games.
///
/// Its id is what `scores` takes and answers as `list`: `solo.course`, `multiplayer.classic`,
/// `solo.course.24x2` (Matchismo, 24 cards, pairs), `multiplayer.custom.16x2` (Concentration,
/// 8 pairs), `computer.classic` (against the computer), `daily.course` (the daily puzzle).
public struct ScoreList: Hashable, Sendable, Comparable {
  /// Played alone, or by two or more.
  public var solo: Bool
  /// A daily puzzle's game (then ``solo``, and never ``computers``).
  public var daily: Bool
  /// Computer players sat at it (then never ``solo``).
  public var computers: Bool
  /// `classic`, `course` or `custom` (constants of its own: Concentration's).
  public var scoring: String
  /// The cards dealt, for a game played on one board; nil for Set's kind of game (Set, Set
  /// Junior, UltraSet, Set-Chain).
  public var cards: Int?
  /// How many cards make a match, with ``cards``.
  public var matchSize: Int?

  /// The scorings a list can name.
  public static let scorings = ["classic", "course", "custom"]

  /// Creates a list.
  public init(
    solo: Bool, scoring: String, cards: Int? = nil, matchSize: Int? = nil, computers: Bool = false,
    daily: Bool = false
  ) {
    self.solo = (solo || daily) && !computers
    self.computers = computers
    self.daily = daily && !computers
    self.scoring = scoring
    self.cards = cards
    self.matchSize = matchSize
  }

  /// The list of a game played by `players` seats under `settings`, computers among them or
  /// not.
  public init(
    settings: GameSettings, players: Int, computers: Bool = false, daily: Bool = false
  ) {
    let board = settings.matchedCards == .keep
    self.init(
      solo: players <= 1, scoring: settings.scoring?.rawValue ?? "custom",
      cards: board ? settings.boardSize : nil, matchSize: board ? settings.matchSize : nil,
      computers: computers, daily: daily)
  }

  /// The list of a finished game.
  public init(of game: FinishedGame) {
    self.init(
      settings: game.settings, players: game.players.count,
      computers: game.players.contains { $0.bot != nil }, daily: game.dailyDayAndWho != nil)
  }

  /// Who played, as the id's first part says it: `solo`, `daily`, `multiplayer` or `computer`.
  public var kind: String {
    computers ? "computer" : daily ? "daily" : solo ? "solo" : "multiplayer"
  }

  /// The kinds an id can start with, in the order lists are shown.
  public static let kinds = ["solo", "daily", "multiplayer", "computer"]

  /// Reads an id (`solo.course`, `multiplayer.custom.16x2`), or nil when it is not one.
  public init?(id: String) {
    let parts = id.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3,
      Self.kinds.contains(String(parts[0])),
      Self.scorings.contains(String(parts[1]))
    else { return nil }
    var cards: Int?
    var matchSize: Int?
    if parts.count == 3 {
      let size = parts[2].split(separator: "x", omittingEmptySubsequences: false)
      guard size.count == 2, let n = Self.number(size[0]), let m = Self.number(size[1]) else {
        return nil
      }
      (cards, matchSize) = (n, m)
    }
    self.init(
      solo: parts[0] == "solo", scoring: String(parts[1]), cards: cards, matchSize: matchSize,
      computers: parts[0] == "computer", daily: parts[0] == "daily")
  }

  /// A count of 1–999 written plainly (no sign, no leading zero).
  private static func number(_ text: Substring) -> Int? {
    guard (1...3).contains(text.count), text.first != "0", text.allSatisfy(\.isASCIIDigit)
    else { return nil }
    return Int(text)
  }

  /// Its id: what a store keeps in its `list` column and `scores` names.
  public var id: String {
    var id = "\(kind).\(scoring)"
    if let cards, let matchSize { id += ".\(cards)x\(matchSize)" }
    return id
  }

  /// Solo before the daily puzzle before multiplayer before against the computer, then by
  /// scoring, then the smaller board first.
  public static func < (a: ScoreList, b: ScoreList) -> Bool {
    if a.kind != b.kind {
      return (Self.kinds.firstIndex(of: a.kind) ?? 0) < (Self.kinds.firstIndex(of: b.kind) ?? 0)
    }
    if a.scoring != b.scoring { return a.scoring < b.scoring }
    if a.cards != b.cards { return (a.cards ?? 0) < (b.cards ?? 0) }
    return (a.matchSize ?? 0) < (b.matchSize ?? 0)
  }
}

extension ScoreList {
  /// The statement (SQLite's and PostgreSQL's alike) that moves the daily puzzle's games kept
  /// before they had lists of their own from `solo.…` to `daily.…`.
  public static let dailyListsMigration = """
    UPDATE finished_game SET list = 'daily' || substr(list, 5)
    WHERE substr(source, 1, 6) = 'daily:' AND substr(list, 1, 5) = 'solo.'
    """
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
