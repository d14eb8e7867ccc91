/// The rules a table plays by. Everything here is public knowledge; the seed is not a setting.
public struct GameSettings: Hashable, Sendable, Codable {
  /// What happens to matched cards.
  public enum MatchedCards: String, Hashable, Sendable, Codable {
    /// They leave the board and are replaced from the deck while the board is not over-full (Set).
    case replace
    /// They stay where they are, face up and out of play (Matchismo).
    case keep
  }

  /// Cards dealt face up at the start.
  public var boardSize: Int
  /// How many chosen cards are tried as a match.
  public var matchSize: Int
  /// Points paid for choosing a card (un-choosing is free).
  public var costToChoose: Int
  /// Points lost for a complete selection that does not match.
  public var mismatchPenalty: Int
  /// A match earns the card type's match score times this.
  public var matchBonus: Int
  /// What happens to matched cards.
  public var matchedCards: MatchedCards
  /// Whether more cards are dealt automatically while the board holds no match.
  public var dealsMoreWhenNoMatch: Bool
  /// How many cards such a deal adds.
  public var extraDealSize: Int
  /// How many players sit at the table.
  public var seats: Int

  /// Creates settings; every value is a table setting.
  public init(
    boardSize: Int, matchSize: Int, costToChoose: Int = 1, mismatchPenalty: Int = 2,
    matchBonus: Int = 4, matchedCards: MatchedCards, dealsMoreWhenNoMatch: Bool,
    extraDealSize: Int = 3, seats: Int = 1
  ) {
    self.boardSize = boardSize
    self.matchSize = matchSize
    self.costToChoose = costToChoose
    self.mismatchPenalty = mismatchPenalty
    self.matchBonus = matchBonus
    self.matchedCards = matchedCards
    self.dealsMoreWhenNoMatch = dealsMoreWhenNoMatch
    self.extraDealSize = extraDealSize
    self.seats = seats
  }

  /// Set: 12 cards up, sets of 3 replaced from the deck, 3 more when the board holds no set.
  public static func set(seats: Int = 1) -> GameSettings {
    GameSettings(
      boardSize: 12, matchSize: 3, matchedCards: .replace, dealsMoreWhenNoMatch: true,
      seats: seats)
  }

  /// Matchismo: 24 playing cards, 2-card (or 3-card) matches that stay on the board.
  public static func matchismo(matchSize: Int = 2, seats: Int = 1) -> GameSettings {
    GameSettings(
      boardSize: 24, matchSize: matchSize, matchedCards: .keep, dealsMoreWhenNoMatch: false,
      seats: seats)
  }

  /// Why these settings cannot make a game, or nil when they can.
  public func problem(deckSize: Int) -> String? {
    if seats < 1 { return "a table needs at least one seat" }
    if matchSize < 2 { return "a match needs at least two cards" }
    if boardSize < matchSize || boardSize > deckSize { return "board size out of range" }
    if dealsMoreWhenNoMatch && extraDealSize < 1 { return "extra deal size must be positive" }
    if costToChoose < 0 || mismatchPenalty < 0 || matchBonus < 1 { return "bad scoring constants" }
    return nil
  }
}
