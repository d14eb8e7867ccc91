import Protocol

/// An arena as the wire shows it (`arenas`, `arena`, `arenaStandings`; docs/PROTOCOL.md).
extension Arena {
  /// Its line in the list (and the base of its snapshot) at `wall` (Unix seconds), for
  /// `player` (nil: someone not in it).
  func summary(wall: Double, player: String?) -> [(String, JSONValue)] {
    let phase = phase(at: wall)
    // One sort of the standings: the winner is the leader of a finished arena (``winner(at:)``).
    let leader = standings.first { $0.played > 0 }
    return [
      ("id", .string(id)), ("name", .string(name)), ("game", .string(game)),
      ("phase", .string(phase.rawValue)), ("starts", .double(starts)), ("ends", .double(ends)),
      ("startsIn", .double(Self.tenths(starts - wall))),
      ("endsIn", .double(Self.tenths(ends - wall))), ("seats", .int(seats)),
      ("players", .int(entrants.count)), ("private", .bool(isPrivate)),
      ("leader", leader.map { .string($0.name) } ?? .null),
      ("winner", (phase == .finished ? leader : nil).map { .string($0.name) } ?? .null),
      ("joined", .bool(player.map(isIn) ?? false)),
    ]
  }

  /// The `arena` snapshot for `player` (nil: a follower), answering `replyTo`.
  func snapshot(wall: Double, player: String?, replyTo: MessageID?) -> JSONValue {
    var arena = summary(wall: wall, player: player)
    if isPrivate || player.map({ entrants[$0] != nil }) == true {
      arena.append(("code", .string(code)))
    }
    arena += [
      (
        "sprint",
        .object([("sets", .int(sprint.sets)), ("seconds", .double(sprint.seconds))])
      ),
      ("standings", standingsView(for: player)),
      ("games", gamesView), ("featured", featured.map { .string($0) } ?? .null),
      ("you", player.flatMap { entrants[$0]?.number }.map { .int($0) } ?? .null),
    ]
    var members: [(String, JSONValue)] = [("type", "arena")]
    if let replyTo { members.append(("replyTo", replyTo.json)) }
    members += [("joined", .bool(player.map(isIn) ?? false)), ("arena", .object(arena))]
    return .object(members)
  }

  /// The `arenaStandings` message: one frame for everyone in the arena and following it.
  func standingsMessage(wall: Double) -> JSONValue {
    .object([
      ("type", "arenaStandings"), ("arena", .string(id)),
      ("phase", .string(phase(at: wall).rawValue)), ("players", .int(entrants.count)),
      ("endsIn", .double(Self.tenths(ends - wall))), ("standings", standingsView(for: nil)),
      ("games", gamesView), ("featured", featured.map { .string($0) } ?? .null),
      ("winner", winner(at: wall).map { .string($0.name) } ?? .null),
    ])
  }

  /// The standings' first rows, and `player`'s own row (marked `you`) when it is further down.
  func standingsView(for player: String?) -> JSONValue {
    let rows = standings
    var shown = Array(rows.prefix(ArenaBook.standingsShown))
    if let player, !shown.contains(where: { $0.player == player }),
      let own = rows.first(where: { $0.player == player })
    {
      shown.append(own)
    }
    return .array(
      shown.map { row in
        var members: [(String, JSONValue)] = [
          ("n", .int(row.number)), ("rank", .int(row.rank)), ("name", .string(row.name)),
          ("points", .int(row.points)), ("played", .int(row.played)), ("won", .int(row.won)),
          ("onFire", .bool(row.onFire)), ("left", .bool(row.left)),
          ("playing", .bool(row.playing)),
        ]
        if row.player == player { members.append(("you", .bool(true))) }
        return .object(members)
      })
  }

  /// The games in progress: each table and its players' names, in table order.
  var gamesView: JSONValue {
    .array(
      games.keys.sorted { Self.tableOrder($0, $1) }.map { table in
        .object([
          ("table", .string(table)),
          (
            "players",
            .array((games[table] ?? []).map { .string(entrants[$0]?.name ?? "?") })
          ),
        ])
      })
  }

  /// The featured game: the game of the highest-placed player in one, else none.
  public var featured: String? {
    standings.lazy.compactMap { self.entrants[$0.player]?.table }.first { !$0.isEmpty }
  }

  /// `t12` before `t101`.
  static func tableOrder(_ a: String, _ b: String) -> Bool {
    (a.count, a) < (b.count, b)
  }

  static func tenths(_ seconds: Double) -> Double { (seconds * 10).rounded() / 10 }
}
