import Foundation
import Lobby
import Model
import Protocol
import Synchronization
import Testing

@testable import Store

/// The nodes of a cluster through a real PostgreSQL server: publications heard by the others
/// (a snapshot first, then changes, within half a second), a node leaving, sessions claimed,
/// left where their table is, or handed on; a node never overwrites a session another owns.
@Suite struct PostgresClusterLinkTests {
  /// What a link heard, in order, with a condition to wait on.
  final class Ear: Sendable {
    private let heard = Mutex<[ClusterNews]>([])

    func hear(_ news: ClusterNews) { heard.withLock { $0.append(news) } }

    /// Waits (at most `seconds`) until `done` holds for what was heard; returns it.
    func wait(seconds: Double = 5, until done: ([ClusterNews]) -> Bool) -> [ClusterNews] {
      let deadline = Date().addingTimeInterval(seconds)
      while Date() < deadline {
        let now = heard.withLock { $0 }
        if done(now) { return now }
        Thread.sleep(forTimeInterval: 0.005)
      }
      return heard.withLock { $0 }
    }
  }

  static func table(_ id: String, node: String, seated: Int = 1, isPrivate: Bool = false)
    -> ClusterTable
  {
    ClusterTable(
      listing: TableListing(
        id: id, game: "set", seats: 2, seated: seated, spectators: 0, phase: .waiting, node: node
      ), code: "C\(id)", isPrivate: isPrivate)
  }

  static func link(
    _ node: String, at location: PostgresLocation, ear: Ear, url: String? = nil,
    linkURL: String? = nil
  ) -> PostgresClusterLink {
    PostgresClusterLink(
      location: location, node: node, url: url, linkURL: linkURL, logger: PostgresCluster.quiet,
      hear: { ear.hear($0) })
  }

  /// The tables of `news` after applying it in order, by id.
  static func tables(after news: [ClusterNews]) -> [String: ClusterTable] {
    var tables: [String: ClusterTable] = [:]
    for item in news {
      switch item {
      case .snapshot(let all): tables = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
      case .changes(_, let changes):
        for change in changes {
          switch change {
          case .upsert(let table): tables[table.id] = table
          case .remove(let id): tables[id] = nil
          }
        }
      case .nodeGone(let node): tables = tables.filter { $0.value.listing.node != node }
      case .session, .adopt, .lost, .ratings, .guessesMissed: break
      }
    }
    return tables
  }

  @Test func aNodeHearsTheOthersTablesAtOnceAndTheirChangesWithinHalfASecond() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    // Creates the schema (the cluster's tables come with the journal's).
    _ = try PostgresJournalStore(location: location, owner: "n1", logger: PostgresCluster.quiet)
    let ear1 = Ear()
    let ear2 = Ear()
    let n1 = Self.link("n1", at: location, ear: ear1, url: "ws://127.0.0.1:9001/ws")
    try n1.join([.upsert(Self.table("t1", node: "n1"))])
    // n2 gives no URL to clients, only its address to the nodes.
    let n2 = Self.link("n2", at: location, ear: ear2, linkURL: "ws://10.0.0.2:9002/")
    try n2.join([.upsert(Self.table("t1000", node: "n2"))])
    n1.startListening()
    n2.startListening()
    defer {
      n1.leave()
      n2.leave()
    }
    // Each hears a snapshot of the other's tables (never its own), with the node's URLs.
    let first2 = ear2.wait { $0.contains { if case .snapshot = $0 { true } else { false } } }
    let snapshot2 = Self.tables(after: first2)
    #expect(Array(snapshot2.keys) == ["t1"])
    #expect(snapshot2["t1"]?.url == "ws://127.0.0.1:9001/ws")
    #expect(snapshot2["t1"]?.linkURL == "ws://127.0.0.1:9001/ws")
    let first1 = ear1.wait { $0.contains { if case .snapshot = $0 { true } else { false } } }
    let snapshot1 = Self.tables(after: first1)
    #expect(snapshot1["t1000"]?.listing.node == "n2")
    #expect(snapshot1["t1000"]?.url == nil)
    #expect(snapshot1["t1000"]?.linkURL == "ws://10.0.0.2:9002/")
    // n2's changes, heard as notifications, name its address to the nodes too.
    try n2.publish([.upsert(Self.table("t1001", node: "n2"))])
    let fromN2 = Self.tables(after: ear1.wait { Self.tables(after: $0)["t1001"] != nil })
    #expect(fromN2["t1001"]?.url == nil && fromN2["t1001"]?.linkURL == "ws://10.0.0.2:9002/")
    // A change on n1, and a private table with a long run of others: heard in order.
    var changes: [ClusterChange] = [.upsert(Self.table("t1", node: "n1", seated: 2))]
    for number in 2...120 {
      changes.append(.upsert(Self.table("t\(number)", node: "n1", isPrivate: number == 7)))
    }
    changes.append(.remove(id: "t3"))
    try n1.publish(changes)
    let heard = ear2.wait { Self.tables(after: $0).count == 119 }
    let tables = Self.tables(after: heard)
    #expect(tables.count == 119, "t1, t2, t4…t120")
    #expect(tables["t1"]?.listing.seated == 2)
    #expect(tables["t3"] == nil)
    #expect(tables["t7"]?.isPrivate == true && tables["t7"]?.code == "Ct7")
    #expect(tables["t7"]?.linkURL == "ws://127.0.0.1:9001/ws")
    // Pushed as n1's changes (notifications), not found by a later snapshot: n2 heard one
    // snapshot, the first, and n1's changes after it.
    #expect(heard.count { if case .snapshot = $0 { true } else { false } } == 1)
    #expect(heard.contains { if case .changes(node: "n1", _) = $0 { true } else { false } })
    // n1 leaves: n2 hears its tables go.
    n1.leave()
    let after = ear2.wait { Self.tables(after: $0).isEmpty }
    #expect(Self.tables(after: after).isEmpty)
    #expect(after.contains { if case .nodeGone("n1") = $0 { true } else { false } })
  }

  @Test func aSessionIsClaimedLeftWhereItsTableIsOrHandedOn() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let store1 = try PostgresJournalStore(
      location: location, owner: "n1", logger: PostgresCluster.quiet)
    let store2 = try PostgresJournalStore(
      location: location, owner: "n2", logger: PostgresCluster.quiet)
    // Each node's lease (load takes it).
    _ = try store1.load()
    _ = try store2.load()
    let ear = Ear()
    let n2 = Self.link("n2", at: location, ear: ear)
    try n2.join([])
    defer { n2.leave() }
    #expect(try n2.claimSession(token: "h(none)").isUnknown)
    // Seated at n1's table, whose lease is live: it stays there.
    try store1.write([
      .table(JournalStoreTests.record("t1")),
      .session(SessionRecord(token: "h(ada)", name: "Ada", tableID: "t1", seat: 0)),
    ])
    let n1 = Self.link("n1", at: location, ear: ear, url: "ws://n1/ws")
    try n1.join([])
    defer { n1.leave() }
    guard case .elsewhere(let record, let node, let url) = try n2.claimSession(token: "h(ada)")
    else {
      Issue.record("not elsewhere")
      return
    }
    #expect(record.name == "Ada" && record.tableID == "t1" && record.seat == 0)
    #expect(node == "n1" && url == "ws://n1/ws")
    // In n1's lobby (no table): n2 claims it, and n1 can no longer write or end it.
    try store1.write([
      .session(SessionRecord(token: "h(bob)", name: "Bob", tableID: nil, seat: nil))
    ])
    guard case .claimed(let bob) = try n2.claimSession(token: "h(bob)") else {
      Issue.record("not claimed")
      return
    }
    #expect(bob.name == "Bob")
    try store1.write([
      .session(SessionRecord(token: "h(bob)", name: "Bobby", tableID: nil, seat: nil)),
      .sessionEnded("h(bob)"),
    ])
    try store2.write([
      .session(SessionRecord(token: "h(bob)", name: "Bob2", tableID: nil, seat: nil))
    ])
    #expect(try Self.session("h(bob)", in: store2) == ["Bob2", "n2"])
    // Handed on by n1: written, then nobody's, then whoever asks first claims it.
    try store1.write([
      .session(SessionRecord(token: "h(cy)", name: "Cy", tableID: nil, seat: nil)),
      .sessionReleased("h(cy)"),
    ])
    #expect(try Self.session("h(cy)", in: store1) == ["Cy", ""])
    guard case .claimed = try n2.claimSession(token: "h(cy)") else {
      Issue.record("not claimed")
      return
    }
    #expect(try Self.session("h(cy)", in: store1) == ["Cy", "n2"])
  }

  /// The session's name and owner ("" for none), read as the database has them.
  static func session(_ token: String, in store: PostgresJournalStore) throws -> [String] {
    try store.perform("read") { connection in
      guard
        let row = try store.run(
          "SELECT name, COALESCE(owner, '') FROM session WHERE token = \(token)",
          on: connection
        ).first
      else { return [] }
      let (name, owner) = try row.decode((String, String).self)
      return [name, owner]
    }
  }

  @Test func aNoticeCarriesWhoSitsThereAndTheSettings() throws {
    var table = Self.table("t4", node: "n1", seated: 2)
    table.listing.players = [.init(name: "Ada"), .init(name: "Bob", away: true)]
    table.listing.settings = ServerMessage.settings(.set(seats: 2))
    table.listing.turnSeconds = 30
    let payloads = try ClusterNotice.payloads(
      node: "n1", url: nil, at: 0, changes: [.upsert(table)])
    let notice = try JSONDecoder().decode(ClusterNotice.self, from: Data(payloads[0].utf8))
    guard case .changes(_, let changes) = try #require(notice.news.first),
      case .upsert(let heard) = try #require(changes.first)
    else {
      Issue.record("no upsert in \(notice.news)")
      return
    }
    #expect(heard.listing == table.listing)
  }

  @Test func noticesFitPostgreSQLsPayloadLimit() throws {
    var changes: [ClusterChange] = []
    for number in 1...500 { changes.append(.upsert(Self.table("t\(number)", node: "n1"))) }
    let payloads = try ClusterNotice.payloads(
      node: "n1", url: "ws://example/ws", at: 0, changes: changes)
    #expect(payloads.count > 1)
    #expect(payloads.allSatisfy { $0.utf8.count <= ClusterNotice.payloadLimit })
    let decoded = try payloads.map {
      try JSONDecoder().decode(ClusterNotice.self, from: Data($0.utf8))
    }
    #expect(decoded.flatMap(\.rows).map(\.id) == changes.map(\.id))
    #expect(decoded.allSatisfy { $0.gone == nil })
    let leaving = try ClusterNotice.payloads(node: "n1", url: nil, at: 0, changes: [], gone: true)
    #expect(leaving.count == 1)
    #expect(
      try JSONDecoder().decode(ClusterNotice.self, from: Data(leaving[0].utf8)).news.count == 1)
  }
}

extension SessionLookup {
  var isUnknown: Bool { if case .unknown = self { true } else { false } }
}
