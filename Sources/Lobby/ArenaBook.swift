/// Every arena this node holds, and who follows them: the connections that get each arena's
/// standings (beside its entrants'), those that watch its featured game, the tables its games
/// are at, and when each arena's standings last went out. The lobby's books on arenas, kept in
/// one place; the rules are ``Arena``'s.
public struct ArenaBook: Sendable {
  /// The arenas, by id: upcoming, running and the latest finished (at most ``finishedKept``).
  var arenas: [String: Arena] = [:]
  /// Finished arenas, oldest first.
  var finished: [String] = []
  /// Connections that follow an arena's standings without playing in it (one arena each).
  var followers: [String: Set<ConnectionID>] = [:]
  var following: [ConnectionID: String] = [:]
  /// Connections that watch an arena's featured game (one arena each), and the table each
  /// watches now.
  var featuring: [ConnectionID: (arena: String, table: String)] = [:]
  /// The arena of every table that plays one of its games.
  var tables: [String: String] = [:]
  /// Arenas whose standings changed since they last went out, and when they last went out.
  var changed: Set<String> = []
  var flushedAt: [String: Double] = [:]
  /// When each arena's last pairing pass ran (lobby time).
  var pairedAt: [String: Double] = [:]
  /// The schedule's next arena has been opened up to this start (wall time).
  var scheduledUpTo: Double?

  /// Finished arenas kept in memory, for the list.
  public static let finishedKept = 10
  /// Seconds between two sendings of an arena's standings (at most 4 a second).
  static let standingsInterval = 0.25
  /// Most rows of the standings a message carries (the asker's own row besides).
  static let standingsShown = 100

  /// The arena with invite code `code`, if any.
  func arena(withCode code: String) -> Arena? {
    arenas.values.first { $0.code == code && !$0.code.isEmpty }
  }

  /// `connection` follows arena `id` (and no other).
  mutating func follow(_ id: String, by connection: ConnectionID) {
    unfollow(connection)
    followers[id, default: []].insert(connection)
    following[connection] = id
  }

  /// `connection` follows no arena, and watches no featured game.
  mutating func unfollow(_ connection: ConnectionID) {
    if let id = following.removeValue(forKey: connection) {
      followers[id]?.remove(connection)
      if followers[id]?.isEmpty == true { followers[id] = nil }
    }
  }

  /// An arena finished: kept for the list, the oldest finished one let go past the bound.
  /// Returns those let go.
  @discardableResult
  mutating func finish(_ id: String) -> [String] {
    guard !finished.contains(id) else { return [] }
    finished.append(id)
    var gone: [String] = []
    while finished.count > Self.finishedKept {
      let old = finished.removeFirst()
      gone.append(old)
      arenas[old] = nil
      for connection in followers.removeValue(forKey: old) ?? [] { following[connection] = nil }
      flushedAt[old] = nil
      pairedAt[old] = nil
      changed.remove(old)
    }
    return gone
  }
}

extension Arena {
  /// What a store reads back of `arenas`: those not over, and the latest ones over
  /// (``ArenaBook/finishedKept``), by end.
  public static func kept(_ arenas: [Arena]) -> [Arena] {
    let open = arenas.filter { !$0.closed }
    let over = arenas.filter(\.closed).sorted { ($0.ends, $0.id) > ($1.ends, $1.id) }
      .prefix(ArenaBook.finishedKept)
    return (open + over).sorted { ($0.ends, $0.id) < ($1.ends, $1.id) }
  }
}
