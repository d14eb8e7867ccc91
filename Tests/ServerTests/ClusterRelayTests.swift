import Foundation
import Lobby
import Logging
import Protocol
import Synchronization
import Testing

@testable import Server

/// The cluster's relay, with the database replaced by closures: publications gather by table
/// while one runs, a failed one is tried again under newer changes, and look-ups are bounded.
@Suite struct ClusterRelayTests {
  /// What the fake database saw and heard, and a gate that holds its calls.
  final class Database: Sendable {
    let published = Mutex<[[ClusterChange]]>([])
    let asked = Mutex<[String]>([])
    let heard = Mutex<[ClusterNews]>([])
    let failures = Mutex(0)
    let entered = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    let holds = Mutex(false)

    func pass() {
      entered.signal()
      if holds.withLock({ $0 }) { gate.wait() }
    }

    func relay(lookUpLimit: Int = 1_024) -> ClusterRelay {
      let relay = ClusterRelay(
        publish: { [self] changes in
          pass()
          let fail = failures.withLock { count in
            defer { count = max(0, count - 1) }
            return count > 0
          }
          if fail { throw StoreFailure() }
          published.withLock { $0.append(changes) }
        },
        claim: { [self] token in
          pass()
          asked.withLock { $0.append(token) }
          return .unknown
        }, journal: nil, logger: Logger(label: "test"), lookUpLimit: lookUpLimit)
      relay.hear = { [self] news in heard.withLock { $0.append(news) } }
      return relay
    }

    /// Waits (at most 5 s) until `done` holds.
    func wait(until done: () -> Bool) {
      let deadline = Date().addingTimeInterval(5)
      while !done() && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
    }
  }

  struct StoreFailure: Error {}

  static func row(_ id: String, seated: Int) -> ClusterChange {
    .upsert(
      ClusterTable(
        listing: TableListing(
          id: id, game: "set", seats: 4, seated: seated, spectators: 0, phase: .waiting,
          node: "n1"), code: "C\(id)", isPrivate: false))
  }

  @Test func changesGatherWhileAPublicationRunsTheLatestOfEachTableInFirstOrder() {
    let database = Database()
    database.holds.withLock { $0 = true }
    let relay = database.relay()
    relay.start()
    relay.publish([Self.row("t1", seated: 1)])
    database.entered.wait()  // the first publication is under way, and held
    relay.publish([Self.row("t2", seated: 1), Self.row("t1", seated: 2)])
    relay.publish([Self.row("t1", seated: 3), .remove(id: "t3")])
    database.holds.withLock { $0 = false }
    database.gate.signal()
    database.wait { database.published.withLock { $0.count } == 2 }
    let published = database.published.withLock { $0 }
    #expect(published.first == [Self.row("t1", seated: 1)])
    #expect(
      published.last == [Self.row("t2", seated: 1), Self.row("t1", seated: 3), .remove(id: "t3")])
  }

  @Test func aFailedPublicationIsTriedAgainWithNewerChangesWinning() {
    let database = Database()
    database.failures.withLock { $0 = 1 }
    database.holds.withLock { $0 = true }
    let relay = database.relay()
    relay.start()
    relay.publish([Self.row("t1", seated: 1), Self.row("t2", seated: 1)])
    database.entered.wait()
    // Made while the one that fails runs: newer than it.
    relay.publish([Self.row("t2", seated: 2)])
    database.holds.withLock { $0 = false }
    database.gate.signal()
    database.wait { !database.published.withLock { $0.isEmpty } }
    #expect(
      database.published.withLock { $0 } == [
        [Self.row("t1", seated: 1), Self.row("t2", seated: 2)]
      ])
  }

  @Test func lookUpsBeyondTheLimitAreAnsweredUnavailableAtOnce() {
    let database = Database()
    database.holds.withLock { $0 = true }
    let relay = database.relay(lookUpLimit: 2)
    relay.start()
    relay.findSession(token: "a", for: ConnectionID(1))
    database.entered.wait()  // "a" is being looked up (held); two more may wait
    relay.findSession(token: "b", for: ConnectionID(2))
    relay.findSession(token: "c", for: ConnectionID(3))
    relay.findSession(token: "d", for: ConnectionID(4))
    let refused = database.heard.withLock { $0 }
    #expect(refused.count == 1)
    if case .session(let connection, .unavailable) = refused.first {
      #expect(connection == ConnectionID(4))
    } else {
      Issue.record("not refused: \(refused)")
    }
    database.holds.withLock { $0 = false }
    database.gate.signal()
    database.wait { database.heard.withLock { $0.count } == 4 }
    #expect(database.asked.withLock { $0 } == ["a", "b", "c"])
  }
}

/// A table a takeover leaves (its game is not dealt here) is said in the log once, not at every
/// look; one taken elsewhere since is forgotten at the next full look, and said again if it is
/// ever left again.
@Suite struct NotDealtTablesTests {
  @Test func eachTableLeftIsSaidOnce() {
    var tables = NotDealtTables()
    #expect(tables.heard(["t2": "twins", "t9": "poker"], full: true).map(\.table) == ["t2", "t9"])
    #expect(tables.heard(["t2": "twins", "t9": "poker"], full: true).isEmpty)
    #expect(tables.heard(["t2": "twins"], full: false).isEmpty, "a look at t2 alone")
    let newer = tables.heard(["t2": "twins", "t4": "twins"], full: false)
    #expect(newer.map(\.table) == ["t4"] && newer.map(\.game) == ["twins"])
    // t9 was taken by a node that deals poker: the next full look forgets it.
    #expect(tables.heard(["t2": "twins", "t4": "twins"], full: true).isEmpty)
    #expect(tables.said == ["t2", "t4"])
    #expect(tables.heard(["t9": "poker"], full: true).map(\.table) == ["t9"])
    #expect(tables.said == ["t9"])
  }
}
