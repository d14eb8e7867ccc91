/// A seated player's leave to move: the table and seat a `choose` is played at, and the shard
/// that holds the table. ``LobbyState/moveTicket(of:)`` hands one out after the checks every
/// move passes, whoever decides it; the table's host plays it (on a lent shard, as a
/// ``ShardMove``).
public struct MoveTicket: Hashable, Sendable {
  /// The table.
  let tableID: String
  /// The seat moving.
  let seat: Int
  /// The shard that holds the table: a shell deciding moves on several threads holds its lock.
  public let shard: Int
  /// Whether the table takes turns: its moves restart its turn clock, a deadline of the whole
  /// lobby, so they are decided with the whole state held.
  public let isTurnBased: Bool
}
