import Protocol

/// What ``RemoteWatch`` keeps of each table it watches.
extension RemoteWatch {
  /// One watched table.
  struct Watch: Sendable {
    let table: String
    /// Its invite code, which the link spectates by (a private table is not spectated by id).
    let code: String
    /// The owning node's WebSocket URL.
    var url: String
    var link: ConnectionID
    var isOpen = false
    /// Spectators shown the table, who get every frame the link carries.
    var watchers = MemberList()
    /// Spectators that asked and wait for the answer to ``asked`` (or to the next ask); one
    /// that asked for the table afresh is among the watchers too.
    var waiting: [(ConnectionID, MessageID?)] = []
    /// The id of the link's `spectate` not answered yet.
    var asked: MessageID?
    /// Links lost in a row without a snapshot since.
    var losses = 0
    /// The count of its spectators the link told last (-1: none yet, on this link).
    var told = -1
    /// Whether the link watches the table there (its `spectate` was answered with a snapshot).
    var isShown = false

    var isEmpty: Bool { watchers.isEmpty && waiting.isEmpty }

    /// How many spectators here it watches for: those shown it, and those waiting to be who are
    /// not (one asking afresh is both).
    var count: Int { watchers.count + waiting.count { !watchers.contains($0.0) } }

    /// Its link is lost: those shown the table wait to be shown it again (without a `replyTo`,
    /// unless they asked for it afresh already).
    mutating func waitAgain() {
      for watcher in watchers.ids where !waiting.contains(where: { $0.0 == watcher }) {
        waiting.append((watcher, nil))
      }
      watchers = MemberList()
    }
  }
}
