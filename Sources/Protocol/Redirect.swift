/// Where a client goes for a table held by another node of the cluster: the answer to a
/// `join`, `spectate` or `quickMatch` whose table is there, and what follows `welcome` when a
/// resumed session's table is there. The client connects again at ``path`` (on the front door
/// it came through) or ``url`` (the node's own address, when it gives one), says `hello` with
/// its session, and sends the request that ``request`` describes.
public struct Redirect: Hashable, Sendable {
  /// What the client asks for once it is there.
  public enum Role: String, Hashable, Sendable {
    /// `join` the table.
    case player
    /// `spectate` the table.
    case spectator
    /// `joinArena` the arena whose id is ``table`` (by ``code`` when it came by code).
    case arenaPlayer
    /// `watchArena` the arena whose id is ``table``.
    case arenaWatcher
  }

  /// The table's id (an arena's, for the arena roles).
  public var table: String
  /// The node that holds it.
  public var node: String
  /// The node's own WebSocket URL, when it gives one (`--advertise-url`).
  public var url: String?
  /// The invite code the client used, when it came by code (a private table is found by its
  /// code alone).
  public var code: String?
  /// Whether the client comes to play or to watch.
  public var role: Role

  /// A redirect to table `table` at `node`.
  public init(table: String, node: String, url: String? = nil, code: String? = nil, role: Role) {
    self.table = table
    self.node = node
    self.url = url
    self.code = code
    self.role = role
  }

  /// The path on the front door that reaches `node` with the table named: the front door sends
  /// a connection whose URL names a node to that node, while it is up.
  public var path: String { "/ws?table=\(table)&node=\(node)" }
}

extension ServerMessage {
  /// Table `redirect.table` is held by another node: connect there.
  public static func redirect(replyTo: MessageID?, _ redirect: Redirect) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("table", .string(redirect.table)), ("node", .string(redirect.node)),
      ("path", .string(redirect.path)),
    ]
    if let url = redirect.url { members.append(("url", .string(url))) }
    if let code = redirect.code { members.append(("code", .string(code))) }
    members.append(("role", .string(redirect.role.rawValue)))
    return object("redirect", replyTo: replyTo, members)
  }
}
