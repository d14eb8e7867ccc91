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
}

/// A session looked up in the shared database by the hash of its token.
public enum SessionLookup: Sendable {
  /// The session is this node's now (the database says so): it resumes here.
  case claimed(SessionRecord)
  /// The session sits at a table that `node` holds: the client goes there (at `url`, when the
  /// node gives one).
  case elsewhere(SessionRecord, node: String, url: String?)
  /// No such session.
  case unknown
  /// The database could not be asked.
  case unavailable
}
