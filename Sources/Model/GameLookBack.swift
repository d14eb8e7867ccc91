/// A look back at a game played to its end: for each match, who made it, when, and how long it
/// had been there to be found; the matches that were on the board and nobody took, and for how
/// long; each seat's reaction times. Made by playing the game's moves again. In a chained game
/// (Set-Chain) a match is there only while it may be claimed: one card of the chain with the
/// rest from the board (``CardMatchingGame/claimableMatches``); a new chain ends the old one's.
///
/// "There to be found" needs the board to be seen: for a game dealt face up (Set) a match is
/// there from the moment its last card arrived on the board. On a face-down board nothing can
/// be seen until it is turned up, so there a match's time is the time since the previous match
/// (or the start), and nothing is counted as missed.
public struct GameLookBack: Hashable, Sendable {
  /// A match made.
  public struct Found: Hashable, Sendable {
    /// The seat that made it.
    public var seat: Int
    /// Its cards' ids (in the full deck), ascending.
    public var cards: [Int]
    /// Seconds into the game when it was made.
    public var at: Double
    /// Seconds it was there to be found (see the type's note).
    public var seconds: Double
  }

  /// A match that was on the board and left it untaken (one of its cards went in another
  /// match, or the board was dealt again).
  public struct Missed: Hashable, Sendable {
    /// Its cards' ids, ascending.
    public var cards: [Int]
    /// Seconds into the game when it was complete on the board.
    public var from: Double
    /// Seconds into the game when it was no longer.
    public var until: Double
    /// How long it was there: `until - from`.
    public var seconds: Double { until - from }
  }

  /// One seat's reaction times: how long its matches had been there when it made them.
  public struct Reactions: Hashable, Sendable {
    /// The seat.
    public var seat: Int
    /// Its matches' times, in the order made.
    public var seconds: [Double]
    /// The quickest, or nil without a match.
    public var fastest: Double? { seconds.min() }
    /// The mean, or nil without a match.
    public var mean: Double? {
      seconds.isEmpty ? nil : seconds.reduce(0, +) / Double(seconds.count)
    }
  }

  /// Whether the board was seen (dealt face up): what ``Found/seconds`` and ``missed`` mean.
  public var boardSeen: Bool
  /// Every match made, in order.
  public var found: [Found] = []
  /// Every match left untaken, in the order they left the board.
  public var missed: [Missed] = []

  /// Each seat's reactions, seat by seat (`seats` of them).
  public func reactions(seats: Int) -> [Reactions] {
    (0..<seats).map { seat in
      Reactions(seat: seat, seconds: found.filter { $0.seat == seat }.map(\.seconds))
    }
  }

  /// The look back at the game of `settings` dealt from `seed`, whose `moves` were made at
  /// `times` (seconds into the game, one per move), or nil when the moves do not replay.
  public static func of<Card: MatchableCard>(
    _: Card.Type, settings: GameSettings, seed: UInt64, moves: [Move], times: [Double]
  ) -> GameLookBack? {
    guard moves.count == times.count else { return nil }
    var game = CardMatchingGame<Card>(settings: settings, seed: seed)
    var tracker = LookBackTracker(game: game)
    for (move, at) in zip(moves, times) {
      guard let events = try? game.apply(move) else { return nil }
      tracker.note(events, in: game, at: at)
    }
    return tracker.lookBack
  }
}
