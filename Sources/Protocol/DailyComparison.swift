/// How one player's daily puzzle result compares with everyone's that day: the look back's part
/// for the daily puzzle. Everyone played the same deal, so their numbers compare directly.
public struct DailyComparison: Hashable, Sendable {
  /// The player's place on the day's board (``DailyBoard``), and how many results it holds.
  public var place: Int
  public var total: Int
  /// Of the others, the share (0–100, rounded down) the player beat on each count: took longer,
  /// made more mistakes, found fewer matches, were slower per match. Nil when nobody else
  /// played.
  public var quickerThan: Int?
  public var fewerMistakesThan: Int?
  public var moreMatchesThan: Int?
  public var fasterPaceThan: Int?
  /// The day's medians (everyone's results, the player's included).
  public var medianSeconds: Double
  public var medianMistakes: Double
  public var medianMatches: Double
  /// The player's seconds per match, and the day's median of it (nil without a match).
  public var pace: Double?
  public var medianPace: Double?

  /// The result of `who` on `board` compared with the others', or nil when they have none.
  public init?(board: DailyBoard, who: String) {
    guard let mine = board.results.first(where: { $0.who == who }) else { return nil }
    let others = board.results.filter { $0.who != who }
    func share(_ beaten: (DailyBoard.Result) -> Bool) -> Int? {
      others.isEmpty ? nil : others.filter(beaten).count * 100 / others.count
    }
    func pace(_ result: DailyBoard.Result) -> Double? {
      result.matches > 0 ? result.seconds / Double(result.matches) : nil
    }
    place = mine.place
    total = board.results.count
    quickerThan = share { $0.seconds > mine.seconds }
    fewerMistakesThan = share { $0.mistakes > mine.mistakes }
    moreMatchesThan = share { $0.matches < mine.matches }
    self.pace = pace(mine)
    fasterPaceThan = self.pace.flatMap { own in share { pace($0).map { $0 > own } ?? true } }
    medianSeconds = Self.median(board.results.map(\.seconds)) ?? 0
    medianMistakes = Self.median(board.results.map { Double($0.mistakes) }) ?? 0
    medianMatches = Self.median(board.results.map { Double($0.matches) }) ?? 0
    medianPace = Self.median(board.results.compactMap(pace))
  }

  /// The middle value (the mean of the two middle ones), or nil for none.
  static func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// On the wire: `{"day":…,"place":3,"total":41,"quickerThan":73,…,"median":{…}}`.
  public func json(day: String) -> JSONValue {
    func percent(_ value: Int?) -> JSONValue { value.map { .int($0) } ?? .null }
    func number(_ value: Double?) -> JSONValue {
      value.map { .double(ServerMessage.tenths($0)) } ?? .null
    }
    return .object([
      ("day", .string(day)), ("place", .int(place)), ("total", .int(total)),
      ("quickerThan", percent(quickerThan)), ("fewerMistakesThan", percent(fewerMistakesThan)),
      ("moreMatchesThan", percent(moreMatchesThan)), ("fasterPaceThan", percent(fasterPaceThan)),
      ("pace", number(pace)),
      (
        "median",
        .object([
          ("seconds", number(medianSeconds)), ("mistakes", number(medianMistakes)),
          ("matches", number(medianMatches)), ("pace", number(medianPace)),
        ])
      ),
    ])
  }
}

extension FinishedGame {
  /// The day and player of a daily puzzle's game (its source,
  /// ``dailySource(day:game:who:)``), or nil for any other game.
  public var dailyDayAndWho: (day: String, who: String)? {
    let parts = source.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == "daily", parts[2] == game else { return nil }
    return (String(parts[1]), String(parts[3]))
  }
}
