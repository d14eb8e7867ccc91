import Foundation

/// Ratings for games of two or more players: Elo, taken pairwise. A game of n players is read
/// as the n·(n−1)/2 duels it holds: each pair's better-ranked player won that duel (a shared
/// rank is a draw). Each player's change is the mean of their duels' Elo changes times K, so a
/// game moves a rating about as much however many sat at the table, and with every K equal the
/// changes sum to zero (what one gains, the others lose).
///
/// Why pairwise: it needs nothing but the ranks a game already has, it is Elo exactly for two
/// players, and it is the multi-player generalisation most rating tables use (it treats places
/// as independent duels, which overcounts a little when one player beats many at once; the
/// mean over the duels keeps that in check).
///
/// A player's first ``provisionalGames`` games are provisional: their K is higher
/// (``provisionalK``), so that a new player finds their level quickly, and their rating is shown
/// as provisional.
public enum Rating {
  /// Where every player starts.
  public static let initial = 1500.0
  /// How far one game moves an established rating, at most.
  public static let k = 32.0
  /// How far one game moves a provisional rating, at most.
  public static let provisionalK = 64.0
  /// How many games a rating stays provisional.
  public static let provisionalGames = 10

  /// One player going into a game: their rating, how many rated games they had played, and
  /// their rank in this game (1 for the best; equal ranks are a draw).
  public struct Entry: Hashable, Sendable {
    public var rating: Double
    public var games: Int
    public var rank: Int

    public init(rating: Double = Rating.initial, games: Int = 0, rank: Int) {
      self.rating = rating
      self.games = games
      self.rank = rank
    }

    /// Whether the rating is still provisional.
    public var isProvisional: Bool { games < Rating.provisionalGames }
  }

  /// The chance that `a` beats `b` by Elo's curve.
  public static func expected(_ a: Double, against b: Double) -> Double {
    1 / (1 + pow(10, (b - a) / 400))
  }

  /// Each player's change after a game among `entries` (in their order); no change for a game
  /// of fewer than two players.
  public static func changes(_ entries: [Entry]) -> [Double] {
    guard entries.count >= 2 else { return entries.map { _ in 0 } }
    let others = Double(entries.count - 1)
    return entries.indices.map { i in
      var sum = 0.0
      for j in entries.indices where j != i {
        let score: Double =
          entries[i].rank < entries[j].rank ? 1 : entries[i].rank == entries[j].rank ? 0.5 : 0
        sum += score - expected(entries[i].rating, against: entries[j].rating)
      }
      return (entries[i].isProvisional ? provisionalK : k) * sum / others
    }
  }
}
