import Protocol

/// Arenas (``Arena``) as players ask for them: the list, creating a private one, joining,
/// leaving, following the standings and watching the featured game. The arena decides; the
/// lobby answers, journals the arena and schedules its clock (``runArena(_:now:)``).
extension LobbyState {
  /// The wall clock (Unix seconds) at lobby time `now`: arenas start and end on it. Read once
  /// from the entropy and carried along with `now` after that.
  mutating func wall(_ now: Double) -> Double {
    if wallOffset == nil { wallOffset = entropy.wallClock() - now }
    return now + (wallOffset ?? 0)
  }

  /// Lobby time at wall time `wall`.
  mutating func lobbyTime(_ wall: Double, now: Double) -> Double {
    wall - (self.wall(now) - now)
  }

  /// Who a session is in an arena: the person (their player token's hash), else the session.
  func arenaPlayer(_ session: SessionRegistry.Session) -> String {
    session.player ?? session.token
  }

  mutating func arenaRequest(
    _ message: ClientMessage, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID, now: Double
  ) {
    switch message {
    case .arenas:
      openScheduledArenas(now: now)
      let wall = wall(now)
      let player = arenaPlayer(session)
      let local = arenaBook.arenas.values.filter { !$0.isPrivate || $0.entrants[player] != nil }
        .map { ($0.starts, JSONValue.object($0.summary(wall: wall, player: player))) }
      let shown = (local + remoteArenaSummaries(wall: wall)).sorted { $0.0 < $1.0 }.map(\.1)
      var members: [(String, JSONValue)] = [("type", "arenas")]
      if let replyTo { members.append(("replyTo", replyTo.json)) }
      members.append(("arenas", .array(shown)))
      send(.object(members), to: connection)
    case .createArena(let game, let minutes, let startsIn):
      createArena(game, minutes, startsIn, session, replyTo: replyTo, connection, now: now)
    case .joinArena(let reference):
      guard let id = findArena(reference, session, replyTo: replyTo, connection, now: now) else {
        return
      }
      joinArena(id, session, replyTo: replyTo, connection, now: now)
    case .leaveArena(let id):
      leaveArena(id, session, replyTo: replyTo, connection, now: now)
    case .watchArena(let id):
      guard
        let arena = publicArena(
          id, session, replyTo: replyTo, connection, role: .arenaWatcher, now: now)
      else { return }
      arenaBook.follow(id, by: connection)
      send(arena.snapshot(wall: wall(now), player: nil, replyTo: replyTo), to: connection)
    case .watchFeatured(let id):
      guard
        let arena = publicArena(
          id, session, replyTo: replyTo, connection, role: .arenaWatcher, now: now)
      else { return }
      guard let table = arena.featured, hosts.contains(table) else {
        return reply(
          ProtocolError(.notPlaying, "No game of the arena is being played now.", replyTo: replyTo),
          to: connection)
      }
      arenaBook.follow(id, by: connection)
      watchFeatured(table, of: id, session, connection, replyTo: replyTo, now: now)
    default:
      break
    }
  }

  /// The arena `id` as someone may see it: public, or one they are in; answers why not, or
  /// sends them to the node that holds it (to `role` it there).
  private mutating func publicArena(
    _ id: String, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID, role: Redirect.Role, now: Double
  ) -> Arena? {
    if let arena = arenaBook.arenas[id],
      !arena.isPrivate || arena.entrants[arenaPlayer(session)] != nil
    {
      return arena
    }
    if arenaBook.arenas[id] == nil, let entry = remoteArena(.id(id)) {
      redirect(session, connection, to: entry, role: role, replyTo: replyTo, now: now)
      return nil
    }
    reply(ProtocolError(.unknownArena, "There is no such arena.", replyTo: replyTo), to: connection)
    return nil
  }

  /// The arena a `joinArena` names, or nil after answering why not (an unknown code counts
  /// against the session's guesses, as invite codes do).
  private mutating func findArena(
    _ reference: ArenaReference, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID, now: Double
  ) -> String? {
    switch reference {
    case .id(let id):
      return publicArena(id, session, replyTo: replyTo, connection, role: .arenaPlayer, now: now)?
        .id
    case .code(let code):
      guard mayGuess(session, replyTo: replyTo, connection, now: now) else { return nil }
      if let arena = arenaBook.arena(withCode: code) { return arena.id }
      if let entry = remoteArena(.code(code)) {
        redirect(
          session, connection, to: entry, code: code, role: .arenaPlayer, replyTo: replyTo,
          now: now)
        return nil
      }
      missedGuess(session, connection, now: now)
      reply(
        ProtocolError(.unknownArena, "No arena has that code.", replyTo: replyTo), to: connection)
      return nil
    }
  }

  private mutating func createArena(
    _ game: String, _ minutes: Int, _ startsIn: Int, _ session: SessionRegistry.Session,
    replyTo: MessageID?, _ connection: ConnectionID, now: Double
  ) {
    guard checkGame(game, replyTo: replyTo, connection),
      checkSetup(game, seats: 2, TableOptions(), replyTo: replyTo, connection) != nil
    else { return }
    let wall = wall(now)
    let mine = arenaBook.arenas.values.count { $0.creator == session.token && wall < $0.ends }
    guard mine < LobbyConfiguration.arenasPerSession,
      arenaBook.arenas.count < configuration.maxArenas
    else {
      return reply(
        ProtocolError(
          .tooManyTables,
          "You have \(LobbyConfiguration.arenasPerSession) arenas to come; wait for one to end.",
          replyTo: replyTo), to: connection)
    }
    let code = feed.newCode(length: configuration.inviteCodeLength, using: entropy.below)
    let starts = wall + Double(startsIn)
    let arena = Arena(
      id: "a" + code.lowercased(), game: game, starts: starts, ends: starts + Double(minutes * 60),
      name: "\(session.name)'s arena", code: code, isPrivate: true, creator: session.token)
    arenaBook.arenas[arena.id] = arena
    joinArena(arena.id, session, replyTo: replyTo, connection, now: now)
  }

  private mutating func joinArena(
    _ id: String, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID, now: Double
  ) {
    guard var arena = arenaBook.arenas[id] else { return }
    let wall = wall(now)
    let player = arenaPlayer(session)
    let rating = session.player.flatMap { ratingsKnown[$0]?[arena.game]?.rating } ?? 1500
    // The same person on another session (another tab), or on a connection that does not
    // follow the arena (back through another node after a node died, or sent here by a
    // redirect): the arena goes on with them there. Twice on one connection is refused.
    if let entrant = arena.entrants[player], !entrant.left,
      entrant.session != session.token || arenaBook.following[connection] != id
    {
      arena.reattach(player, session: session.token, now: wall)
      arenaBook.arenas[id] = arena
      arenaBook.follow(id, by: connection)
      send(arena.snapshot(wall: wall, player: player, replyTo: replyTo), to: connection)
      return arenaChanged(id, now: now)
    }
    switch arena.join(
      player: player, name: session.name, rating: rating, session: session.token, now: wall)
    {
    case .failure(let refusal):
      return reply(arenaError(refusal, replyTo: replyTo), to: connection)
    case .success:
      arenaBook.arenas[id] = arena
      arenaBook.follow(id, by: connection)
      send(arena.snapshot(wall: wall, player: player, replyTo: replyTo), to: connection)
      arenaChanged(id, now: now)
    }
  }

  private mutating func leaveArena(
    _ id: String, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID, now: Double
  ) {
    let player = arenaPlayer(session)
    guard
      var arena = publicArena(
        id, session, replyTo: replyTo, connection, role: .arenaWatcher, now: now)
    else { return }
    if case .failure(let refusal) = arena.leave(player: player) {
      return reply(arenaError(refusal, replyTo: replyTo), to: connection)
    }
    arenaBook.arenas[id] = arena
    // A game in progress is lost: the seat goes, and the sprint ends with it
    // (``runArenaTable(_:now:)`` scores it).
    if let table = arena.entrants[player]?.table, session.tableID == table {
      leaveTable(session, now: now)
    }
    send(
      (arenaBook.arenas[id] ?? arena).snapshot(wall: wall(now), player: player, replyTo: replyTo),
      to: connection)
    arenaChanged(id, now: now)
  }

  /// The session on `connection` watches the featured `table` of arena `id`: told so, then
  /// the table's snapshot as a spectator.
  mutating func watchFeatured(
    _ table: String, of id: String, _ session: SessionRegistry.Session,
    _ connection: ConnectionID, replyTo: MessageID?, now: Double
  ) {
    arenaBook.featuring[connection] = (id, table)
    send(Self.arenaGame(id, table: table, featured: true, replyTo: replyTo), to: connection)
    if session.tableID != table || session.seat != nil {
      move(session, connection, to: table, asPlayer: false, replyTo: nil, now: now)
    }
  }

  /// The `arenaGame` message.
  static func arenaGame(_ id: String, table: String, featured: Bool, replyTo: MessageID? = nil)
    -> JSONValue
  {
    var members: [(String, JSONValue)] = [("type", "arenaGame")]
    if let replyTo { members.append(("replyTo", replyTo.json)) }
    members += [("arena", .string(id)), ("table", .string(table)), ("featured", .bool(featured))]
    return .object(members)
  }

  func arenaError(_ refusal: Arena.Refusal, replyTo: MessageID?) -> ProtocolError {
    switch refusal {
    case .alreadyJoined:
      ProtocolError(.alreadyJoined, "You are in this arena already.", replyTo: replyTo)
    case .finished: ProtocolError(.arenaOver, "That arena is over.", replyTo: replyTo)
    case .notJoined: ProtocolError(.notInArena, "You are not in this arena.", replyTo: replyTo)
    }
  }
}
