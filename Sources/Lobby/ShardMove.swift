import Protocol

/// A `choose` that its table's shard decides alone: decoded, by a seated player, at a table that
/// does not take turns, while the journal is up. Only ``LobbyState/shardMove(_:from:)`` makes
/// one, so a turn-based move (whose clock is the whole lobby's) can never reach a shard;
/// ``LobbyState/play(_:in:now:)`` plays it.
public struct ShardMove: Sendable {
  /// The card chosen.
  let card: Int
  /// The message's id, answered.
  let replyTo: MessageID?
  /// The player's connection.
  let connection: ConnectionID
  /// Where it is played.
  let ticket: MoveTicket

  /// The shard that holds the table: the one a concurrent shell must hold to play it.
  public var shard: Int { ticket.shard }
}
