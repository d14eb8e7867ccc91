import Protocol

/// Arenas across the nodes of a cluster: each arena is held by one node, which publishes it in
/// the cluster's directory as a private row (its id, its code, its summary in the row's
/// `settings`); the other nodes list the public ones and send a request for one to the node
/// that holds it (a `redirect` with an arena role). A node that dies has its arenas taken over
/// with their games' tables (``adopt(_:now:)``).
extension LobbyState {
  /// Whether `id` names an arena (tables are `t` and a number).
  static func isArenaID(_ id: String) -> Bool { id.hasPrefix("a") || id.hasPrefix("s") }

  /// Publishes arena `id`'s row in the cluster's directory (nothing when not a cluster).
  mutating func publishArena(_ id: String, now: Double) {
    guard configuration.cluster, let arena = arenaBook.arenas[id] else { return }
    let phase: TablePhase =
      switch arena.phase(at: wall(now)) {
      case .upcoming: .waiting
      case .running: .playing
      case .finished: .finished
      }
    let listing = TableListing(
      id: id, game: arena.game, seats: arena.seats, seated: arena.entrants.count, spectators: 0,
      phase: phase, node: configuration.nodeID,
      settings: .object([("arena", .object(arena.summary(wall: 0, player: nil)))]))
    if let at = feed.update(listing, code: arena.code, isPrivate: true, now: now) {
      deadlines.schedule(.lobbyFlush, at: at)
    }
  }

  /// Takes arena `id`'s row off the directory.
  mutating func unpublishArena(_ id: String, now: Double) {
    guard configuration.cluster else { return }
    unlist(id, now: now)
  }

  /// Another node's arena row named by `reference`, if the directory has one (by code: any;
  /// by id: a public one).
  func remoteArena(_ reference: ArenaReference) -> TableDirectory.Entry? {
    guard configuration.cluster else { return nil }
    switch reference {
    case .code(let code):
      guard let id = feed.table(withCode: code), Self.isArenaID(id) else { return nil }
      return feed.remoteEntry(id)
    case .id(let id):
      guard Self.isArenaID(id), let entry = feed.remoteEntry(id),
        Self.remoteSummary(entry)?["private"] != .bool(true)
      else { return nil }
      return entry
    }
  }

  /// The other nodes' public arenas as `arenas` lists them at `wall`.
  func remoteArenaSummaries(wall: Double) -> [(starts: Double, summary: JSONValue)] {
    guard configuration.cluster else { return [] }
    return feed.remoteEntries.filter { Self.isArenaID($0.listing.id) }.compactMap { entry in
      guard case .object(var members)? = Self.remoteSummary(entry),
        !members.contains(where: { $0.0 == "private" && $0.1 == .bool(true) }),
        let starts = Self.number(members.first(where: { $0.0 == "starts" })?.1),
        let ends = Self.number(members.first(where: { $0.0 == "ends" })?.1)
      else { return nil }
      for (index, member) in members.enumerated() {
        switch member.0 {
        case "startsIn": members[index].1 = .double(Arena.tenths(starts - wall))
        case "endsIn": members[index].1 = .double(Arena.tenths(ends - wall))
        default: break
        }
      }
      return (starts, .object(members))
    }
  }

  private static func number(_ value: JSONValue?) -> Double? {
    switch value {
    case .double(let d)?: d
    case .int(let i)?: Double(i)
    default: nil
    }
  }

  private static func remoteSummary(_ entry: TableDirectory.Entry) -> JSONValue? {
    entry.listing.settings?["arena"]
  }

  /// In a cluster, the schedule's arena is opened by one node: one that hears another node
  /// publish it while holding it too gives it up when its own id is the greater and nobody has
  /// joined it here yet; the other publishes its row again, so that the directory's is its.
  mutating func yieldScheduledArenas(now: Double) {
    guard configuration.cluster else { return }
    for (id, arena) in arenaBook.arenas where id.hasPrefix("s") {
      guard let node = feed.shadow(of: id)?.listing.node else { continue }
      guard node < configuration.nodeID, arena.entrants.isEmpty else {
        // This node keeps it: the directory's row must be this node's.
        feed.republish(id)
        continue
      }
      arenaBook.arenas[id] = nil
      deadlines.schedule(.arena(id), at: nil)
      if let at = feed.forget(id, now: now) { deadlines.schedule(.lobbyFlush, at: at) }
    }
  }
}
