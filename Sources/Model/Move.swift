/// One player's intention, as the arbiter applies it. A game is its settings, seed and the ordered
/// list of accepted moves.
public enum Move: Hashable, Sendable, Codable {
  /// Choose the card with this id, or un-choose it if it is already in the seat's selection.
  case choose(seat: Int, card: Int)
  /// Throw the board away and deal a new game, seeded from the current deal's generator.
  case redeal(seat: Int)
  /// The seat whose turn it is gives it up (its time ran out, or it left): its chosen cards
  /// turn back down and the next seat plays. Turn-based games only.
  case pass(seat: Int)

  /// Whether the move is part of play (a choice or a pass), as opposed to a re-deal.
  public var isPlay: Bool {
    if case .redeal = self { return false }
    return true
  }

  /// The seat that made the move.
  public var seat: Int {
    switch self {
    case .choose(let seat, _), .redeal(let seat), .pass(let seat): seat
    }
  }
}

/// Why a move was refused. A refused move changes nothing.
public enum MoveRejection: Error, Hashable, Sendable {
  /// No card of this game has the id.
  case unknownCard(Int)
  /// The card exists but is not on the board (in the deck, or already matched away).
  case cardNotOnTable(Int)
  /// The card is on the board but already matched (games whose matched cards stay).
  case cardAlreadyMatched(Int)
  /// The game has ended; only a re-deal is possible.
  case gameOver
  /// No such seat at this table.
  case unknownSeat(Int)
  /// In a turn-based game, the seat chose (or passed) when it was not its turn.
  case notYourTurn(Int)
  /// A pass in a game without turns.
  case notTurnBased
  /// In a turn-based game, the card is already turned up by this seat (it cannot be taken back).
  case alreadyChosen(Int)
  /// A chained game (Set-Chain): the card is of the chain, and the seat's selection already
  /// holds a card of the chain (a chain match takes exactly one).
  case secondChainCard(Int)
  /// A chained game (Set-Chain): the card is of the board, and the seat's selection already
  /// holds all the board cards a chain match takes, but no card of the chain.
  case chainCardNeeded(Int)
}

/// One row of the final standings.
public struct Standing: Hashable, Sendable, Codable {
  /// The seat.
  public let seat: Int
  /// Its final score.
  public let score: Int
  /// How many matches it made.
  public let matches: Int
  /// 1 for the best score; equal scores share a rank, and the next rank skips accordingly.
  public let rank: Int

  /// Creates a row.
  public init(seat: Int, score: Int, matches: Int, rank: Int) {
    self.seat = seat
    self.score = score
    self.matches = matches
    self.rank = rank
  }

  /// `rows` best first, ranks recomputed among them: by score, or by matches and then score
  /// when `byMatches`; rows that tie share a rank, and the next rank skips accordingly; equal
  /// rows keep seat order.
  public static func ranked(_ rows: [Standing], byMatches: Bool) -> [Standing] {
    func key(_ row: Standing) -> (Int, Int) {
      byMatches ? (row.matches, row.score) : (row.score, 0)
    }
    let sorted = rows.sorted { (key($0).0, key($0).1, -$0.seat) > (key($1).0, key($1).1, -$1.seat) }
    return sorted.map { row in
      let better = rows.filter { key($0) > key(row) }.count
      return Standing(seat: row.seat, score: row.score, matches: row.matches, rank: better + 1)
    }
  }
}

/// What one seat has: its score, its matches and its current selection.
public struct PlayerState: Hashable, Sendable {
  /// The running score (may be negative).
  public internal(set) var score = 0
  /// Matches made.
  public internal(set) var matches = 0
  /// Chosen card ids, in the order chosen.
  public internal(set) var selection: [Int] = []
  /// Cards this seat turned up (face-down games).
  public internal(set) var flips = 0
}

/// Why cards were dealt outside a replacement.
public enum DealReason: String, Hashable, Sendable, Codable {
  /// The board held no match.
  case noMatch
}

/// Something that happened in the game, in the order it happened. Events are what a viewer may
/// see: they never mention the deck's order.
public enum GameEvent<Card: MatchableCard>: Hashable, Sendable {
  /// A card joined the seat's selection.
  case selected(seat: Int, card: Card)
  /// A card left the seat's selection (un-chosen, mismatched, or taken by another seat's match).
  case deselected(seat: Int, card: Card)
  /// The seat's selection matched and earned `points`; those cards leave every selection.
  case matched(seat: Int, cards: [Card], points: Int)
  /// The seat's complete selection did not match and cost `penalty`.
  case mismatched(seat: Int, cards: [Card], penalty: Int)
  /// The seat's score is now `score`.
  case scored(seat: Int, score: Int)
  /// `board[slot]` is now `card`.
  case replaced(slot: Int, card: Card)
  /// These cards left the board; the rest keep their order.
  case removed([Card])
  /// These cards were added at the end of the board.
  case dealt([Card], reason: DealReason)
  /// The deck holds this many cards.
  case deckCount(Int)
  /// A new game: this board, every selection empty, every score zero.
  case redealt(board: [Card], deckCount: Int)
  /// The game ended with these standings, best first.
  case ended([Standing])
  /// The seat turned `card` face up by choosing it (face-down games).
  case turnedUp(seat: Int, card: Card)
  /// These cards turned face down again (face-down games).
  case turnedDown([Card])
  /// It is now this seat's turn (turn-based games).
  case turn(seat: Int)
  /// The chain is now these cards: the match just made (chained games only; a re-deal empties
  /// the chain without this event).
  case chained([Card])
}
