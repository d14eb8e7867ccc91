import Foundation
import Lobby
import Model
import PostgresNIO

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
  /// old owner's writes (`journal_write_v5`). Nodes that take over at once skip each other's
  /// rows. Throws a ``StoreError`` when the database cannot be reached.
  public func takeOver(
    lease: Double, limit: Int = 100, only: [String]? = nil,
    games: Set<String> = GameCatalog.games
  ) throws -> Takeover {
    try connector.perform("cannot take tables over in \(connector.location)") { connection in
      try connector.transaction(on: connection) {
        var takeover = Takeover()
        let decoder = JSONDecoder()
        let now = clock.sql
        let dealt = games.sorted()
        for row in try connector.run(
          """
          SELECT g.id, g.record::jsonb ->> 'game' FROM game_table g
          LEFT JOIN cluster_node n ON n.id = g.owner
          WHERE g.open AND g.owner IS DISTINCT FROM \(node)
            AND (g.owner IS NULL OR n.lease_until IS NULL OR n.lease_until < \(unescaped: now))
            AND (\(only == nil) OR g.id = ANY (\(only ?? [])))
            AND NOT (g.record::jsonb ->> 'game' = ANY (\(dealt)))
          ORDER BY g.number LIMIT \(limit)
          """, on: connection)
        {
          let (table, game) = try row.decode((String, String).self)
          takeover.notDealt[table] = game
        }
        let rows = try connector.run(
          """
          WITH dead AS (
            SELECT g.id, g.owner, n.lease_until AS until FROM game_table g
            LEFT JOIN cluster_node n ON n.id = g.owner
            WHERE g.open AND g.owner IS DISTINCT FROM \(node)
              AND (g.owner IS NULL OR n.lease_until IS NULL OR n.lease_until < \(unescaped: now))
              AND (\(only == nil) OR g.id = ANY (\(only ?? [])))
              AND g.record::jsonb ->> 'game' = ANY (\(dealt))
            ORDER BY g.number LIMIT \(limit)
            FOR UPDATE OF g SKIP LOCKED)
          UPDATE game_table g SET owner = \(node), epoch = g.epoch + 1,
            lease_until = \(unescaped: now) + make_interval(secs => \(lease))
          FROM dead WHERE g.id = dead.id
          RETURNING g.record, g.epoch, dead.owner,
            EXTRACT(EPOCH FROM \(unescaped: now) - (dead.until - make_interval(secs => \(lease))))::FLOAT8
          """, on: connection)
        for row in rows {
          let (text, epoch, from, since) = try row.decode((String, Int, String?, Double?).self)
          let record = try decoder.decode(TableRecord.self, from: Data(text.utf8))
          takeover.contents.tables.append((record, []))
          takeover.epochs[record.id] = epoch
          takeover.taken.append(
            Takeover.Taken(table: record.id, from: from, secondsSinceRenewal: since))
        }
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
