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

    /// Its link is lost: those shown the table wait to be shown it again (without a `replyTo`,
    /// unless they asked for it afresh already).
    mutating func waitAgain() {
      for watcher in watchers.ids where !waiting.contains(where: { $0.0 == watcher }) {
        waiting.append((watcher, nil))
      }
      watchers = MemberList()
    }
  }

  /// What ``linkClosed(_:)`` leaves to the lobby.
  public enum Loss: Equatable, Sendable {
    /// Not a watch's link (or nobody watched any more).
    case nothing
    /// Find where table `table` is now and ``reconnect(_:to:)`` (or ``drop(_:)``) after a
    /// pause: its spectators wait.
    case retry(table: String, losses: Int)
  }

  private(set) var watches: [String: Watch] = [:]
  private var tableOfLink: [ConnectionID: String] = [:]
  private var tableOfSpectator: [ConnectionID: String] = [:]
  private var links: UInt64 = 0
  private var asks = 0
  /// Lines of chat said through a link and not yet answered: by the link's message id, the
  /// link, who said it and its own id (forgotten with their link).
  private var chats: [MessageID: (link: ConnectionID, speaker: ConnectionID, replyTo: MessageID?)] =
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
    watches[table].map { $0.watchers.count + $0.waiting.count } ?? 0
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

  /// `connection`, watching, says `text` (its own limits checked) as `name`: the line goes
  /// through the link, whose answer (the line as the table keeps it, or a refusal) answers it,
  /// and the others watching here see it. Refused while the link is not there.
  public mutating func chat(
    _ text: String, name: String, from connection: ConnectionID, replyTo: MessageID?
  ) -> [LobbyAction] {
    guard let table = tableOfSpectator[connection], let watch = watches[table], watch.isOpen,
      let key
    else {
      let refusal = ProtocolError(
        .unavailable, "The table cannot be reached just now; try again.", replyTo: replyTo)
      return [.send(Frame(ServerMessage.error(refusal)), to: [connection])]
    }
    asks += 1
    let id = MessageID.string("chat-\(asks)")
    chats[id] = (watch.link, connection, replyTo)
    let message = ClientEnvelope(
      id: id, message: .watcherChat(name: name, text: text, key: key))
    return [.send(Frame(message.json), to: [watch.link])]
  }

  // MARK: - The link

  /// Link `link` opened: it says hello and asks to spectate.
  public mutating func linkOpened(_ link: ConnectionID) -> [LobbyAction] {
    guard let table = tableOfLink[link], var watch = watches[table], watch.link == link else {
      return [.close(link, code: 1000, reason: "not wanted")]
    }
    watch.isOpen = true
    let hello = ClientEnvelope(id: nil, message: .hello(name: name, resume: nil))
    let actions: [LobbyAction] = [.send(Frame(hello.json), to: [link]), ask(&watch)]
    watches[table] = watch
    return actions
  }

  /// Link `link` carried `bytes` (a server message).
  public mutating func linkMessage(_ link: ConnectionID, _ bytes: [UInt8]) -> [LobbyAction] {
    guard let table = tableOfLink[link], var watch = watches[table], watch.link == link else {
      return []
    }
    guard let message = JSONValue.parse(bytes), case .string(let type)? = message["type"] else {
      return []
    }
    let replyTo = message["replyTo"].flatMap(Self.messageID)
    if let replyTo, let (_, speaker, asked) = chats.removeValue(forKey: replyTo) {
      // A line said through the link: the speaker's answer, and the others' line.
      var actions: [LobbyAction] = [
        .send(Frame(Self.readdressed(message, to: asked)), to: [speaker])
      ]
      let others = watch.watchers.ids.filter { $0 != speaker }
      if type == "chat" && !others.isEmpty {
        actions.append(.sendToCrowd(Frame(Self.readdressed(message, to: nil)), to: others))
      }
      return actions
    }
    if let replyTo, replyTo == watch.asked {
      let actions = answered(type, message, &watch)
      if watch.isEmpty {
        watches[table] = nil
        tableOfLink[link] = nil
        forgetChats(of: link)
      } else {
        watches[table] = watch
      }
      return actions
    }
    switch type {
    case "left":
      // The table closed under the link (or let it go): its spectators here leave it too.
      let told: [LobbyAction] =
        watch.watchers.isEmpty ? [] : [.sendToCrowd(Frame(bytes), to: watch.watchers.ids)]
      return told + drop(table).actions
    case "welcome", "error":
      // Its own hello's answer; an error is for the link alone.
      return []
    case "redirect":
      // The table went to another node: watch it there.
      guard case .string(let url)? = message["url"] else { return [] }
      let actions = reconnect(&watch, to: url)
      watches[table] = watch
      return actions
    default:
      // What every spectator there gets (a move's diff carries its mover's `replyTo`: one frame
      // for everyone at the table), for every spectator here.
      guard !watch.watchers.isEmpty else { return [] }
      return [.sendToCrowd(Frame(bytes), to: watch.watchers.ids)]
    }
  }

  /// Link `link` closed (the other node went, or let it go).
  public mutating func linkClosed(_ link: ConnectionID) -> Loss {
    forgetChats(of: link)
    guard let table = tableOfLink.removeValue(forKey: link), var watch = watches[table],
      watch.link == link
    else { return .nothing }
    watch.isOpen = false
    watch.isShown = false
    watch.told = -1
    watch.asked = nil
    watch.losses += 1
    // Those shown the table ask again with the next link (an answer re-shows it to them).
    watch.waitAgain()
    watches[table] = watch
    return .retry(table: table, losses: watch.losses)
  }

  /// Table `table`'s link was lost and it was not found again: one more loss in a row, and
  /// their number.
  public mutating func lostAgain(_ table: String) -> Int {
    guard var watch = watches[table] else { return 0 }
    watch.losses += 1
    watches[table] = watch
    return watch.losses
  }

  /// Watches `table` again, through a new link to `url` (after a ``Loss/retry(table:losses:)``).
  public mutating func reconnect(_ table: String, to url: String) -> [LobbyAction] {
    guard var watch = watches[table] else { return [] }
    let actions = reconnect(&watch, to: url)
    watches[table] = watch
    return actions
  }

  /// Stops watching `table` through a link: its spectators, who are told nothing here, are
  /// returned (the lobby tells them, or seats them where the table is now).
  public mutating func drop(_ table: String) -> (actions: [LobbyAction], spectators: [ConnectionID])
  {
    guard let watch = watches.removeValue(forKey: table) else { return ([], []) }
    tableOfLink[watch.link] = nil
    forgetChats(of: watch.link)
    let spectators = watch.watchers.ids + watch.waiting.map(\.0)
    for spectator in spectators { tableOfSpectator[spectator] = nil }
    return (watch.isOpen ? [.close(watch.link, code: 1000, reason: "not watched")] : [], spectators)
  }

  /// A `watching` on each link whose table's node has not been told how many spectators it
  /// watches for now (the tables' nodes count them).
  public mutating func countReports() -> [LobbyAction] {
    guard let key else { return [] }
    var actions: [LobbyAction] = []
    for (table, var watch) in watches where watch.isOpen && watch.isShown {
      let count =
        watch.watchers.count + watch.waiting.filter { !watch.watchers.contains($0.0) }.count
      guard count != watch.told else { continue }
      watch.told = count
      let message = ClientEnvelope(id: nil, message: .watching(count: count, key: key))
      actions.append(.send(Frame(message.json), to: [watch.link]))
      watches[table] = watch
    }
    return actions
  }

  // MARK: - Inside

  private mutating func ask(_ watch: inout Watch) -> LobbyAction {
    asks += 1
    let id = MessageID.string("watch-\(asks)")
    watch.asked = id
    let message = ClientEnvelope(id: id, message: .spectate(.code(watch.code)))
    return .send(Frame(message.json), to: [watch.link])
  }

  /// The answer to the link's `spectate`: a snapshot for everyone waiting (re-addressed to
  /// each, as its own answer; without a `replyTo` for those shown the table before a lost
  /// link), who then watch; anything else (an error) for those who asked.
  private mutating func answered(_ type: String, _ message: JSONValue, _ watch: inout Watch)
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

  private mutating func reconnect(_ watch: inout Watch, to url: String) -> [LobbyAction] {
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

  /// Lines said through `link` are answered no more (it is gone).
  private mutating func forgetChats(of link: ConnectionID) {
    chats = chats.filter { $0.value.link != link }
  }

  /// How many lines said through a link wait for their answer (for tests: bounded).
  var chatsWaiting: Int { chats.count }

  /// `message` with its `replyTo` set to `replyTo` (or taken out).
  static func readdressed(_ message: JSONValue, to replyTo: MessageID?) -> JSONValue {
    guard case .object(var members) = message else { return message }
    members.removeAll { $0.0 == "replyTo" }
    if let replyTo { members.insert(("replyTo", replyTo.json), at: min(1, members.count)) }
    return .object(members)
  }

  private static func messageID(_ value: JSONValue) -> MessageID? {
    switch value {
    case .int(let number): .int(number)
    case .string(let text): .string(text)
    default: nil
    }
  }
}
