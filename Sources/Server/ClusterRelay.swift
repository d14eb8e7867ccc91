import Foundation
import Lobby
import Logging
import Store

/// Carries the lobby's cluster actions to the database on a thread of its own, so that neither
/// a publication nor a session look-up holds up a move: ``LobbyAction/publish(_:)`` (the
/// latest change of each table, gathered while the previous publication runs) and
/// ``LobbyAction/findSession(token:for:)`` (answered to the lobby as news).
///
/// Each waits until the journal has written what was queued before it: the other nodes never
/// hear of a table the journal could still lose, and a session handed on is in the database
/// before anyone looks it up. A publication that fails is kept (merged under newer changes)
/// and tried again.
///
/// **Bounds.** Publications are the latest change of each table (at most one per table).
/// Look-ups wait at most ``lookUpLimit`` at a time (a `hello` each, from connections that may
/// come faster than the database answers); one more is answered ``SessionLookup/unavailable``
/// at once, and its client says `hello` again.
final class ClusterRelay: @unchecked Sendable {
  /// Writes a node's table changes to the cluster (``PostgresClusterLink/publish(_:)``).
  private let publishChanges: @Sendable ([ClusterChange]) throws -> Void
  /// Tells the other nodes of unknown invite codes by address
  /// (``PostgresClusterLink/publishMisses(_:)``).
  private let publishMisses: @Sendable ([String: Int]) throws -> Void
  /// Looks a session up (``PostgresClusterLink/claimSession(token:)``).
  private let claim: @Sendable (String) throws -> SessionLookup
  /// Takes over the tables of dead nodes, or only those named
  /// (``PostgresClusterLink/takeOver(lease:limit:only:)``); nil: this node takes none.
  private let takeOver: (@Sendable ([String]?) throws -> Takeover)?
  /// Told of every takeover before the lobby is (the store holds the tables at their new
  /// epochs; the metrics count them).
  private let tookOver: @Sendable (Takeover) -> Void
  /// Seconds between two looks for tables whose node's lease ran out.
  let scanInterval: Double
  private let journal: JournalWriter?
  private let logger: Logger
  /// Failures to reach the database, logged every few seconds while they last.
  private let failing = RepeatedWarning()
  /// Carries news back to the lobby (set before the first action).
  var hear: @Sendable (ClusterNews) -> Void = { _ in }
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var order: [String] = []
  private var changes: [String: ClusterChange] = [:]
  private var lookUps: [(token: String, connection: ConnectionID)] = []
  /// Unknown invite codes by client address since the last notice of them (at most
  /// ``missLimit`` addresses: more wait for the next).
  private var misses: [String: Int] = [:]
  private var ticket: UInt64 = 0
  /// Tables of dead nodes left alone since this node does not deal their game, said in the log
  /// once each. Only the relay's thread.
  private var notDealt = NotDealtTables()

  /// Seconds before a failed publication is tried again.
  static let retryDelay = 0.5
  /// How often, and how long apart, a session whose table's node is dead is looked up again
  /// while another node takes its table over.
  static let orphanTries = 40
  static let orphanWait = 0.05
  /// Most look-ups waiting at once.
  let lookUpLimit: Int
  /// Most addresses whose misses wait to be told at once; more are not told (their node
  /// counts them all the same).
  static let missLimit = 10_000

  /// A relay to `link`, waiting for `journal`, looking every `scan` seconds for the tables of
  /// nodes whose lease (`lease` seconds) ran out; `tookOver` hears each takeover first. A lease
  /// counts as run out only once this node renewed its own after it ran out and two looks after
  /// its own unbroken renewals began
  /// (``PostgresClusterLink/takeOver(lease:grace:limit:only:games:)``): after the database
  /// stood still, live nodes renew before anyone takes their tables.
  convenience init(
    link: PostgresClusterLink, lease: Double, scan: Double, journal: JournalWriter?,
    logger: Logger, tookOver: @escaping @Sendable (Takeover) -> Void
  ) {
    self.init(
      publish: { try link.publish($0) }, publishMisses: { try link.publishMisses($0) },
      claim: { try link.claimSession(token: $0) },
      takeOver: { try link.takeOver(lease: lease, grace: 2 * scan, only: $0) },
      tookOver: tookOver,
      scanInterval: scan, journal: journal, logger: logger)
  }

  /// A relay that publishes with `publish`, looks sessions up with `claim` and takes tables
  /// over with `takeOver` (tests pass their own).
  init(
    publish: @escaping @Sendable ([ClusterChange]) throws -> Void,
    publishMisses: @escaping @Sendable ([String: Int]) throws -> Void = { _ in },
    claim: @escaping @Sendable (String) throws -> SessionLookup,
    takeOver: (@Sendable ([String]?) throws -> Takeover)? = nil,
    tookOver: @escaping @Sendable (Takeover) -> Void = { _ in }, scanInterval: Double = 0.5,
    journal: JournalWriter?, logger: Logger, lookUpLimit: Int = 1_024
  ) {
    self.publishChanges = publish
    self.publishMisses = publishMisses
    self.claim = claim
    self.takeOver = takeOver
    self.tookOver = tookOver
    self.scanInterval = scanInterval
    self.journal = journal
    self.logger = logger
    self.lookUpLimit = lookUpLimit
  }

  /// Starts the relay's thread (it runs as long as the process).
  func start() {
    let thread = Thread(named: "cluster") { [self] in run() }
    thread.start()
  }

  /// Queues `changes` of this node's tables. Any thread.
  func publish(_ changes: [ClusterChange]) {
    let ticket = journal?.lastQueuedTicket ?? 0
    condition.lock()
    merge(changes)
    self.ticket = max(self.ticket, ticket)
    condition.signal()
    condition.unlock()
  }

  /// Queues a miss of `address` for the other nodes. Any thread.
  func missedGuess(address: String) {
    condition.lock()
    if misses[address] != nil || misses.count < Self.missLimit {
      misses[address, default: 0] += 1
      condition.signal()
    }
    condition.unlock()
  }

  /// Queues a look-up of the session whose token hashes to `token`, for `connection`. Any
  /// thread.
  func findSession(token: String, for connection: ConnectionID) {
    let ticket = journal?.lastQueuedTicket ?? 0
    condition.lock()
    let full = lookUps.count >= lookUpLimit
    if !full {
      lookUps.append((token, connection))
      self.ticket = max(self.ticket, ticket)
      condition.signal()
    }
    condition.unlock()
    if full { hear(.session(connection, .unavailable)) }
  }

  /// Takes over the tables of dead nodes (or only `only`) and hands them to the lobby, before
  /// anything this thread tells it later; whether it took any. A failure is logged; the next
  /// look tries again.
  @discardableResult
  private func adopt(_ only: [String]?) -> Bool {
    guard let takeOver else { return false }
    do {
      let takeover = try takeOver(only)
      for (table, game) in notDealt.heard(takeover.notDealt, full: only == nil) {
        logger.warning(
          "left table \(table) of a dead node alone: this node does not deal its game '\(game)'",
          metadata: ["table": "\(table)", "game": "\(game)"])
      }
      guard !takeover.taken.isEmpty || !takeover.contents.arenas.isEmpty else { return false }
      tookOver(takeover)
      for arena in takeover.contents.arenas {
        logger.notice("took over arena \(arena.id)", metadata: ["arena": "\(arena.id)"])
      }
      for taken in takeover.taken {
        let since = taken.secondsSinceRenewal.map { String(format: "%.2f s", $0) } ?? "-"
        logger.notice(
          "took over table \(taken.table) from \(taken.from ?? "nobody") (\(since) after its last renewal)"
        )
      }
      hear(.adopt(takeover.contents))
      return true
    } catch {
      failing.warning("\(error)", on: logger)
      return false
    }
  }

  /// Adds `changes` after those waiting (the latest change of a table replaces an earlier
  /// one). Under `condition`.
  private func merge(_ changes: [ClusterChange]) {
    for change in changes {
      if self.changes.updateValue(change, forKey: change.id) == nil { order.append(change.id) }
    }
  }

  private func run() {
    var nextScan = Date().addingTimeInterval(scanInterval)
    while true {
      condition.lock()
      while order.isEmpty && lookUps.isEmpty && misses.isEmpty {
        if takeOver != nil && Date() >= nextScan { break }
        if takeOver == nil {
          condition.wait()
        } else {
          _ = condition.wait(until: nextScan)
        }
      }
      let publishing = order.compactMap { changes[$0] }
      let asked = lookUps
      let missed = misses
      let ticket = self.ticket
      order = []
      changes = [:]
      lookUps = []
      misses = [:]
      condition.unlock()
      // Misses are news of the moment: told once, not kept if the database is away.
      do {
        try publishMisses(missed)
      } catch {
        failing.warning("\(error)", on: logger)
      }
      // Not for ever, nor while the journal is down.
      _ = journal?.waitUntilWritten(ticket, timeout: 2, onlyWhileUp: true)
      if Date() >= nextScan {
        nextScan = Date().addingTimeInterval(scanInterval)
        adopt(nil)
      }
      for (token, connection) in asked {
        var lookup: SessionLookup
        do {
          lookup = try claim(token)
          // Its table's node is dead: take the table over first, so that the session comes
          // back to its seat here; then look again. Another node may be taking it over at
          // this moment (its row is locked): look again until one of us has it.
          for _ in 0..<Self.orphanTries {
            guard case .orphaned(let record) = lookup, let table = record.tableID else { break }
            if !adopt([table]) { Thread.sleep(forTimeInterval: Self.orphanWait) }
            lookup = try claim(token)
          }
        } catch {
          failing.warning("\(error)", on: logger)
          lookup = .unavailable
        }
        hear(.session(connection, lookup))
      }
      do {
        if !publishing.isEmpty { try publishChanges(publishing) }
      } catch {
        failing.warning("\(error)", on: logger)
        condition.lock()
        // Newer changes (queued meanwhile) win over these.
        let newer = order.compactMap { changes[$0] }
        order = []
        changes = [:]
        merge(publishing)
        merge(newer)
        condition.unlock()
        Thread.sleep(forTimeInterval: Self.retryDelay)
      }
    }
  }
}
