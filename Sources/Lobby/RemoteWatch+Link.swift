import Protocol

/// ``RemoteWatch``'s link: its opening, what it carries, its loss, the counts it tells.
extension RemoteWatch {
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
      // The table went to another node: watch it there, at the URL the redirect names, or
      // (a node that names none to clients) where the directory says, once the link is lost.
      guard case .string(let url)? = message["url"] else {
        return [.close(link, code: 1000, reason: "the table moved")]
      }
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
      let count = watch.count
      guard count != watch.told else { continue }
      watch.told = count
      let message = ClientEnvelope(id: nil, message: .watching(count: count, key: key))
      actions.append(.send(Frame(message.json), to: [watch.link]))
      watches[table] = watch
    }
    return actions
  }

  /// `message` with its `replyTo` set to `replyTo` (or taken out).
  static func readdressed(_ message: JSONValue, to replyTo: MessageID?) -> JSONValue {
    guard case .object(var members) = message else { return message }
    members.removeAll { $0.0 == "replyTo" }
    if let replyTo { members.insert(("replyTo", replyTo.json), at: min(1, members.count)) }
    return .object(members)
  }

  static func messageID(_ value: JSONValue) -> MessageID? {
    switch value {
    case .int(let number): .int(number)
    case .string(let text): .string(text)
    default: nil
    }
  }
}
