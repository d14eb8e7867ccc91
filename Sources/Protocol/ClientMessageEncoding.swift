extension ClientEnvelope {
  /// The envelope as the JSON a client would send: decoding its encoding gives it back. Tests,
  /// fuzz targets and tools build client frames with it; the server itself never sends one.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [("type", .string(message.typeName))]
    if let id { members.append(("id", id.json)) }
    switch message {
    case .hello(let name, let resume, let version, let player, let games):
      if let name { members.append(("name", .string(name))) }
      if let resume { members.append(("resume", .string(resume))) }
      if let version { members.append(("version", .int(version))) }
      if let player { members.append(("player", .string(player))) }
      if let games = games.json { members.append(("games", games)) }
    case .scores(let query):
      members += [
        ("game", .string(query.game)), ("sort", .string(query.sort.rawValue)),
        ("order", .string(query.descending ? "desc" : "asc")), ("page", .int(query.page)),
        ("pageSize", .int(query.pageSize)), ("mine", .bool(query.mine)),
      ]
      if let list = query.list { members.append(("list", .string(list.id))) }
    case .record(let id):
      members.append(("record", .string(id)))
    case .chat(let text):
      members.append(("text", .string(text)))
    case .playDaily(let game):
      members.append(("game", .string(game)))
    case .daily(let game, let yesterday):
      members += [("game", .string(game)), ("day", .string(yesterday ? "yesterday" : "today"))]
    case .ratings(let game):
      members.append(("game", .string(game)))
    case .playSolo(let game, let options):
      members.append(("game", .string(game)))
      members += options.members
    case .playBot(let game, let level, let bots, let options):
      members += [("game", .string(game)), ("level", .string(level)), ("bots", .int(bots))]
      members += options.members
    case .choose(let card):
      members.append(("card", .int(card)))
    case .quickMatch(let game, let seats, let options):
      members += [("game", .string(game)), ("seats", .int(seats))]
      members += options.members
    case .createTable(let game, let seats, let isPrivate, let options):
      members += [("game", .string(game)), ("seats", .int(seats)), ("private", .bool(isPrivate))]
      members += options.members
    case .join(let reference), .spectate(let reference):
      switch reference {
      case .code(let code): members.append(("code", .string(code)))
      case .id(let id): members.append(("table", .string(id)))
      }
    case .addComputer(let level):
      members.append(("level", .string(level)))
    case .createArena(let game, let minutes, let startsIn):
      members += [
        ("game", .string(game)), ("minutes", .int(minutes)), ("startsIn", .int(startsIn)),
      ]
    case .joinArena(.id(let arena)), .leaveArena(let arena), .watchArena(let arena),
      .watchFeatured(let arena):
      members.append(("arena", .string(arena)))
    case .joinArena(.code(let code)):
      members.append(("code", .string(code)))
    case .watching(let count, let key):
      members += [("count", .int(count)), ("key", .string(key))]
    case .watcherChat(let name, let text, let key):
      members += [("name", .string(name)), ("text", .string(text)), ("key", .string(key))]
    case .redeal, .resync, .hint, .countMatches, .lobby, .leave, .start, .arenas:
      break
    }
    return .object(members)
  }
}

extension ClientMessage {
  /// The message's `type` on the wire.
  public var typeName: String {
    switch self {
    case .hello: "hello"
    case .playSolo: "playSolo"
    case .playBot: "playBot"
    case .choose: "choose"
    case .redeal: "redeal"
    case .resync: "resync"
    case .hint: "hint"
    case .countMatches: "countMatches"
    case .lobby: "lobby"
    case .chat: "chat"
    case .playDaily: "playDaily"
    case .daily: "daily"
    case .ratings: "ratings"
    case .quickMatch: "quickMatch"
    case .createTable: "createTable"
    case .join: "join"
    case .spectate: "spectate"
    case .watching: "watching"
    case .watcherChat: "watcherChat"
    case .leave: "leave"
    case .start: "start"
    case .addComputer: "addComputer"
    case .scores: "scores"
    case .record: "record"
    case .arenas: "arenas"
    case .createArena: "createArena"
    case .joinArena: "joinArena"
    case .leaveArena: "leaveArena"
    case .watchArena: "watchArena"
    case .watchFeatured: "watchFeatured"
    }
  }
}
