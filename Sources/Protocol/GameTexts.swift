/// The sentences a client says about a game's matches, made here once from the game's
/// ``MatchWords`` and match size so that no client writes them (or gets them wrong): a hint's
/// two steps and its "none", what a course-scored miss leaves chosen, and, when matches chain,
/// the chain's two notes.
public struct GameTexts: Hashable, Sendable {
  /// A hint that outlines one card of a match.
  public var hintOne: String
  /// A hint that outlines two.
  public var hintTwo: String
  /// A hint on a board without a match.
  public var hintNone: String
  /// After a miss that keeps the card chosen last (the course's rule), by match size.
  public var kept: [Int: String]
  /// While a chain game has no chain yet (nil: matches do not chain).
  public var chainStart: String?
  /// The chain's rule in a line (nil: matches do not chain).
  public var chainRule: String?

  /// The texts of a game whose matches are `match`, of `matchSize` cards (`matchSizes`: every
  /// size a table may choose), chained when `chain`.
  public init(match: MatchWords, matchSize: Int, matchSizes: [Int], chain: Bool) {
    let named = chain ? "chain \(match.one)" : match.one
    let aNamed = chain ? "a chain \(match.one)" : match.aMatch
    hintOne =
      "Hint: the outlined card is part of \(aNamed). Hints are free. Ask again for a second card."
    switch matchSize - 2 {
    case ...0: hintTwo = "Hint: the two outlined cards are \(aNamed). Hints are free."
    case 1:
      hintTwo =
        "Hint: the two outlined cards are part of \(aNamed); find the third. Hints are free."
    case let rest:
      hintTwo =
        "Hint: the two outlined cards are part of \(aNamed); find the other"
        + " \(MatchWords.number(rest)). Hints are free."
    }
    hintNone = "No \(named) on this board."
    var kept: [Int: String] = [:]
    for size in Set(matchSizes + [matchSize]) {
      kept[size] =
        "No \(match.one). Your last card stays chosen (course rules): pick"
        + " \(MatchWords.number(size - 1)) more to go with it, or click it to let it go."
    }
    self.kept = kept
    chainStart = chain ? "The first \(match.one) starts the chain." : nil
    chainRule =
      chain
      ? "Each \(match.one): one card of the chain and \(MatchWords.number(matchSize - 1)) of the table."
      : nil
  }

  /// As `welcome` sends them; `kept` keyed by match size.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [
      ("hintOne", .string(hintOne)), ("hintTwo", .string(hintTwo)),
      ("hintNone", .string(hintNone)),
      (
        "kept", .object(kept.sorted { $0.key < $1.key }.map { (String($0.key), .string($0.value)) })
      ),
    ]
    if let chainStart { members.append(("chainStart", .string(chainStart))) }
    if let chainRule { members.append(("chainRule", .string(chainRule))) }
    return .object(members)
  }
}
