import Foundation
import Lobby
import Synchronization
import Testing

@testable import Store

/// Two live nodes take over a dead node's table (or arena) at once: the one whose takeover
/// commits first keeps it, and the other takes nothing, also when its statement began before
/// that commit and reached the row after it. A server's takeover skips a row another holds;
/// here the second takeover waits for it instead (``PostgresClusterLink/RowLocks/awaited``),
/// which puts it through the check PostgreSQL makes of a row changed since the statement
/// began: the same check a skipping takeover meets when the first one commits between its
/// snapshot and its lock. (Before the check compared the row's owner with the one judged dead,
/// the second node took the table again, from the first.)
@Suite struct TakeoverRaceTests {
  enum Row: CaseIterable {
    case table, arena

    /// What the first node's takeover does to the row before it commits.
    var takenByB: PostgresQuery {
      switch self {
      case .table: "UPDATE game_table SET owner = 'b', epoch = epoch + 1 WHERE id = 't1'"
      case .arena: "UPDATE arena SET owner = 'b' WHERE id = 'a1'"
      }
    }

    /// The row's owner now.
    var owner: PostgresQuery {
      switch self {
      case .table: "SELECT owner FROM game_table WHERE id = 't1'"
      case .arena: "SELECT owner FROM arena WHERE id = 'a1'"
      }
    }
  }

  @Test(arguments: Row.allCases)
  func aRowTakenMeanwhileByALiveNodeIsNotTakenAgain(_ row: Row) throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let clock = LeaseClock.manual(at: TakeoverTests.start)
    let a = try TakeoverTests.store("a", at: location, clock: clock)
    let b = try TakeoverTests.store("b", at: location, clock: clock)
    let c = try TakeoverTests.store("c", at: location, clock: clock)
    for store in [a, b, c] { _ = try store.load() }
    try a.write([
      row == .table
        ? .table(JournalStoreTests.record("t1")) : .arena(ArenaStoreTests.arena("a1", ends: 5000))
    ])
    try a.renewLeases()
    // a dies; b and c renew past its lease.
    clock.advance(by: 1.5)
    try b.renewLeases()
    try c.renewLeases()
    let linkC = TakeoverTests.link("c", at: location, clock: clock)
    let holder = PostgresConnector(
      location: location, startup: [], role: "b's takeover", logger: PostgresCluster.quiet)
    let watcher = PostgresConnector(
      location: location, startup: [], role: "watcher", logger: PostgresCluster.quiet)
    let answer = Mutex<Result<Takeover, any Error>?>(nil)
    let answered = DispatchSemaphore(value: 0)
    // b's takeover holds the row, not yet committed, while c's begins and waits for the row.
    try holder.perform("b's takeover") { connection in
      try holder.transaction(on: connection) {
        _ = try holder.run(row.takenByB, on: connection)
        Thread {
          let taken = Result {
            try linkC.takeOver(
              lease: 1, grace: nil, limit: 100, only: nil, games: GameCatalog.games,
              rowLocks: .awaited)
          }
          answer.withLock { $0 = taken }
          answered.signal()
        }.start()
        try Self.waitUntilOneWaitsForARow(watcher)
      }
    }
    answered.wait()
    let takeover = try #require(answer.withLock { $0 }).get()
    #expect(takeover.taken.isEmpty, "c took \(takeover.taken) from b")
    #expect(takeover.contents.arenas.isEmpty, "c took an arena from b")
    let owner = try watcher.perform("owner") { connection in
      try watcher.run(row.owner, on: connection).first?.decode(String?.self)
    }
    #expect(owner == "b")
  }

  /// Nodes that look at once share the work: a takeover skips the rows another one holds and
  /// takes the next ones, up to its limit.
  @Test func aTakeoverSkipsTheRowsAnotherHoldsAndTakesTheNextOnes() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let clock = LeaseClock.manual(at: TakeoverTests.start)
    let a = try TakeoverTests.store("a", at: location, clock: clock)
    let c = try TakeoverTests.store("c", at: location, clock: clock)
    for store in [a, c] { _ = try store.load() }
    try a.write((1...5).map { .table(JournalStoreTests.record("t\($0)")) })
    try a.renewLeases()
    clock.advance(by: 1.5)
    try c.renewLeases()
    let linkC = TakeoverTests.link("c", at: location, clock: clock)
    let holder = PostgresConnector(
      location: location, startup: [], role: "b's takeover", logger: PostgresCluster.quiet)
    let taken = try holder.perform("b's takeover") { connection in
      try holder.transaction(on: connection) {
        let held = try holder.run(
          """
          UPDATE game_table SET owner = 'b', epoch = epoch + 1
          WHERE id IN (SELECT id FROM game_table ORDER BY number LIMIT 2) RETURNING id
          """, on: connection
        ).map { try $0.decode(String.self) }
        #expect(held.count == 2)
        let taken = try linkC.takeOver(lease: 1, limit: 2).taken.map(\.table)
        #expect(Set(taken).isDisjoint(with: held), "c took \(taken), b holds \(held)")
        return taken
      }
    }
    #expect(taken.count == 2, "\(taken)")
  }

  /// Returns once a connection to the database waits for a row lock (within 10 s, or fails).
  static func waitUntilOneWaitsForARow(_ watcher: PostgresConnector) throws {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      let waiting = try watcher.perform("waiting") { connection in
        try watcher.run(
          """
          SELECT count(*)::BIGINT FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
          """, on: connection
        ).first?.decode(Int.self) ?? 0
      }
      if waiting > 0 { return }
      Thread.sleep(forTimeInterval: 0.01)
    }
    Issue.record("c's takeover never waited for the row b holds")
  }
}
