import Protocol

/// Spectators on this node of tables another node holds (issue 36, a crowd across nodes): a
/// spectator stays on the node it reached, and this node watches the table once for all of its
/// own, through a link (``ConnectionID/link(_:)``, a WebSocket connection to the owning node
/// that spectates there like a client), and fans each frame out to them as a crowd. The owning
/// node's cost per move grows with the nodes that watch, not with their spectators.
///
/// A pure value: events in (a spectator asks, leaves or goes; the link opens, says something,
/// closes), actions out. The link's frames are forwarded as they came (one frame for the whole
/// local crowd); only the answers to its own `spectate` are read: a snapshot, re-addressed to
/// each spectator that asked, who joins the crowd from that version on (the link is one ordered
/// stream, so every later frame follows it).
public struct RemoteWatch: Sendable {
  /// What ``linkClosed(_:)`` leaves to the lobby.
  public enum Loss: Equatable, Sendable {
    /// Not a watch's link (or nobody watched any more).
    case nothing
    /// Find where table `table` is now and ``reconnect(_:to:)`` (or ``drop(_:)``) after a
    /// pause: its spectators wait.
    case retry(table: String, losses: Int)
  }

  var watches: [String: Watch] = [:]
  var tableOfLink: [ConnectionID: String] = [:]
  var tableOfSpectator = PartitionedDictionary<ConnectionID, String>()
  var links: UInt64 = 0
  var asks = 0
  /// Lines of chat said through a link and not yet answered: by the link's message id, the
  /// link, who said it and its own id (forgotten with their link).
  var chats: [MessageID: (link: ConnectionID, speaker: ConnectionID, replyTo: MessageID?)] =
    [:]
  /// The name the links give the owning nodes.
  let name: String
  /// The cluster's link key, given with the counts (nil: no counts are told).
  let key: String?

  public init(name: String = "watching node", key: String? = nil) {
    self.name = name
    self.key = key
  }

  /// The table `connection` watches (or waits to) through a link, if any.
  public func table(watchedBy connection: ConnectionID) -> String? {
    tableOfSpectator[connection]
  }

  /// The table link `link` watches, if any.
  public func table(ofLink link: ConnectionID) -> String? { tableOfLink[link] }

  /// How many spectators on this node watch `table` (or wait to).
  public func spectators(of table: String) -> Int {
    watches[table]?.count ?? 0
  }

  /// Every table watched through a link.
  public var tables: some Collection<String> { watches.keys }

  // MARK: - Spectators

  /// `connection` asks (`replyTo`) to watch `table` (invite code `code`), which the node at
  /// `url` holds; it stops watching any other first.
  public mutating func watch(
    _ table: String, code: String, at url: String, _ connection: ConnectionID,
    replyTo: MessageID?
  ) -> [LobbyAction] {
    var actions = unwatch(connection)
    tableOfSpectator[connection] = table
    if var watch = watches[table] {
      watch.waiting.append((connection, replyTo))
      if watch.isOpen && watch.asked == nil { actions.append(ask(&watch)) }
      watches[table] = watch
      return actions
    }
    links += 1
    let link = ConnectionID.link(links)
    var watch = Watch(table: table, code: code, url: url, link: link)
    watch.waiting.append((connection, replyTo))
    watches[table] = watch
    tableOfLink[link] = table
    actions.append(.connect(link, url: url))
    return actions
  }

  /// Its session resumed on `new` while `old` still watched (`old` is closed): `new` watches
  /// in its place, and is shown the table (the answer to the link's next `spectate`).
  public mutating func handOver(from old: ConnectionID, to new: ConnectionID) -> [LobbyAction] {
    guard let table = tableOfSpectator.removeValue(forKey: old), var watch = watches[table] else {
      return []
    }
    watch.watchers.remove(old)
    watch.waiting.removeAll { $0.0 == old }
    watch.waiting.append((new, nil))
    tableOfSpectator[new] = table
    var actions: [LobbyAction] = []
    if watch.isOpen && watch.asked == nil { actions.append(ask(&watch)) }
    watches[table] = watch
    return actions
  }

  /// `connection` stops watching (it left, went, or watches something else); the link goes
  /// when nobody is left.
  public mutating func unwatch(_ connection: ConnectionID) -> [LobbyAction] {
    guard let table = tableOfSpectator.removeValue(forKey: connection),
      var watch = watches[table]
    else { return [] }
    watch.watchers.remove(connection)
    watch.waiting.removeAll { $0.0 == connection }
    guard watch.isEmpty else {
      watches[table] = watch
      return []
    }
    watches[table] = nil
    tableOfLink[watch.link] = nil
    forgetChats(of: watch.link)
    return [.close(watch.link, code: 1000, reason: "nobody watches here")]
  }

  /// `connection`, watching, asks (`replyTo`) for the table afresh (`resync`): it is answered
  /// with the answer to the link's next `spectate`, and goes on getting the frames meanwhile
  /// (those the link carries before the answer came before it, as they would to a spectator
  /// there: the snapshot then agrees with them). Whether it watches here at all.
  public mutating func resync(_ connection: ConnectionID, replyTo: MessageID?) -> [LobbyAction]? {
    guard let table = tableOfSpectator[connection], var watch = watches[table] else { return nil }
    watch.waiting.removeAll { $0.0 == connection }
    watch.waiting.append((connection, replyTo))
    var actions: [LobbyAction] = []
    if watch.isOpen && watch.asked == nil { actions.append(ask(&watch)) }
    watches[table] = watch
    return actions
  }

  // MARK: - Inside

  mutating func ask(_ watch: inout Watch) -> LobbyAction {
    asks += 1
    let id = MessageID.string("watch-\(asks)")
    watch.asked = id
    let message = ClientEnvelope(id: id, message: .spectate(.code(watch.code)))
    return .send(Frame(message.json), to: [watch.link])
  }

  /// The answer to the link's `spectate`: a snapshot for everyone waiting (re-addressed to
  /// each, as its own answer; without a `replyTo` for those shown the table before a lost
  /// link), who then watch; anything else (an error) for those who asked.
  mutating func answered(_ type: String, _ message: JSONValue, _ watch: inout Watch)
    -> [LobbyAction]
  {
    watch.asked = nil
    let waiting = watch.waiting
    watch.waiting = []
    var actions: [LobbyAction] = []
    if type == "snapshot" {
      watch.losses = 0
      watch.isShown = true
    }
    for (connection, replyTo) in waiting {
      actions.append(.send(Frame(Self.readdressed(message, to: replyTo)), to: [connection]))
      if type == "snapshot" {
        watch.watchers.insert(connection)
      } else {
        tableOfSpectator[connection] = nil
      }
    }
    if watch.isEmpty {
      // The caller forgets it.
      actions.append(.close(watch.link, code: 1000, reason: "nobody watches here"))
    }
    return actions
  }

  mutating func reconnect(_ watch: inout Watch, to url: String) -> [LobbyAction] {
    var actions: [LobbyAction] = []
    if tableOfLink[watch.link] != nil {
      tableOfLink[watch.link] = nil
      actions.append(.close(watch.link, code: 1000, reason: "the table moved"))
    }
    forgetChats(of: watch.link)
    watch.waitAgain()
    links += 1
    watch.link = ConnectionID.link(links)
    watch.url = url
    watch.isOpen = false
    watch.isShown = false
    watch.told = -1
    watch.asked = nil
    tableOfLink[watch.link] = watch.table
    actions.append(.connect(watch.link, url: url))
    return actions
  }
}
