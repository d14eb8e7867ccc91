import Foundation
import Lobby

/// Where ``ShardedLobby`` keeps one shard of tables while the lobby lends it
/// (``LobbyState/lendShards()``), and the lock an executor holds while it plays moves on it.
final class ShardSlot: @unchecked Sendable {
  let lock = NSLock()
  /// The shard while it is lent; an empty one while the lobby has it back.
  var shard = TableShard()

  /// The shard, leaving an empty one here (so the lobby holds the only reference to its
  /// tables, and changes them in place).
  func take() -> TableShard {
    var taken = TableShard()
    swap(&taken, &shard)
    return taken
  }
}
