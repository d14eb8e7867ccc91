import Foundation
import Lobby
import Model

/// Tables taken over from nodes whose lease ran out (``PostgresClusterLink/takeOver(lease:limit:only:)``).
public struct Takeover: Sendable {
  /// One table taken: from which node (nil: nobody held it, a node that shut down cleanly freed
  /// it) and how long after that node's last renewal.
  public struct Taken: Sendable, Hashable {
    public var table: String
    public var from: String?
    public var secondsSinceRenewal: Double?
  }

  /// The tables with their current deal's moves, and the sessions at them: what the lobby
  /// rebuilds (``ClusterNews/adopt(_:)``).
  public var contents = JournalContents()
  /// The epoch each table is held at now (``PostgresJournalStore/hold(_:)``).
  public var epochs: [String: Int] = [:]
  /// What was taken from whom.
  public var taken: [Taken] = []
  /// Tables of dead nodes left where they are because this node does not deal their game (a
  /// node of another version): table id → game. Their rows stay open and owned by the dead
  /// node, for a node that deals the game to take over.
  public var notDealt: [String: String] = [:]
}

extension PostgresClusterLink {
  /// Takes over up to `limit` open tables whose owner's lease has run out at ``clock``'s time
  /// (or that nobody holds), or only those of `only`, of the games in `games` (those this node
  /// deals; the others are listed in ``Takeover/notDealt`` and left): each becomes this node's
  /// at the next epoch, with the sessions at it, in one transaction whose row locks exclude the
  /// old owner's writes (`journal_write`). Nodes that take over at once skip each other's
  /// rows. Throws a ``StoreError`` when the database cannot be reached.
  ///
  /// With a `grace` (seconds), a lease counts as run out only once this node has renewed its
  /// own (of `lease` seconds) after that lease's end and at least `grace` after the start of
  /// its own unbroken renewals (`alive_since`). A database that stood still for longer than a
  /// lease (frozen, failing over) finds every lease run out by its clock when it answers again;
  /// this node's own renewal then starts its `alive_since` again, and live nodes renew before
  /// anyone judges them. A node that died while this one was renewing is taken at once.
  ///
  /// A row is locked only if its owner is still the one whose lease was judged run out: a node
  /// whose takeover of the same row committed after this statement began has made it its own,
  /// and keeps it. (PostgreSQL checks a row that changed since the statement began again, with
  /// the rows it joined then; through an outer join to the dead owner's lease, a row taken
  /// meanwhile by a live node passed that check, and was taken a second time.)
  public func takeOver(
    lease: Double, grace: Double? = nil, limit: Int = 100, only: [String]? = nil,
    games: Set<String> = GameCatalog.games
  ) throws -> Takeover {
    try takeOver(
      lease: lease, grace: grace, limit: limit, only: only, games: games, rowLocks: .skipped)
  }

  /// What a takeover does with a row another transaction holds: skips it (a server), or waits
  /// for it and checks it again once it is free (tests, which make the second takeover meet a
  /// row the first one changed after it began).
  enum RowLocks {
    case skipped, awaited

    var sql: String { self == .skipped ? "SKIP LOCKED" : "" }
  }

  /// ``takeOver(lease:grace:limit:only:games:)``, waiting for locked rows or not.
  func takeOver(
    lease: Double, grace: Double?, limit: Int, only: [String]?, games: Set<String>,
    rowLocks: RowLocks
  ) throws -> Takeover {
    try connector.perform("cannot take tables over in \(connector.location)") { connection in
      try connector.transaction(on: connection) {
        var takeover = Takeover()
        let runOut = runOutPredicate(lease: lease, grace: grace)
        let dealt = games.sorted()
        for row in try connector.run(
          """
          SELECT g.id, g.record::jsonb ->> 'game' FROM game_table g
          LEFT JOIN cluster_node n ON n.id = g.owner
          WHERE g.open AND g.owner IS DISTINCT FROM \(node)
            AND (g.owner IS NULL OR n.lease_until IS NULL OR \(unescaped: runOut))
            AND (\(only == nil) OR g.id = ANY (\(only ?? [])))
            AND NOT (g.record::jsonb ->> 'game' = ANY (\(dealt)))
          ORDER BY g.number LIMIT \(limit)
          """, on: connection)
        {
          let (table, game) = try row.decode((String, String).self)
          takeover.notDealt[table] = game
        }
        // An open arena's games go with it: they are taken only with their arena (below), so
        // that a game's result reaches the node that holds its arena.
        try takeTables(
          only: only, ofArenas: nil, limit: limit, lease: lease, runOut: runOut, dealt: dealt,
          rowLocks: rowLocks, into: &takeover, on: connection)
        try takeArenas(
          only: only, lease: lease, runOut: runOut, dealt: dealt, rowLocks: rowLocks,
          into: &takeover, on: connection)
        guard !takeover.taken.isEmpty else { return takeover }
        let ids = takeover.taken.map(\.table)
        let moves = try connector.currentDealMoves(of: ids, on: connection)
        takeover.contents.tables = takeover.contents.tables.map {
          ($0.record, moves[$0.record.id] ?? [])
        }
        takeover.contents.sessions = try connector.run(
          """
          UPDATE session SET owner = \(node) WHERE table_id = ANY (\(ids))
          RETURNING token, name, table_id, seat, player
          """, on: connection
        ).map { row in
          let (token, name, table, seat, player) = try row.decode(
            (String, String, String?, Int?, String?).self)
          return SessionRecord(token: token, name: name, tableID: table, seat: seat, player: player)
        }.sorted { $0.token < $1.token }
        return takeover
      }
    }
  }
}

extension PostgresClusterLink {
  /// Takes up to `limit` open tables of dead nodes (with `only`: among those) that are not an
  /// open arena's games, or (with `ofArenas`) the open tables of those arenas' games, at the
  /// next epoch, into `takeover`.
  fileprivate func takeTables(
    only: [String]?, ofArenas arenas: [String]?, limit: Int, lease: Double, runOut: String,
    dealt: [String], rowLocks: RowLocks, into takeover: inout Takeover,
    on connection: PostgresConnection
  ) throws {
    let now = clock.sql
    let rows = try connector.run(
      """
      WITH seen AS MATERIALIZED (
        SELECT g.id, g.owner, n.lease_until AS until FROM game_table g
        LEFT JOIN cluster_node n ON n.id = g.owner
        WHERE g.open AND g.owner IS DISTINCT FROM \(node)
          AND (g.owner IS NULL OR n.lease_until IS NULL OR \(unescaped: runOut))
          AND g.record::jsonb ->> 'game' = ANY (\(dealt))
          AND (\(arenas == nil)
            OR g.record::jsonb -> 'sprint' ->> 'arena' = ANY (\(arenas ?? [])))
          AND (\(arenas != nil) OR ((\(only == nil) OR g.id = ANY (\(only ?? [])))
            AND NOT EXISTS (SELECT 1 FROM arena a WHERE NOT a.closed
              AND a.id = g.record::jsonb -> 'sprint' ->> 'arena')))),
      dead AS (
        SELECT g.id, seen.owner, seen.until FROM game_table g
        JOIN seen ON g.id = seen.id AND g.owner IS NOT DISTINCT FROM seen.owner
        WHERE g.open
        ORDER BY g.number LIMIT \(limit) FOR UPDATE OF g \(unescaped: rowLocks.sql))
      UPDATE game_table g SET owner = \(node), epoch = g.epoch + 1,
        lease_until = \(unescaped: now) + make_interval(secs => \(lease))
      FROM dead WHERE g.id = dead.id
      RETURNING g.record, g.epoch, dead.owner,
        EXTRACT(EPOCH FROM \(unescaped: now) - (dead.until - make_interval(secs => \(lease))))::FLOAT8
      """, on: connection)
    let decoder = JSONDecoder()
    for row in rows {
      let (text, epoch, from, since) = try row.decode((String, Int, String?, Double?).self)
      let record = try decoder.decode(TableRecord.self, from: Data(text.utf8))
      takeover.contents.tables.append((record, []))
      takeover.epochs[record.id] = epoch
      takeover.taken.append(
        Takeover.Taken(table: record.id, from: from, secondsSinceRenewal: since))
    }
  }

  /// Takes the open arenas of dead nodes (or, with `only`, those whose games are among `only`)
  /// into `takeover`, with their games' tables.
  fileprivate func takeArenas(
    only: [String]?, lease: Double, runOut: String, dealt: [String], rowLocks: RowLocks,
    into takeover: inout Takeover, on connection: PostgresConnection
  ) throws {
    let decoder = JSONDecoder()
    let rows = try connector.run(
      """
      WITH seen AS MATERIALIZED (
        SELECT a.id, a.owner FROM arena a LEFT JOIN cluster_node n ON n.id = a.owner
        WHERE NOT a.closed AND a.owner IS DISTINCT FROM \(node)
          AND (a.owner IS NULL OR n.lease_until IS NULL OR \(unescaped: runOut))
          AND (\(only == nil) OR a.id IN (SELECT g.record::jsonb -> 'sprint' ->> 'arena'
            FROM game_table g WHERE g.id = ANY (\(only ?? []))))),
      dead AS (
        SELECT a.id FROM arena a
        JOIN seen ON a.id = seen.id AND a.owner IS NOT DISTINCT FROM seen.owner
        WHERE NOT a.closed
        ORDER BY a.id FOR UPDATE OF a \(unescaped: rowLocks.sql))
      UPDATE arena a SET owner = \(node) FROM dead WHERE a.id = dead.id RETURNING a.record
      """, on: connection)
    var arenas: [String] = []
    for row in rows {
      let arena = try decoder.decode(Arena.self, from: Data(try row.decode(String.self).utf8))
      takeover.contents.arenas.append(arena)
      arenas.append(arena.id)
    }
    guard !arenas.isEmpty else { return }
    try takeTables(
      only: nil, ofArenas: arenas, limit: 10_000, lease: lease, runOut: runOut, dealt: dealt,
      rowLocks: rowLocks, into: &takeover, on: connection)
  }
}

extension PostgresClusterLink {
  /// The SQL condition that the lease of the node `n` (joined from `cluster_node`) ran out, at
  /// ``clock``'s time and, with a `grace`, before this node's own latest renewal (of `lease`
  /// seconds), which comes a grace after its unbroken renewals' start: see
  /// ``takeOver(lease:grace:limit:only:games:)``. Made of numbers and this node's id (quoted as
  /// SQL quotes it), never of text from outside.
  func runOutPredicate(lease: Double, grace: Double?) -> String {
    let now = clock.sql
    guard let grace else { return "n.lease_until < \(now)" }
    let me = "'" + node.replacingOccurrences(of: "'", with: "''") + "'"
    return """
      (n.lease_until < \(now) AND EXISTS (SELECT 1 FROM cluster_node m WHERE m.id = \(me) \
      AND m.lease_until - make_interval(secs => \(lease)) \
      >= GREATEST(n.lease_until, m.alive_since + make_interval(secs => \(grace)))))
      """
  }
}
