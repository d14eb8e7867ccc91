import Model
import Protocol

/// Arenas on the clock: the pairing passes that seat free players at new tables, the games'
/// results scored, the standings sent (at most 4 a second), the end, the schedule's arenas,
/// and their journal.
extension LobbyState {
  /// Arena `id` changed at `now`: it is journaled, its standings are due, its clock is set.
  mutating func arenaChanged(_ id: String, now: Double) {
    guard let arena = arenaBook.arenas[id] else { return }
    if configuration.journal { journal.append(.arena(arena)) }
    publishArena(id, now: now)
    arenaBook.changed.insert(id)
    scheduleArena(id, now: now)
  }

  /// Arena `id`'s next moment: its start, its next pairing pass, its end, its standings.
  mutating func scheduleArena(_ id: String, now: Double) {
    guard let arena = arenaBook.arenas[id] else {
      return deadlines.schedule(.arena(id), at: nil)
    }
    let wall = wall(now)
    var due: [Double] = []
    if arena.phase(at: wall) != .finished || !arenaBook.finished.contains(id) {
      if wall < arena.starts { due.append(lobbyTime(arena.starts, now: now)) }
      if let pairing = arena.nextPairing(now: wall) {
        let after = (arenaBook.pairedAt[id] ?? -.infinity) + Arena.pairingWait
        due.append(max(lobbyTime(pairing, now: now), after))
      }
      if wall < arena.ends { due.append(lobbyTime(arena.ends, now: now)) }
      if wall >= arena.ends && arena.games.isEmpty { due.append(now) }
    }
    if arenaBook.changed.contains(id) {
      due.append((arenaBook.flushedAt[id] ?? -.infinity) + ArenaBook.standingsInterval)
    }
    deadlines.schedule(.arena(id), at: due.min())
  }

  /// Arena `id`'s clock at `now`: a pairing pass when one is due, its end, its standings.
  mutating func runArena(_ id: String, now: Double) {
    guard var arena = arenaBook.arenas[id] else { return }
    let wall = wall(now)
    // A game whose table is not open (not opened again after a restart) ends drawn.
    for table in arena.games.keys where !hosts.contains(table) {
      let players = arena.games[table] ?? []
      arena.record(
        Arena.GameResult(
          table: table, ranks: Dictionary(uniqueKeysWithValues: players.map { ($0, 1) })),
        now: wall)
      arenaBook.tables[table] = nil
      arenaBook.arenas[id] = arena
      arenaChanged(id, now: now)
    }
    if let pairing = arena.nextPairing(now: wall), pairing <= wall,
      now >= (arenaBook.pairedAt[id] ?? -.infinity) + Arena.pairingWait
    {
      arenaBook.pairedAt[id] = now
      let groups = arena.pair(now: wall) { self.mayPlay($0) }
      arenaBook.arenas[id] = arena
      if !groups.isEmpty {
        for group in groups { seat(group, of: id, now: now) }
        arenaChanged(id, now: now)
      }
    }
    if let arena = arenaBook.arenas[id], arena.phase(at: wall) == .finished,
      !arenaBook.finished.contains(id)
    {
      arenaBook.arenas[id]?.close()
      for old in arenaBook.finish(id) { unpublishArena(old, now: now) }
      arenaChanged(id, now: now)
      if let winner = arena.winner(at: wall) {
        out.append(.log(.arenaFinished(id: id, winner: winner.name, players: arena.entrants.count)))
      }
    }
    if arenaBook.changed.contains(id),
      now >= (arenaBook.flushedAt[id] ?? -.infinity) + ArenaBook.standingsInterval
    {
      flushArena(id, now: now)
    }
    followFeatured(id, now: now)
    scheduleArena(id, now: now)
  }

  /// Whether an arena's free player can be seated now: connected, and not playing elsewhere.
  func mayPlay(_ entrant: Arena.Entrant) -> Bool {
    guard let session = desk.session(token: entrant.session), session.connection != nil else {
      return false
    }
    guard let table = session.tableID, session.seat != nil, let host = hosts[table] else {
      return true
    }
    return host.table.phase != .playing && host.table.phase != .countdown
  }

  /// Seats `group` (a pairing of arena `id`) at a new table of the arena's game, which starts
  /// once the last of them sits; each of them is told (`arenaGame`), then gets its snapshot.
  private mutating func seat(_ group: [String], of id: String, now: Double) {
    guard var arena = arenaBook.arenas[id],
      case .success(let setup) = GameCatalog.setup(
        game: arena.game, seats: arena.seats, options: TableOptions(), replyTo: nil),
      hosts.tableCount < configuration.maxTables
    else {
      // No room: they are free again at the next pass.
      arenaBook.arenas[id]?.unpair(group)
      return
    }
    let table = openTable(setup, isPrivate: true, creator: "arena", now: now)
    hosts.withHost(table) { $0.table.setSprint(arena.sprint) }
    reindex(table)
    arena.started(table: table, players: group)
    arenaBook.arenas[id] = arena
    arenaBook.tables[table] = id
    // The last to sit fills the table, which starts it.
    for player in group {
      guard let token = arena.entrants[player]?.session, let session = desk.session(token: token),
        let connection = session.connection
      else { continue }
      send(Self.arenaGame(id, table: table, featured: false), to: connection)
      move(session, connection, to: table, asPlayer: true, replyTo: nil, now: now)
    }
    settle(table, now: now)
  }

  /// After table `id` changed: a sprint that ended there is scored in its arena.
  mutating func runArenaTable(_ id: String, now: Double) {
    guard let arenaID = arenaBook.tables[id],
      let ranks = hosts.withHost(id, { $0.table.takeSprintResult() }) ?? nil,
      var arena = arenaBook.arenas[arenaID], let players = arena.games[id]
    else { return }
    var byPlayer: [String: Int] = [:]
    for (seat, player) in players.enumerated() {
      byPlayer[player] = ranks[seat] ?? players.count + 1
    }
    arena.record(Arena.GameResult(table: id, ranks: byPlayer), now: wall(now))
    arenaBook.arenas[arenaID] = arena
    arenaBook.tables[id] = nil
    arenaChanged(arenaID, now: now)
  }

  /// The spectators of arena `id`'s featured game whose game is over go on to the new one.
  private mutating func followFeatured(_ id: String, now: Double) {
    guard let featured = arenaBook.arenas[id]?.featured else { return }
    for (connection, watch) in arenaBook.featuring where watch.arena == id {
      guard let session = desk.session(for: connection), session.tableID == watch.table,
        session.seat == nil
      else {
        // They went elsewhere: they no longer follow the featured game.
        arenaBook.featuring[connection] = nil
        continue
      }
      guard watch.table != featured,
        hosts[watch.table].map({ $0.table.phase == .finished }) ?? true
      else { continue }
      watchFeatured(featured, of: id, session, connection, replyTo: nil, now: now)
    }
  }

  /// Sends arena `id`'s standings to everyone in it and following it: one frame.
  private mutating func flushArena(_ id: String, now: Double) {
    arenaBook.changed.remove(id)
    arenaBook.flushedAt[id] = now
    guard let arena = arenaBook.arenas[id] else { return }
    var recipients = arenaBook.followers[id] ?? []
    for entrant in arena.entrants.values where !entrant.left {
      if let connection = desk.session(token: entrant.session)?.connection {
        recipients.insert(connection)
      }
    }
    guard !recipients.isEmpty else { return }
    out.append(
      .send(
        Frame(arena.standingsMessage(wall: wall(now))),
        to: recipients.sorted { $0.rawValue < $1.rawValue }))
  }

  /// The connection is gone: it follows no arena and watches no featured game.
  mutating func forgetArenaFollower(_ connection: ConnectionID) {
    arenaBook.unfollow(connection)
    arenaBook.featuring[connection] = nil
  }

  /// Opens the schedule's next arena (``LobbyConfiguration/arenaSchedule``) when it is not
  /// open yet, and sets the clock to open the one after it once it starts.
  public mutating func openScheduledArenas(now: Double) {
    guard let schedule = configuration.arenaSchedule else { return }
    let wall = wall(now)
    let starts = schedule.nextStart(atOrAfter: wall)
    if arenaBook.scheduledUpTo.map({ $0 < starts }) ?? true {
      arenaBook.scheduledUpTo = starts
      let id = "s\(Int(starts))"
      if arenaBook.arenas[id] == nil {
        let code = feed.newCode(length: configuration.inviteCodeLength, using: entropy.below)
        let arena = Arena(
          id: id, game: schedule.game, starts: starts, ends: starts + Double(schedule.minutes * 60),
          name: "\(Self.gameTitle(schedule.game)) arena \(Self.clockTime(starts))",
          code: code)
        arenaBook.arenas[id] = arena
        arenaChanged(id, now: now)
      }
    }
    deadlines.schedule(.arenaSchedule, at: lobbyTime(starts, now: now) + 1)
  }

  /// The game's title ("Set").
  static func gameTitle(_ game: String) -> String {
    GameCatalog.registry.descriptions.first { $0.name == game }?.title ?? game
  }

  /// `hh:mm` (UTC) of a wall time.
  static func clockTime(_ wall: Double) -> String {
    let minutes = Int(wall / 60) % (24 * 60)
    let hh = minutes / 60
    let mm = minutes % 60
    return (hh < 10 ? "0" : "") + "\(hh):" + (mm < 10 ? "0" : "") + "\(mm)"
  }

  /// Opens again the arenas a journal kept: their games' tables are open again already.
  mutating func restoreArenas(_ arenas: [Arena], now: Double) {
    for arena in arenas.sorted(by: { $0.ends < $1.ends }) {
      arenaBook.arenas[arena.id] = arena
      for table in arena.games.keys { arenaBook.tables[table] = arena.id }
      if arena.closed { arenaBook.finish(arena.id) }
      publishArena(arena.id, now: now)
      scheduleArena(arena.id, now: now)
    }
  }
}
