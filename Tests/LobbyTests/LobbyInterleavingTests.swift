import Lobby
import Model
import Protocol
import Synchronization
import TestSupport
import Testing

/// A model-based test of the whole lobby state machine: seeded random sequences of connects,
/// hellos, resumes, joins, leaves, quick matches, spectates, disconnects, deadlines and moves,
/// with every invariant checked after every step.
@Suite struct LobbyInterleavingTests {
  /// What one simulated browser knows.
  struct Client {
    var token: String?
    var view: TableClientView?
    var lobbyVersion: Int?
  }

  /// One run: the state machine, the clients' views of it, and the books to check it against.
  struct Run {
    var state: LobbyState
    var random: SeededGenerator
    var now: Double = 0
    var clients: [ConnectionID: Client] = [:]
    var gone: [String: TableClientView?] = [:]
    var nextConnection: UInt64 = 1
    var messageID = 0
    var steps = 0
    /// Whether a seated player's `choose` goes through the one-shard path a concurrent shell
    /// takes (``LobbyState/choose(_:replyTo:from:ticket:now:)``) instead of `receive`.
    let movesOnShards: Bool
    /// Every frame sent, with its recipients, in order (to compare two runs).
    var sent: [String] = []

    init(seed: UInt64, shards: Int = 1, movesOnShards: Bool = false) {
      self.movesOnShards = movesOnShards
      var configuration = LobbyConfiguration()
      configuration.countdown = 1
      configuration.reconnectGrace = 5
      configuration.emptyTableGrace = 3
      configuration.spectatorLimit = 2
      configuration.tablesPerSession = 2
      configuration.maxTables = 6
      configuration.inviteMissBurst = 3
      let tokens = Mutex(0)
      let codes = Mutex(SeededGenerator(seed: seed &+ 1))
      let seeds = Mutex(SeededGenerator(seed: seed &+ 2))
      state = LobbyState(
        configuration: configuration,
        entropy: LobbyEntropy(
          seed: { seeds.withLock { $0.next() } },
          token: {
            tokens.withLock {
              $0 += 1
              return "token-\($0)"
            }
          },
          below: { n in codes.withLock { $0.below(n) } }),
        shards: shards)
      random = SeededGenerator(seed: seed)
    }

    mutating func pick<T>(_ items: [T]) -> T? {
      items.isEmpty ? nil : items[random.below(items.count)]
    }

    /// One random event.
    mutating func step() throws {
      steps += 1
      let connections = clients.keys.sorted { $0.rawValue < $1.rawValue }
      let roll = random.below(100)
      if roll < 8 || connections.isEmpty {
        let connection = ConnectionID(nextConnection)
        nextConnection += 1
        clients[connection] = Client()
        // A new connection says hello: sometimes as a session that exists (a resume).
        let known = gone.keys.sorted() + clients.values.compactMap(\.token).sorted()
        if random.below(3) == 0, let token = pick(known) {
          // The browser resumes with what it last knew: the live connection's view when the
          // session is taken over, or the view it had when it dropped.
          let live = clients.values.first { $0.token == token }
          let old = live.map(\.view) ?? gone[token] ?? nil
          clients[connection]!.view = old
          let version = old.map { ",\"version\":\($0.version)" } ?? ""
          try send(#"{"type":"hello","resume":"\#(token)"\#(version)}"#, from: connection)
        } else {
          try send(#"{"type":"hello","name":"P\#(connection.rawValue)"}"#, from: connection)
        }
        return
      }
      let connection = pick(connections)!
      switch roll {
      case 8..<14:
        // The connection drops; its view is kept for a later resume.
        if let token = clients[connection]?.token { gone[token] = clients[connection]?.view }
        clients[connection] = nil
        try apply(state.disconnected(connection, now: now))
      case 14..<22:
        now += [0.1, 0.3, 1.1, 2.5, 6][random.below(5)]
        try apply(state.advance(to: now))
      case 22..<30:
        let seats = 1 + random.below(4)
        try send(
          #"{"type":"quickMatch","game":"set","seats":\#(seats)}"#, from: connection)
      case 30..<35:
        let seats = 1 + random.below(4)
        let isPrivate = random.below(2) == 0
        try send(
          #"{"type":"createTable","game":"set","seats":\#(seats),"private":\#(isPrivate)}"#,
          from: connection)
      case 35..<38:
        try send(#"{"type":"playSolo","game":"set"}"#, from: connection)
      case 38..<46:
        try send(joinOrSpectate("join"), from: connection)
      case 46..<50:
        try send(joinOrSpectate("spectate"), from: connection)
      case 50..<54:
        try send(#"{"type":"leave"}"#, from: connection)
      case 54..<57:
        try send(#"{"type":"start"}"#, from: connection)
      case 57..<60:
        try send(#"{"type":"redeal"}"#, from: connection)
      case 60..<62:
        try send(#"{"type":"resync"}"#, from: connection)
      case 62..<64:
        try send(#"{"type":"lobby"}"#, from: connection)
      default:
        // A move: mostly a card on the board the client sees, sometimes any card id.
        let board = clients[connection]?.view?.board.compactMap { $0["id"]?.intValue } ?? []
        let card = random.below(5) == 0 ? random.below(90) : (pick(board) ?? random.below(81))
        try send(#"{"type":"choose","card":\#(card)}"#, from: connection)
      }
    }

    mutating func joinOrSpectate(_ type: String) -> String {
      let ids = state.tableIDs.sorted()
      guard let id = pick(ids), let table = state.table(id) else {
        return #"{"type":"\#(type)","code":"NOSUCHCODE"}"#
      }
      switch random.below(3) {
      case 0: return #"{"type":"\#(type)","table":"\#(id)"}"#
      case 1: return #"{"type":"\#(type)","code":"\#(table.code)"}"#
      default: return #"{"type":"\#(type)","code":"ZZZZZZZZZZ"}"#
      }
    }

    mutating func send(_ text: String, from connection: ConnectionID) throws {
      messageID += 1
      var message = text
      message.removeLast()
      message += #","id":\#(messageID)}"#
      let decoded = ClientMessageDecoder.decode(Array(message.utf8))
      if movesOnShards, let move = state.shardMove(decoded, from: connection) {
        // As `ShardedLobby` plays it: on the shard lent, the rest of the state untouched.
        var shards = state.lendShards()
        let decided = LobbyState.play(move, in: &shards[move.shard], now: now)
        state.takeBack(shards)
        try apply(decided.actions)
      } else {
        try apply(state.receive(decoded, from: connection, now: now))
      }
      try apply(state.advance(to: now))
    }

    /// Delivers the actions to the simulated clients, checking versions on the way.
    mutating func apply(_ actions: [LobbyAction]) throws {
      for action in actions {
        switch action {
        case .send(let frame, let recipients), .sendToCrowd(let frame, let recipients),
          .sendAtOnce(let frame, let recipients):
          sent.append(
            "\(recipients.map(\.rawValue).sorted()) \(String(decoding: frame.payload, as: UTF8.self))"
          )
        case .close(let connection, let code, _), .closeAtOnce(let connection, let code, _):
          sent.append("close \(connection.rawValue) \(code)")
        case .journal, .query:
          Issue.record("a journal entry or query from a lobby that does not journal")
        case .publish, .missedGuess, .findSession, .connect:
          Issue.record("a cluster's action from a lobby that is no node of one")
        case .log(let line):
          Issue.record("a line for the log from a lobby that is no node of a cluster: \(line)")
        }
        let delivered: (frame: Frame, to: [ConnectionID])? =
          switch action {
          case .send(let frame, let to), .sendToCrowd(let frame, let to): (frame, to)
          default: nil
          }
        guard let (frame, recipients) = delivered else {
          if case .close(let connection, _, _) = action, let token = clients[connection]?.token {
            // A session taken over elsewhere: the old connection is closed.
            #expect(state.session(for: connection) == nil)
            _ = token
            clients[connection] = nil
          }
          continue
        }
        let message = try #require(JSONValue.parse(frame.payload))
        for connection in recipients {
          guard var client = clients[connection] else { continue }
          switch message["type"]?.stringValue {
          case "welcome":
            client.token = message["session"]?.stringValue
            if message["resumed"] == .bool(false) { client.view = nil }
          case "snapshot":
            client.view = try TableClientView(snapshot: message)
          case "diff":
            // Versions are contiguous per client: `apply` requires exactly the next one.
            if var view = client.view, view.tableID == message["table"]?.stringValue,
              let version = message["version"]?.intValue, version > view.version
            {
              try view.apply(diff: message)
              client.view = view
            }
          case "spectators":
            try client.view?.apply(spectators: message)
          case "left":
            client.view = nil
          case "lobbySnapshot":
            client.lobbyVersion = message["version"]?.intValue
          case "lobbyDiff":
            if let version = client.lobbyVersion {
              #expect(message["version"]?.intValue == version + 1, "lobby diff gap")
            }
            client.lobbyVersion = message["version"]?.intValue
          default:
            break
          }
          clients[connection] = client
        }
      }
    }

    /// Everything that must hold after every step.
    func checkInvariants() throws {
      let ids = Set(state.tableIDs)
      let listed = state.tableDirectory.publicListings.map(\.id)
      // No listing without a table.
      #expect(Set(listed).isSubset(of: ids), "listed but gone: \(Set(listed).subtracting(ids))")
      for session in state.sessions {
        guard let tableID = session.tableID else { continue }
        // Every seated session sits at a table that exists and is listed (or private).
        try #require(ids.contains(tableID), "\(session.token) sits at a closed table \(tableID)")
        let table = try #require(state.table(tableID))
        #expect(table.isPrivate || state.tableDirectory.entry(tableID) != nil)
        if let seat = session.seat {
          #expect(table.seat(of: session.token) == seat)
        }
      }
      for id in ids {
        let members = state.members(of: id)
        // One member per seat.
        let seats = members.values.compactMap { role -> Int? in
          if case .player(let seat) = role { seat } else { nil }
        }
        #expect(seats.count == Set(seats).count, "two members in one seat at \(id)")
        let table = try #require(state.table(id))
        for (connection, role) in members {
          let session = try #require(state.session(for: connection), "a member without a session")
          #expect(session.tableID == id)
          let you: Int? = if case .player(let seat) = role { seat } else { nil }
          #expect(session.seat == you)
          // Every member's state built from what it received equals a fresh snapshot.
          let view = try #require(clients[connection]?.view, "member \(connection) has no view")
          let fresh = try TableClientView(
            snapshot: table.snapshot(replyTo: nil, you: you, now: now))
          #expect(view == fresh, "step \(steps): \(connection) at \(id)\n\(view)\n\(fresh)")
        }
        #expect(table.spectators == members.values.filter { $0 == .spectator }.count)
      }
      // The tables counted by game and phase as they change (the metrics' gauge) are the
      // tables there are, read one by one.
      var kinds: [TableTally.Kind: Int] = [:]
      for id in ids {
        let table = try #require(state.table(id))
        kinds[TableTally.Kind(game: table.gameName, phase: table.phase), default: 0] += 1
      }
      let tally = state.tableTally
      #expect(tally.total == ids.count, "step \(steps): \(tally.counts)")
      for count in tally.counts {
        #expect(count.tables == kinds[count.kind] ?? 0, "step \(steps): \(count)")
      }
      #expect(Set(tally.counts.map(\.kind)).count == tally.counts.count, "each kind once")
    }
  }

  /// Tables spread over shards, with moves decided on their shard alone (as `ShardedLobby`'s
  /// executors decide them), make the very frames one undivided state makes, in the same order.
  @Test(arguments: 1...10)
  func movesDecidedOnTheirShardMatchTheWholeState(seed: UInt64) throws {
    for sequence in 0..<3 {
      let runSeed = seed &* 7_919 &+ UInt64(sequence)
      var whole = Run(seed: runSeed)
      var sharded = Run(seed: runSeed, shards: 3, movesOnShards: true)
      for _ in 0..<150 {
        try whole.step()
        try sharded.step()
        try sharded.checkInvariants()
      }
      #expect(sharded.state.shardCount == 3)
      #expect(whole.sent.count > 100)
      let first = zip(sharded.sent, whole.sent).enumerated().first { $0.element.0 != $0.element.1 }?
        .offset
      #expect(
        first == nil,
        "first difference at \(first ?? -1): \(first.map { sharded.sent[$0] } ?? "")\n vs \(first.map { whole.sent[$0] } ?? "")\n after \(first.map { whole.sent[max(0, $0 - 3)..<$0] } ?? [])"
      )
      #expect(sharded.sent == whole.sent)
      #expect(sharded.state.statistics == whole.state.statistics)
    }
  }

  @Test(arguments: 1...20)
  func randomInterleavingsKeepEveryInvariant(seed: UInt64) throws {
    for sequence in 0..<5 {
      var run = Run(seed: seed &* 1_000 &+ UInt64(sequence))
      for _ in 0..<120 {
        try run.step()
        try run.checkInvariants()
      }
    }
  }
}
