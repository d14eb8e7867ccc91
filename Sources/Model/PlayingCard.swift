/// A card of the standard 52-card deck, matched by the course's rule.
public struct PlayingCard: MatchableCard, CustomStringConvertible {
  /// Suit symbols in id order.
  public static let suits = ["♠", "♥", "♦", "♣"]
  /// Rank names in id order; rank `r` (1...13) is `ranks[r - 1]`.
  public static let ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

  /// Points for two cards of the same suit.
  public static let suitMatchScore = 1
  /// Points for two cards of the same rank: four times the suit score, because a rank match is
  /// four times rarer (3 other cards share a rank, 12 share a suit).
  public static let rankMatchScore = 4

  /// `13 × suit + (rank − 1)`.
  public let id: Int

  /// Creates the card of `rank` (1...13) and `suit` (index into ``suits``).
  public init(rank: Int, suit: Int) {
    precondition((1...13).contains(rank) && Self.suits.indices.contains(suit))
    id = suit * 13 + rank - 1
  }

  /// 1 (ace) ... 13 (king).
  public var rank: Int { id % 13 + 1 }
  /// Index into ``suits``.
  public var suit: Int { id / 13 }

  public var description: String { Self.ranks[rank - 1] + Self.suits[suit] }

  /// All 52 cards, in id order.
  public static let fullDeck: [PlayingCard] = (0..<4).flatMap { suit in
    (1...13).map { PlayingCard(rank: $0, suit: suit) }
  }

  /// The sum, over every pair of `cards`, of the suit score when the suits agree and the rank score
  /// when the ranks agree. Zero means no match.
  public static func matchScore(_ cards: [PlayingCard]) -> Int {
    var score = 0
    for i in cards.indices {
      for j in (i + 1)..<cards.count {
        if cards[i].suit == cards[j].suit { score += suitMatchScore }
        if cards[i].rank == cards[j].rank { score += rankMatchScore }
      }
    }
    return score
  }
}
