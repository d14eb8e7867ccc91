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
final class ClusterRelay: @unchecked Sendable {
  private let link: PostgresClusterLink
  private let journal: JournalWriter?
  private let logger: Logger
  /// Carries news back to the lobby (set before the first action).
  var hear: @Sendable (ClusterNews) -> Void = { _ in }
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var order: [String] = []
  private var changes: [String: ClusterChange] = [:]
  private var lookUps: [(token: String, connection: ConnectionID)] = []
  private var ticket: UInt64 = 0

  /// Seconds before a failed publication is tried again.
  static let retryDelay = 0.5

  init(link: PostgresClusterLink, journal: JournalWriter?, logger: Logger) {
    self.link = link
    self.journal = journal
    self.logger = logger
  }

  /// Starts the relay's thread (it runs as long as the process).
  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "cluster"
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

  /// Queues a look-up of the session whose token hashes to `token`, for `connection`. Any
  /// thread.
  func findSession(token: String, for connection: ConnectionID) {
    let ticket = journal?.lastQueuedTicket ?? 0
    condition.lock()
    lookUps.append((token, connection))
    self.ticket = max(self.ticket, ticket)
    condition.signal()
    condition.unlock()
  }

  /// Adds `changes` after those waiting (the latest change of a table replaces an earlier
  /// one). Under `condition`.
  private func merge(_ changes: [ClusterChange]) {
    for change in changes {
      if self.changes.updateValue(change, forKey: change.id) == nil { order.append(change.id) }
    }
  }

  private func run() {
    while true {
      condition.lock()
      while order.isEmpty && lookUps.isEmpty { condition.wait() }
      let publishing = order.compactMap { changes[$0] }
      let asked = lookUps
      let ticket = self.ticket
      order = []
      changes = [:]
      lookUps = []
      condition.unlock()
      // Not for ever, nor while the journal is down.
      _ = journal?.waitUntilWritten(ticket, timeout: 2, onlyWhileUp: true)
      for (token, connection) in asked {
        let lookup: SessionLookup
        do {
          lookup = try link.claimSession(token: token)
        } catch {
          logger.warning("\(error)")
          lookup = .unavailable
        }
        hear(.session(connection, lookup))
      }
      do {
        try link.publish(publishing)
      } catch {
        logger.warning("\(error)")
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
