/// An arena's games: who plays whom (the pairing pass), what a game's result is worth, and the
/// standings.
extension Arena {
  /// How a game ended for one of its players.
  public enum Outcome: Hashable, Sendable {
    case won, drawn, lost
  }

  /// A finished game's result: each player's rank (1 the best; ties share it). A player who
  /// left during the game is ranked last by the table (their game is lost).
  public struct GameResult: Hashable, Sendable {
    /// The game's table.
    public var table: String
    /// Each player's rank.
    public var ranks: [String: Int]

    /// A result.
    public init(table: String, ranks: [String: Int]) {
      self.table = table
      self.ranks = ranks
    }

    /// What the game was for `player`: won alone at rank 1, drawn when rank 1 is shared, lost
    /// otherwise.
    public func outcome(of player: String) -> Outcome {
      guard ranks[player] == 1 else { return .lost }
      return ranks.values.count { $0 == 1 } == 1 ? .won : .drawn
    }
  }

  /// One row of the standings.
  public struct Standing: Hashable, Sendable {
    public var rank: Int
    /// Their number in the arena.
    public var number: Int
    public var player: String
    public var name: String
    public var points: Int
    public var played: Int
    public var won: Int
    /// Whether their next win counts double (two wins in a row or more).
    public var onFire: Bool
    /// Whether they left.
    public var left: Bool
    /// Whether they are in a game now.
    public var playing: Bool
  }

  /// Points for a game: 2 for a win, 1 for a draw, 0 for a loss; after two wins in a row, a
  /// win counts double until the streak breaks (the streak before this game: `streak`).
  public static func points(for outcome: Outcome, streak: Int) -> Int {
    switch outcome {
    case .won: streak >= 2 ? 4 : 2
    case .drawn: 1
    case .lost: 0
    }
  }

  /// The players free to play now, in no particular order.
  var freePlayers: [Entrant] {
    entrants.values.filter { !$0.left && $0.table == nil && $0.freeSince != nil }
  }

  /// When the next pairing pass is due: the pairing wait after the first free player became
  /// free, while the arena takes new games (before its end) and enough are free for a game.
  public func nextPairing(now: Double) -> Double? {
    guard now < ends else { return nil }
    let free = freePlayers
    guard free.count >= seats, let first = free.compactMap(\.freeSince).min() else { return nil }
    return max(starts, first + Self.pairingWait)
  }

  /// The pairing pass at `now`: every free player goes to a game with the free players nearest
  /// them in points, then rating (groups of ``seats`` in that order; who is left over waits for
  /// the next pass). Two who just played each other are kept apart when the next group allows
  /// a swap. Returns the groups, in order, each in seat order; their players are in a game from
  /// now (``started(table:players:)`` names its table).
  public mutating func pair(now: Double, available: (Entrant) -> Bool = { _ in true }) -> [[String]]
  {
    guard now < ends, now >= starts else { return [] }
    var order = freePlayers.filter(available).sorted {
      ($0.points, $0.rating, $1.player) > ($1.points, $1.rating, $0.player)
    }.map(\.player)
    var groups: [[String]] = []
    var index = 0
    while index + seats <= order.count {
      if seats == 2, index + 2 < order.count,
        entrants[order[index]]?.lastOpponents.contains(order[index + 1]) == true
      {
        order.swapAt(index + 1, index + 2)
      }
      let group = Array(order[index..<index + seats])
      for player in group {
        entrants[player]?.table = ""
        entrants[player]?.freeSince = nil
      }
      groups.append(group)
      index += seats
    }
    return groups
  }

  /// A pairing of `players` could not be seated: they are free again.
  public mutating func unpair(_ players: [String]) {
    for player in players {
      guard var entrant = entrants[player], entrant.table == "" else { continue }
      entrant.table = nil
      entrant.freeSince = entrant.left ? nil : starts
      entrants[player] = entrant
    }
  }

  /// The game of `players` (a pairing) is at `table`.
  public mutating func started(table: String, players: [String]) {
    games[table] = players
    for player in players { entrants[player]?.table = table }
  }

  /// A game ended: each player's points, streak and counts follow its result, and those still
  /// in the arena are free again (while it takes new games). Returns whether it was one of the
  /// arena's games.
  @discardableResult
  public mutating func record(_ result: GameResult, now: Double) -> Bool {
    guard let players = games.removeValue(forKey: result.table) else { return false }
    for player in players {
      guard var entrant = entrants[player] else { continue }
      let outcome = result.outcome(of: player)
      entrant.points += Self.points(for: outcome, streak: entrant.streak)
      entrant.streak = outcome == .won ? entrant.streak + 1 : 0
      entrant.played += 1
      if outcome == .won { entrant.won += 1 }
      if outcome == .drawn { entrant.drawn += 1 }
      entrant.table = nil
      entrant.lastOpponents = Set(players.filter { $0 != player })
      entrant.freeSince = entrant.left || now >= ends ? nil : now
      entrants[player] = entrant
    }
    return true
  }

  /// The standings: most points first, then most wins, then fewest games, then name; equal
  /// points, wins and games share a rank.
  public var standings: [Standing] {
    let sorted = entrants.values.sorted {
      ($0.points, $0.won, -$0.played) != ($1.points, $1.won, -$1.played)
        ? ($0.points, $0.won, -$0.played) > ($1.points, $1.won, -$1.played)
        : ($0.name, $0.player) < ($1.name, $1.player)
    }
    var rows: [Standing] = []
    for (index, entrant) in sorted.enumerated() {
      let tied =
        rows.last.map {
          ($0.points, $0.won, $0.played) == (entrant.points, entrant.won, entrant.played)
        } ?? false
      rows.append(
        Standing(
          rank: tied ? rows[rows.count - 1].rank : index + 1, number: entrant.number,
          player: entrant.player, name: entrant.name, points: entrant.points,
          played: entrant.played, won: entrant.won, onFire: entrant.streak >= 2,
          left: entrant.left, playing: entrant.table != nil))
    }
    return rows
  }

  /// The winner, once the arena is finished: the first of the standings (nil when nobody
  /// played).
  public func winner(at now: Double) -> Standing? {
    guard phase(at: now) == .finished else { return nil }
    return standings.first { $0.played > 0 }
  }
}
