import Foundation
import Lobby

extension PostgresJournalStore {
  /// Writes `arenas` whole, held by this node, on `connection` (in the caller's transaction).
  func write(_ arenas: [Arena], on connection: PostgresConnection) throws {
    for arena in arenas {
      let text = String(decoding: try encoder.encode(arena), as: UTF8.self)
      _ = try run(
        """
        INSERT INTO arena (id, owner, closed, ends, record)
        VALUES (\(arena.id), \(owner), \(arena.closed), \(arena.ends), \(text))
        ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, closed = excluded.closed,
          ends = excluded.ends, record = excluded.record
        """, on: connection)
    }
  }
}
