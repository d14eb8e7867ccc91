import Protocol

/// What a node's lobby hears from the rest of the cluster, through the shared database: the
/// tables the other nodes hold, and what the database says of a session this node does not
/// know.
public enum ClusterNews: Sendable {
  /// Every table the other nodes hold, replacing whatever was known of them (when the node
  /// starts listening, and again whenever it listens anew after losing the database).
  case snapshot([ClusterTable])
  /// Changes to the tables that `node` holds, in the order it made them.
  case changes(node: String, [ClusterChange])
  /// `node` left the cluster: its tables are gone from the list.
  case nodeGone(String)
  /// What the database holds of the session a `hello` on `connection` asked to resume.
  case session(ConnectionID, SessionLookup)
  /// Tables this node took over from a node whose lease ran out, with their current deals'
  /// moves and the sessions at them: rebuilt here as a restart rebuilds its own, seats held for
  /// the reconnect grace period.
  case adopt(JournalContents)
  /// Tables another node took over from this one (a journal write for them was refused): this
  /// node gives them up at once, closing their members' connections before anything more is
  /// sent to them; their clients come back through the front door and are sent on.
  case lost([String])
  /// What the store holds of `players`' ratings (asked by ``RecordRequest/Kind/ratings(players:table:)``
  /// for `connection`, at `table`): every rating each of them has, none for a player never
  /// rated.
  case ratings([PlayerRating], players: [String], connection: ConnectionID, table: String?)
  /// Unknown invite codes tried on other nodes, by client address: they count here too.
  case guessesMissed([String: Int])
}

/// A session looked up in the shared database by the hash of its token.
public enum SessionLookup: Sendable {
  /// The session is this node's now (the database says so): it resumes here.
  case claimed(SessionRecord)
  /// The session sits at a table that `node` holds: the client goes there (at `url`, when the
  /// node gives one).
  case elsewhere(SessionRecord, node: String, url: String?)
  /// The session is this node's now, but its table's node is dead: the shell takes the table
  /// over (``ClusterNews/adopt(_:)``) and looks again; the lobby never sees this case.
  case orphaned(SessionRecord)
  /// No such session.
  case unknown
  /// The database could not be asked.
  case unavailable
}
