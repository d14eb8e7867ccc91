import Protocol
import TestSupport
import Testing

@testable import Lobby

/// The lobby as a node of a cluster, driven as a pure value: two nodes whose publications are
/// handed to each other as the database would, redirects that hand a session on through the
/// journal, and `hello`s that wait for a session looked up in the database.
@Suite struct ClusterLobbyTests {
  /// One node: its lobby and what it decided last.
  struct Node {
    var state: LobbyState
    let id: String

    /// A node with journal and cluster on, whose tables are numbered after `firstTable`.
    init(_ id: String, firstTable: Int = 0, cluster: Bool = true, linkKey: String? = nil) throws {
      self.id = id
      var configuration = LobbyConfiguration()
      configuration.journal = true
      configuration.cluster = cluster
      configuration.linkKey = linkKey
      configuration.nodeID = id
      configuration.lobbyFlushInterval = 0
      let tokens = SessionDeskTests.Counter()
      let draws = SessionDeskTests.Counter()
      state = LobbyState(
        configuration: configuration,
        entropy: LobbyEntropy(
          seed: { 5 }, token: { "\(id)-s\(tokens.next())" }, below: { draws.next() % $0 },
          hash: { "h(\($0))" }))
      try state.restore(JournalContents(lastTableNumber: firstTable), now: 0)
    }

    /// `text` from `connection`; the actions.
    mutating func send(_ text: String, from connection: ConnectionID, now: Double = 1)
      -> [LobbyAction]
    {
      state.receive(ClientMessageDecoder.decode(Array(text.utf8)), from: connection, now: now)
    }

    /// `news` heard, then whatever is due at the same moment; the actions.
    mutating func hear(_ news: ClusterNews, now: Double = 1) -> [LobbyAction] {
      state.handle(.cluster(news), now: now) + state.advance(to: now)
    }
  }

  static let ada = ConnectionID(1)
  static let bob = ConnectionID(2)
  static let cy = ConnectionID(3)

  /// The messages sent to `connection`, in order.
  static func messages(_ actions: [LobbyAction], to connection: ConnectionID) throws
    -> [JSONValue]
  {
    try actions.compactMap { action -> JSONValue? in
      switch action {
      case .send(let frame, let to), .sendToCrowd(let frame, let to),
        .sendAtOnce(let frame, let to):
        guard to.contains(connection) else { return nil }
        let message: JSONValue = try #require(JSONValue.parse(Array(frame.payload)))
        return message
      default: return nil
      }
    }
  }

  /// What `actions` publish, in order.
  static func publications(_ actions: [LobbyAction]) -> [ClusterChange] {
    actions.flatMap { action -> [ClusterChange] in
      if case .publish(let changes) = action { changes } else { [] }
    }
  }

  /// The journal entries of `actions`, in order.
  static func entries(_ actions: [LobbyAction]) -> [JournalEntry] {
    actions.compactMap { if case .journal(let entry) = $0 { entry } else { nil } }
  }

  @Test func aTableOpenedOnOneNodeIsListedOnTheOtherWithItsNode() throws {
    var n1 = try Node("n1")
    var n2 = try Node("n2", firstTable: 1000)
    _ = n2.send(#"{"type":"hello","name":"Bob"}"#, from: Self.bob)
    _ = n2.send(#"{"type":"lobby","id":1}"#, from: Self.bob)
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    let created = n1.send(
      #"{"type":"createTable","id":2,"game":"set","seats":2}"#, from: Self.ada)
    // Published after the journal entries that make the table (the shell writes them first).
    let published = Self.publications(created)
    #expect(published.count == 1)
    guard case .upsert(let table) = published.first else {
      Issue.record("no upsert: \(published)")
      return
    }
    #expect(table.listing.node == "n1" && table.listing.id == "t1" && table.listing.seated == 1)
    let publishAt = try #require(
      created.firstIndex { if case .publish = $0 { true } else { false } })
    let lastEntry = try #require(
      created.lastIndex { if case .journal = $0 { true } else { false } })
    #expect(lastEntry < publishAt)
    // n2 hears it: its watcher gets a diff naming the node, and its snapshot lists it.
    let heard = n2.hear(.changes(node: "n1", published))
    let diff = try #require(try Self.messages(heard, to: Self.bob).first)
    #expect(diff["type"]?.stringValue == "lobbyDiff")
    let row = diff["changes"]?.elements?.first?["table"]
    #expect(row?["id"]?.stringValue == "t1" && row?["node"]?.stringValue == "n1")
    let snapshot = try #require(
      try Self.messages(n2.send(#"{"type":"lobby","id":3}"#, from: Self.bob), to: Self.bob).first)
    #expect(snapshot["tables"]?.elements?.first?["node"]?.stringValue == "n1")
    // Nothing of n2's own goes out for someone else's table.
    #expect(Self.publications(heard).isEmpty)
  }

  @Test func joiningAnotherNodesTableRedirectsAndHandsTheSessionOn() throws {
    var n1 = try Node("n1")
    var n2 = try Node("n2", firstTable: 1000)
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    let created = n1.send(#"{"type":"createTable","game":"set","seats":2}"#, from: Self.ada)
    _ = n2.hear(.changes(node: "n1", Self.publications(created)))
    let welcome = try #require(
      try Self.messages(n2.send(#"{"type":"hello","name":"Bob"}"#, from: Self.bob), to: Self.bob)
        .first)
    let token = try #require(welcome["session"]?.stringValue)
    let joined = n2.send(#"{"type":"join","id":7,"table":"t1"}"#, from: Self.bob)
    let redirect = try #require(try Self.messages(joined, to: Self.bob).first)
    #expect(redirect["type"]?.stringValue == "redirect")
    #expect(redirect["replyTo"]?.intValue == 7)
    #expect(redirect["table"]?.stringValue == "t1" && redirect["node"]?.stringValue == "n1")
    #expect(redirect["path"]?.stringValue == "/ws?table=t1&node=n1")
    #expect(redirect["role"]?.stringValue == "player")
    // Written as it is, then let go, before the client hears where to go.
    let entries = Self.entries(joined)
    #expect(
      entries == [
        .session(SessionRecord(token: "h(\(token))", name: "Bob", tableID: nil, seat: nil)),
        .sessionReleased("h(\(token))"),
      ])
    #expect(n2.state.session(for: Self.bob) == nil)
    #expect(n2.state.sessionCount == 0)
    #expect(n2.state.redirectsSent == 1)
    // The client comes to n1 with its token: n1 does not know it and asks the database.
    let hello = n1.send(#"{"type":"hello","id":1,"resume":"\#(token)"}"#, from: Self.cy)
    #expect(try Self.messages(hello, to: Self.cy).isEmpty, "no welcome before the answer")
    let asks = hello.compactMap { action -> String? in
      if case .findSession(let hash, let connection) = action, connection == Self.cy {
        hash
      } else {
        nil
      }
    }
    #expect(asks == ["h(\(token))"])
    let record = SessionRecord(token: "h(\(token))", name: "Bob", tableID: nil, seat: nil)
    let answered = n1.hear(.session(Self.cy, .claimed(record)))
    let resumed = try #require(try Self.messages(answered, to: Self.cy).first)
    #expect(resumed["type"]?.stringValue == "welcome" && resumed["resumed"]?.boolValue == true)
    #expect(resumed["session"]?.stringValue == token && resumed["name"]?.stringValue == "Bob")
    #expect(resumed["replyTo"]?.intValue == 1 && resumed["node"]?.stringValue == "n1")
    // And the join the redirect asked for seats Bob at Ada's table.
    let seated = try Self.messages(
      n1.send(#"{"type":"join","id":2,"table":"t1"}"#, from: Self.cy), to: Self.cy)
    #expect(seated.first?["type"]?.stringValue == "snapshot")
    #expect(seated.first?["table"]?["you"]?.intValue == 1)
  }

  @Test func aSessionWhoseTableIsElsewhereIsWelcomedThenSentThere() throws {
    var n2 = try Node("n2", firstTable: 1000)
    _ = n2.send(#"{"type":"hello","id":4,"resume":"tok"}"#, from: Self.bob)
    let record = SessionRecord(token: "h(tok)", name: "Bob", tableID: "t9", seat: 1)
    let answered = try Self.messages(
      n2.hear(.session(Self.bob, .elsewhere(record, node: "n1", url: "ws://h:1/ws"))),
      to: Self.bob)
    #expect(answered.map { $0["type"]?.stringValue } == ["welcome", "redirect"])
    #expect(
      answered[0]["resumed"]?.boolValue == true && answered[0]["session"]?.stringValue == "tok")
    #expect(
      answered[1]["table"]?.stringValue == "t9" && answered[1]["url"]?.stringValue == "ws://h:1/ws")
    #expect(answered[1]["role"]?.stringValue == "player")
    #expect(n2.state.session(for: Self.bob) == nil, "the session stays its node's")
  }

  @Test func anUnknownSessionOpensANewOneAndAnUnreachableDatabaseSaysSo() throws {
    var n1 = try Node("n1")
    _ = n1.send(#"{"type":"hello","id":1,"name":"Ada","resume":"old"}"#, from: Self.ada)
    let again = try Self.messages(
      n1.send(#"{"type":"hello","id":2,"resume":"old"}"#, from: Self.ada), to: Self.ada)
    #expect(again.first?["code"]?.stringValue == "alreadyHello")
    let opened = try Self.messages(n1.hear(.session(Self.ada, .unknown)), to: Self.ada)
    #expect(opened.first?["type"]?.stringValue == "welcome")
    #expect(
      opened.first?["resumed"]?.boolValue == false && opened.first?["name"]?.stringValue == "Ada")
    _ = n1.send(#"{"type":"hello","id":1,"resume":"other"}"#, from: Self.bob)
    let refused = try Self.messages(n1.hear(.session(Self.bob, .unavailable)), to: Self.bob)
    #expect(refused.first?["code"]?.stringValue == "unavailable")
    #expect(n1.state.session(for: Self.bob) == nil)
    // A connection that left before the answer: the session is this node's, waiting.
    _ = n1.send(#"{"type":"hello","id":1,"resume":"gone"}"#, from: Self.cy)
    _ = n1.state.disconnected(Self.cy, now: 1)
    let record = SessionRecord(token: "h(gone)", name: "Cy", tableID: nil, seat: nil)
    #expect(try Self.messages(n1.hear(.session(Self.cy, .claimed(record))), to: Self.cy).isEmpty)
    #expect(n1.state.sessions.contains { $0.token == "h(gone)" && $0.connection == nil })
  }

  @Test func quickMatchFindsTheFullestSeatOnAnyNodeAndAnInviteCodeWorksAcross() throws {
    var n1 = try Node("n1")
    var n2 = try Node("n2", firstTable: 1000)
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    let created = n1.send(
      #"{"type":"createTable","game":"set","seats":3,"private":true}"#, from: Self.ada)
    let published = Self.publications(created)
    guard case .upsert(let table) = published.first else {
      Issue.record("nothing published")
      return
    }
    #expect(table.isPrivate)
    _ = n2.hear(.changes(node: "n1", published))
    _ = n2.send(#"{"type":"hello","name":"Bob"}"#, from: Self.bob)
    let byCode = try Self.messages(
      n2.send(#"{"type":"spectate","code":"\#(table.code)"}"#, from: Self.bob), to: Self.bob)
    #expect(byCode.first?["type"]?.stringValue == "redirect")
    #expect(byCode.first?["code"]?.stringValue == table.code)
    #expect(byCode.first?["role"]?.stringValue == "spectator")
    // A public waiting table on n1 with one seat taken beats an empty one: quick match goes there.
    _ = n1.send(#"{"type":"hello","name":"Ann"}"#, from: Self.cy)
    let open = n1.send(#"{"type":"quickMatch","game":"set","seats":2}"#, from: Self.cy)
    _ = n2.hear(.changes(node: "n1", Self.publications(open)))
    let dan = ConnectionID(4)
    _ = n2.send(#"{"type":"hello","name":"Dan"}"#, from: dan)
    let matched = try Self.messages(
      n2.send(#"{"type":"quickMatch","game":"set","seats":2}"#, from: dan), to: dan)
    #expect(matched.first?["type"]?.stringValue == "redirect")
    #expect(
      matched.first?["table"]?.stringValue == "t2" && matched.first?["node"]?.stringValue == "n1")
  }

  @Test func aNodeGoneOrASnapshotReplacesWhatWasKnown() throws {
    var n2 = try Node("n2", firstTable: 1000)
    func table(_ id: String, node: String) -> ClusterTable {
      ClusterTable(
        listing: TableListing(
          id: id, game: "set", seats: 2, seated: 1, spectators: 0, phase: .waiting, node: node),
        code: "CODE\(id)", isPrivate: false)
    }
    _ = n2.hear(.changes(node: "n1", [.upsert(table("t1", node: "n1"))]))
    _ = n2.hear(.changes(node: "n3", [.upsert(table("t3", node: "n3"))]))
    #expect(n2.state.tableDirectory.publicListings.map(\.id) == ["t1", "t3"])
    _ = n2.hear(.nodeGone("n1"))
    #expect(n2.state.tableDirectory.publicListings.map(\.id) == ["t3"])
    _ = n2.hear(.snapshot([table("t4", node: "n4"), table("t1001", node: "n2")]))
    #expect(
      n2.state.tableDirectory.publicListings.map(\.id) == ["t4"],
      "the snapshot replaces the others' tables; one naming this node is not another's")
    // A change that names this node (an echo) changes nothing.
    _ = n2.hear(.changes(node: "n2", [.upsert(table("t5", node: "n2"))]))
    #expect(n2.state.tableDirectory.publicListings.map(\.id) == ["t4"])
  }

  @Test func aLobbyThatIsNoNodeIgnoresNewsAndPublishesNothing() throws {
    var alone = try Node("local", cluster: false)
    _ = alone.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    let created = alone.send(#"{"type":"createTable","game":"set","seats":2}"#, from: Self.ada)
    #expect(Self.publications(created).isEmpty)
    let listing = TableListing(
      id: "t9", game: "set", seats: 2, seated: 1, spectators: 0, phase: .waiting, node: "n1")
    _ = alone.hear(
      .changes(node: "n1", [.upsert(ClusterTable(listing: listing, code: "X", isPrivate: false))]))
    #expect(alone.state.tableDirectory.publicListings.map(\.id) == ["t1"])
    // A hello with an unknown token opens a new session at once.
    let welcome = try Self.messages(
      alone.send(#"{"type":"hello","resume":"nope"}"#, from: Self.bob), to: Self.bob)
    #expect(welcome.first?["resumed"]?.boolValue == false)
  }

  @Test func closingATablePublishesItsRemovalAndAllPublicationsListEveryTable() throws {
    var n1 = try Node("n1")
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    _ = n1.send(#"{"type":"createTable","game":"set","seats":2}"#, from: Self.ada)
    #expect(n1.state.takeAllPublications().map(\.id) == ["t1"])
    let left = n1.send(#"{"type":"playSolo","game":"set"}"#, from: Self.ada)
    // Leaving t1 for a solo table: t1 is empty (it stays for its grace) and t2 is private.
    #expect(Set(Self.publications(left).map(\.id)) == ["t1", "t2"])
    let closed = n1.state.advance(to: 1 + LobbyConfiguration().emptyTableGrace + 1)
    #expect(Self.publications(closed) == [.remove(id: "t1")])
  }

  @Test func aTableTakenOverFromADeadNodeIsRebuiltAndItsPlayersComeBackToTheirSeats() throws {
    var n1 = try Node("n1")
    var n2 = try Node("n2", firstTable: 1000)
    var journal = JournalImage()
    func keep(_ actions: [LobbyAction]) -> [LobbyAction] {
      journal.write(Self.entries(actions))
      return actions
    }
    let ada = try #require(
      try Self.messages(
        keep(n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)), to: Self.ada
      )
      .first?["session"]?.stringValue)
    _ = keep(n1.send(#"{"type":"hello","name":"Bob"}"#, from: Self.bob))
    _ = keep(n1.send(#"{"type":"createTable","game":"set","seats":2}"#, from: Self.ada))
    _ = keep(n1.send(#"{"type":"join","table":"t1"}"#, from: Self.bob))
    _ = keep(n1.state.advance(to: 10))  // the countdown ends: dealt
    let card = try #require(n1.state.table("t1")?.snapshot(replyTo: nil, you: 0, now: 10))
    let first = try #require(card["table"]?["board"]?.elements?.first?["id"]?.intValue)
    let moved = keep(
      n1.send(#"{"type":"choose","id":9,"card":\#(first)}"#, from: Self.ada, now: 11))
    let diff = try #require(try Self.messages(moved, to: Self.ada).first)
    let version = try #require(diff["version"]?.intValue)
    // n1 dies; n2 takes t1 over from the journal.
    let contents = journal.contents
    #expect(contents.tables.map(\.record.id) == ["t1"])
    _ = n2.hear(.adopt(contents), now: 20)
    #expect(n2.state.tablesTakenOver == 1)
    // As the players last saw it, and on from there (seats held: an `away` for each).
    #expect((n2.state.table("t1")?.version ?? 0) >= version)
    // Ada comes back to n2 with her session and the version she saw: in her seat, her pick on.
    let back = try Self.messages(
      n2.send(
        #"{"type":"hello","id":1,"resume":"\#(ada)","version":\#(version)}"#, from: Self.cy, now: 21
      ),
      to: Self.cy)
    #expect(
      back.first?["type"]?.stringValue == "welcome" && back.first?["resumed"]?.boolValue == true)
    let again = try Self.messages(
      n2.send(#"{"type":"resync","id":2}"#, from: Self.cy, now: 21), to: Self.cy)
    let table = try #require(again.first?["table"])
    #expect(table["you"]?.intValue == 0)
    #expect(table["players"]?.elements?.first?["selection"]?.elements?.first?.intValue == first)
    // It publishes the table as its own.
    #expect(n2.state.takeAllPublications().map(\.id).contains("t1"))
  }

  @Test func aTableLostToAnotherNodeIsGivenUpAndItsMembersClosedAtOnce() throws {
    var n1 = try Node("n1")
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    _ = n1.send(#"{"type":"hello","name":"Bob"}"#, from: Self.bob)
    _ = n1.send(#"{"type":"createTable","game":"set","seats":3}"#, from: Self.ada)
    _ = n1.send(#"{"type":"spectate","table":"t1"}"#, from: Self.bob)
    let lost = n1.hear(.lost(["t1"]))
    let closed = lost.compactMap { action -> (ConnectionID, UInt16)? in
      if case .closeAtOnce(let connection, let code, _) = action { (connection, code) } else { nil }
    }
    #expect(Set(closed.map(\.0)) == [Self.ada, Self.bob])
    #expect(closed.allSatisfy { $0.1 == CloseCode.tableMoved })
    #expect(n1.state.table("t1") == nil && n1.state.tablesGivenUp == 1)
    // Nothing about the table is written or published: it is another node's now.
    #expect(
      Self.entries(lost).allSatisfy {
        if case .session = $0 { true } else if case .sessionReleased = $0 { true } else { false }
      })
    #expect(Self.publications(lost).isEmpty)
    #expect(n1.state.session(for: Self.ada) == nil)
  }

  @Test func aTableGivenUpIsListedAsTheNewOwnersWhenItPublishedItFirst() throws {
    var n1 = try Node("n1")
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    _ = n1.send(#"{"type":"createTable","game":"set","seats":3}"#, from: Self.ada)
    // n2 took t1 over while n1 was frozen and published it; n1 hears that first: still its own.
    let listing = TableListing(
      id: "t1", game: "set", seats: 3, seated: 1, spectators: 0, phase: .waiting, node: "n2")
    _ = n1.hear(
      .changes(node: "n2", [.upsert(ClusterTable(listing: listing, code: "C", isPrivate: false))]))
    #expect(n1.state.tableDirectory.entry("t1")?.isRemote == false)
    _ = n1.hear(.lost(["t1"]))
    let entry = try #require(n1.state.tableDirectory.entry("t1"))
    #expect(entry.isRemote && entry.listing.node == "n2")
  }

  @Test func aJournalEntryIsAboutItsTableAndASessionAboutNone() {
    let tables: Set<String> = ["t1"]
    let move = JournalMove(
      table: "t1", deal: 1, index: 0, move: .choose(seat: 0, card: 3), at: 1, version: 2)
    #expect(JournalEntry.move(move).isAbout(tables))
    #expect(JournalEntry.tableClosed("t1").isAbout(tables))
    #expect(!JournalEntry.tableClosed("t12").isAbout(tables))
    #expect(!JournalEntry.sessionEnded("h").isAbout(tables))
    #expect(
      !JournalEntry.session(SessionRecord(token: "h", name: "A", tableID: "t1", seat: 0))
        .isAbout(tables))
  }
}
