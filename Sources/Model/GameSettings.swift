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
  /// Whether cards are dealt face down (Matchismo, Concentration): a card is chosen by its slot
  /// on the board (its identity is secret until it is turned up), choosing turns it up, and it
  /// turns down again when it leaves every selection without being matched.
  public var faceDown: Bool
  /// Whether seats take turns (Concentration): only the seat whose turn it is may choose; a
  /// match keeps the turn, a mismatch (or a ``Move/pass(seat:)``) passes it to the next seat.
  public var turnBased: Bool
  /// After a mismatch, whether the card chosen last stays chosen (the course's rule) or the
  /// whole selection is let go (Set's classic rule, Concentration).
  public var mismatchKeepsNewest: Bool
  /// When positive, every match earns exactly this many points (Set's classic scoring: a set is
  /// a point); when 0, a match earns the card type's match score times ``matchBonus``.
  public var matchPoints: Int
  /// Whether standings rank by matches first, then score (Set's classic), or by score alone.
  public var ranksByMatches: Bool
  /// The card type's variant: Concentration's emoji theme (an index into its themes).
  public var theme: Int

  /// Creates settings; every value is a table setting.
  public init(
    boardSize: Int, matchSize: Int, costToChoose: Int = 1, mismatchPenalty: Int = 2,
    matchBonus: Int = 4, matchedCards: MatchedCards, dealsMoreWhenNoMatch: Bool,
    extraDealSize: Int = 3, seats: Int = 1, faceDown: Bool = false, turnBased: Bool = false,
    mismatchKeepsNewest: Bool = true, matchPoints: Int = 0, ranksByMatches: Bool = false,
    theme: Int = 0
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
    self.faceDown = faceDown
    self.turnBased = turnBased
    self.mismatchKeepsNewest = mismatchKeepsNewest
    self.matchPoints = matchPoints
    self.ranksByMatches = ranksByMatches
    self.theme = theme
  }

  /// How a game's points are counted.
  public enum Scoring: String, Hashable, Sendable, CaseIterable {
    /// What Set players expect: a set is a point, a wrong triple costs one (and lets the whole
    /// selection go), choosing is free, players ranked by sets found.
    case classic
    /// The course's engine: −1 per choice, −2 per mismatch (the newest card stays chosen), a
    /// match earns its score × 4.
    case course
  }

  /// Set: 12 cards up, sets of 3 replaced from the deck, 3 more when the board holds no set.
  /// Scored the course's way unless `scoring` says otherwise.
  public static func set(seats: Int = 1, scoring: Scoring = .course) -> GameSettings {
    var settings = GameSettings(
      boardSize: 12, matchSize: 3, matchedCards: .replace, dealsMoreWhenNoMatch: true,
      seats: seats)
    if scoring == .classic {
      settings.costToChoose = 0
      settings.mismatchPenalty = 1
      settings.matchBonus = 1
      settings.matchPoints = 1
      settings.mismatchKeepsNewest = false
      settings.ranksByMatches = true
    }
    return settings
  }

  /// Set Junior: Set's rules and scoring on its 27 cards, 9 up (any ten cards hold a set, so
  /// a board of 12 would never lack one), 3 more when the board holds no set.
  public static func setJunior(seats: Int = 1, scoring: Scoring = .course) -> GameSettings {
    var settings = set(seats: seats, scoring: scoring)
    settings.boardSize = 9
    return settings
  }

  /// UltraSet: Set's 81 cards and scoring, 12 up, matches of four cards replaced from the deck,
  /// 3 more when the board holds no UltraSet (only a board under ten cards can lack one).
  public static func ultraSet(seats: Int = 1, scoring: Scoring = .course) -> GameSettings {
    var settings = set(seats: seats, scoring: scoring)
    settings.matchSize = 4
    return settings
  }

  /// Set-Chain: Set's 81 cards, board and scoring; each set after the first takes one card of
  /// the one before (the chain: ``SetChainCard``), and 3 more cards come while the board holds
  /// no set the chain allows.
  public static func setChain(seats: Int = 1, scoring: Scoring = .course) -> GameSettings {
    set(seats: seats, scoring: scoring)
  }

  /// Matchismo: 24 playing cards dealt face down, 2-card (or 3-card) matches that stay on the
  /// board, the course's scoring.
  public static func matchismo(matchSize: Int = 2, seats: Int = 1, boardSize: Int = 24)
    -> GameSettings
  {
    GameSettings(
      boardSize: boardSize, matchSize: matchSize, matchedCards: .keep,
      dealsMoreWhenNoMatch: false, seats: seats, faceDown: true)
  }

  /// Concentration: `pairs` pairs of emoji of `theme` face down; seats take turns flipping two;
  /// a pair is a point and keeps the turn; nothing is lost for a miss.
  public static func concentration(pairs: Int = 8, theme: Int = 0, seats: Int = 1)
    -> GameSettings
  {
    GameSettings(
      boardSize: 2 * pairs, matchSize: 2, costToChoose: 0, mismatchPenalty: 0, matchBonus: 1,
      matchedCards: .keep, dealsMoreWhenNoMatch: false, seats: seats, faceDown: true,
      turnBased: true, mismatchKeepsNewest: false, theme: theme)
  }

  /// Whether a player may be shown a match on the board (a hint): only when the cards are face
  /// up; on a face-down board it would show cards nobody has turned up.
  public var offersHints: Bool { !faceDown }

  /// Which preset these settings score like, or nil for constants of their own.
  public var scoring: Scoring? {
    if costToChoose == 0 && mismatchPenalty == 1 && matchPoints == 1 && !mismatchKeepsNewest
      && ranksByMatches
    {
      return .classic
    }
    if costToChoose == 1 && mismatchPenalty == 2 && matchBonus == 4 && matchPoints == 0
      && mismatchKeepsNewest && !ranksByMatches
    {
      return .course
    }
    return nil
  }

  /// Why these settings cannot make a game, or nil when they can.
  public func problem(deckSize: Int) -> String? {
    if seats < 1 { return "a table needs at least one seat" }
    if matchSize < 2 { return "a match needs at least two cards" }
    if boardSize < matchSize || boardSize > deckSize { return "board size out of range" }
    if dealsMoreWhenNoMatch && extraDealSize < 1 { return "extra deal size must be positive" }
    if costToChoose < 0 || mismatchPenalty < 0 || matchBonus < 1 || matchPoints < 0 {
      return "bad scoring constants"
    }
    if turnBased && matchSize != 2 { return "turns are played two cards at a time" }
    if faceDown && matchedCards != .keep { return "face-down cards stay where they are dealt" }
    return nil
  }
}
