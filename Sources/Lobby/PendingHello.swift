import Protocol

/// A `hello` that resumes a session this node does not know, waiting while the cluster's
/// database is asked for it (``LobbyAction/findSession(token:for:)``): what it said, to be
/// answered once the database has.
struct PendingHello: Sendable {
  var name: String?
  var resume: String
  var version: Int?
  var player: String?
  var games: GamesWanted
  var replyTo: MessageID?
}
