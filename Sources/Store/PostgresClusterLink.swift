import Foundation
import Lobby
import Logging
import Synchronization

/// A node's link to the rest of its cluster through the shared PostgreSQL database: it
/// publishes the node's tables (rows of `cluster_table`, announced on the channel
/// `matchismo_lobby` in the same transaction), hears the other nodes' (a `LISTEN` on a
/// connection of its own, after a snapshot of the rows), and claims sessions the node does not
/// know (`session_claim`).
///
/// **Order.** A node's notices reach every listener in the order the node committed them. A
/// listener that connects (again) first listens, then reads every row, and reads the notices
/// that arrived meanwhile only once the snapshot is delivered: what follows the snapshot is at
/// worst a change it already shows, so every node ends at the latest state.
///
/// **Threads.** ``publish(_:)``, ``claimSession(token:)``, ``join(_:)`` and ``leave()`` block
/// their caller on a connection of their own. What is heard is handed to `hear` on the link's
/// listening thread; it must not block.
public final class PostgresClusterLink: Sendable {
  /// This node's id (also the owner of its leases).
  public let node: String
  /// This node's own WebSocket URL for clients, if it gives one.
  public let url: String?
  /// Where the other nodes reach this node: its ``url``, or its own address when it gives
  /// none to clients (the links that watch its tables for their spectators).
  public let linkURL: String?
  /// The time leases are decided at: the database's clock, unless a test gives its own.
  public let clock: LeaseClock
  let connector: PostgresConnector
  private let logger: Logger
  /// Where what is heard goes.
  private let hear: @Sendable (ClusterNews) -> Void
  /// Told of each notice from another node, once what it says is handed on: its table
  /// changes, its invite-code misses, and how long it took (seconds).
  private let received: @Sendable (_ changes: Int, _ misses: Int, _ seconds: Double) -> Void
  /// The listening connection, and whether the link left.
  private let listening = Mutex(Listening())

  /// The channel the nodes announce their changes on.
  static let channel = "matchismo_lobby"
  /// Seconds between two tries to listen again after the connection was lost.
  static let relistenDelay = 1.0
  /// Seconds between two queries that check the listening connection still answers.
  static let keepaliveInterval = 3.0

  private struct Listening: ~Copyable {
    var connection: PostgresConnection?
    var stopped = false
  }

  /// A link for `node` (at `url` for clients, and at `linkURL` for the other nodes, its `url`
  /// when nil) to the cluster whose database is at `location`, deciding leases at `clock`'s
  /// time.
  public init(
    location: PostgresLocation, node: String, url: String?, linkURL: String? = nil,
    clock: LeaseClock = .database,
    logger: Logger, hear: @escaping @Sendable (ClusterNews) -> Void,
    received: @escaping @Sendable (_ changes: Int, _ misses: Int, _ seconds: Double) -> Void = {
      _, _, _ in
    }
  ) {
    self.node = node
    self.url = url
    self.linkURL = linkURL ?? url
    self.clock = clock
    self.logger = logger
    self.hear = hear
    self.received = received
    connector = PostgresConnector(
      location: location, startup: [("synchronous_commit", "on")], role: "cluster",
      logger: logger)
  }

  // MARK: - Joining and leaving

  /// Joins the cluster with `tables` (every table this node holds): its rows from an earlier
  /// run are replaced, and the other nodes hear it start afresh. Throws a ``StoreError`` when
  /// the database cannot be reached.
  public func join(_ tables: [ClusterChange]) throws {
    let payloads = try ClusterNotice.payloads(
      node: node, url: url, link: linkURL, at: Date().timeIntervalSince1970, changes: [],
      gone: true)
    try connector.perform("cannot join the cluster at \(connector.location)") { connection in
      try connector.transaction(on: connection) {
        _ = try connector.run(
          """
          INSERT INTO cluster_node (id, url, link_url) VALUES (\(node), \(url), \(linkURL))
          ON CONFLICT (id) DO UPDATE SET url = excluded.url, link_url = excluded.link_url,
            started = now()
          """, on: connection)
        _ = try connector.run("DELETE FROM cluster_table WHERE node = \(node)", on: connection)
        _ = try connector.run(
          "SELECT pg_notify(\(Self.channel), p) FROM unnest(\(payloads)) AS p", on: connection)
      }
    }
    try publish(tables)
  }

  /// Starts listening to the other nodes, on a thread of its own, until ``leave()``: first a
  /// snapshot of their tables, then their changes, again after any loss of the connection.
  public func startListening() {
    let thread = Thread(named: "cluster-listen") { [self] in listen() }
    thread.start()
  }

  /// Leaves the cluster: this node's rows go and the other nodes hear so; listening stops.
  /// A failure is logged (the rows then stay until this node joins again).
  public func leave() {
    let stopped = listening.withLock { state in
      state.stopped = true
      return state.connection.take()
    }
    // Its thread closes it, woken by the cut.
    stopped?.interrupt()
    do {
      let payloads = try ClusterNotice.payloads(
        node: node, url: url, link: linkURL, at: Date().timeIntervalSince1970, changes: [],
        gone: true)
      try connector.perform("cannot leave the cluster at \(connector.location)") { connection in
        _ = try connector.run(
          """
          WITH rows AS (DELETE FROM cluster_table WHERE node = \(node)),
            nodes AS (DELETE FROM cluster_node WHERE id = \(node))
          SELECT pg_notify(\(Self.channel), p) FROM unnest(\(payloads)) AS p
          """, on: connection)
      }
    } catch {
      logger.warning("\(error)")
    }
    connector.close()
  }

  // MARK: - Publishing

  /// Writes `changes` of this node's tables and announces them, in one transaction. Throws a
  /// ``StoreError`` when the database cannot be reached (nothing is then written or heard).
  public func publish(_ changes: [ClusterChange]) throws {
    guard !changes.isEmpty else { return }
    let encoder = JSONEncoder()
    var ids: [String] = []
    var codes: [String] = []
    var privates: [Bool] = []
    var listings: [String] = []
    var removed: [String] = []
    for change in changes {
      switch change {
      case .upsert(let table):
        ids.append(table.id)
        codes.append(table.code)
        privates.append(table.isPrivate)
        listings.append(
          String(decoding: try encoder.encode(ClusterNotice.Row(change)), as: UTF8.self))
      case .remove(let id):
        removed.append(id)
      }
    }
    let payloads = try ClusterNotice.payloads(
      node: node, url: url, link: linkURL, at: Date().timeIntervalSince1970, changes: changes)
    try connector.perform("cannot publish to the cluster at \(connector.location)") {
      connection in
      _ = try connector.run(
        """
        WITH up AS (
          INSERT INTO cluster_table (id, node, code, private, listing)
          SELECT u.id, \(node), u.code, u.private, u.listing
          FROM unnest(\(ids), \(codes), \(privates), \(listings)) AS u (id, code, private, listing)
          ON CONFLICT (id) DO UPDATE SET node = excluded.node, code = excluded.code,
            private = excluded.private, listing = excluded.listing),
        gone AS (DELETE FROM cluster_table WHERE id = ANY (\(removed)) AND node = \(node))
        SELECT pg_notify(\(Self.channel), p) FROM unnest(\(payloads)) AS p
        """, on: connection)
    }
  }

  /// Tells the other nodes of unknown invite codes tried here, by client address (a
  /// notification only: nothing is stored). Throws a ``StoreError`` when the database cannot be
  /// reached.
  public func publishMisses(_ misses: [String: Int]) throws {
    guard !misses.isEmpty else { return }
    let payloads = try ClusterNotice.missPayloads(
      node: node, at: Date().timeIntervalSince1970, misses: misses)
    try connector.perform("cannot publish to the cluster at \(connector.location)") {
      connection in
      _ = try connector.run(
        "SELECT pg_notify(\(Self.channel), p) FROM unnest(\(payloads)) AS p", on: connection)
    }
  }

  // MARK: - Sessions

  /// The session whose token hashes to `token`, claimed for this node unless its table is
  /// open under another node's live lease at ``clock``'s time (`session_claim_v9`);
  /// ``SessionLookup/orphaned(_:)``
  /// when its table's node is dead (take the table over, then look again). Throws a
  /// ``StoreError`` when the database cannot be reached.
  public func claimSession(token: String) throws -> SessionLookup {
    try connector.perform("cannot look up a session in \(connector.location)") { connection in
      guard
        let row = try connector.runCommitted(
          """
          SELECT o_outcome, o_name, o_table, o_seat, o_player, o_node, o_url
          FROM session_claim_v9(\(node), \(token), \(unescaped: clock.sql))
          """, on: connection
        ).first
      else { return .unknown }
      let (outcome, name, table, seat, player, holder, holderURL) = try row.decode(
        (String, String?, String?, Int?, String?, String?, String?).self)
      guard let name else { return .unknown }
      let record = SessionRecord(
        token: token, name: name, tableID: table, seat: seat, player: player)
      switch outcome {
      case "claimed": return .claimed(record)
      case "orphaned": return .orphaned(record)
      case "elsewhere": return .elsewhere(record, node: holder ?? "", url: holderURL)
      default: return .unknown
      }
    }
  }

  // MARK: - Listening

  /// The listening thread: listens, reads the snapshot, waits until the connection is lost,
  /// and starts again after ``relistenDelay``, until ``leave()``.
  private func listen() {
    let failing = RepeatedWarning()
    while !listening.withLock({ $0.stopped }) {
      do {
        try listenOnce()
      } catch {
        // Cut by ``leave()``.
        if listening.withLock({ $0.stopped }) { return }
        failing.warning(
          "cluster: not listening to \(connector.location) (\(PostgresJournalStore.reason(error))); trying again",
          on: logger)
      }
      Thread.sleep(forTimeInterval: Self.relistenDelay)
    }
  }

  private func listenOnce() throws {
    let connection = try connector.open()
    let stopped = listening.withLock { state in
      if !state.stopped { state.connection = connection }
      return state.stopped
    }
    defer { connection.close() }
    if stopped { return }
    _ = try connector.run("LISTEN \(unescaped: Self.channel)", on: connection)
    var tables: [ClusterTable] = []
    for row in try connector.run(
      """
      SELECT t.node, n.url, n.link_url, t.listing
      FROM cluster_table t LEFT JOIN cluster_node n ON n.id = t.node
      WHERE t.node <> \(node)
      """, on: connection)
    {
      let (holder, holderURL, holderLink, text) = try row.decode(
        (String, String?, String?, String).self)
      guard
        let row = try? JSONDecoder().decode(ClusterNotice.Row.self, from: Data(text.utf8)),
        case .upsert(let table) = row.change(node: holder, url: holderURL, link: holderLink)
      else { continue }
      tables.append(table)
    }
    hear(.snapshot(tables))
    // What arrived while the snapshot was read comes first (the connection kept it), then
    // whatever arrives. A server cut off (frozen, or its network gone) closes nothing: a query
    // every few seconds finds out (it fails, or its time runs out and closes the connection),
    // and the link listens again, to whichever server accepts writes by then.
    var checked = ContinuousClock.now
    while !connection.isClosed, !listening.withLock({ $0.stopped }) {
      let due = checked + .seconds(Self.keepaliveInterval)
      for payload in try connection.notifications(within: due - ContinuousClock.now) {
        heard(payload)
      }
      if ContinuousClock.now >= due {
        _ = try connector.run("SELECT 1", on: connection)
        checked = ContinuousClock.now
      }
    }
  }

  /// A notification's payload, on the listening thread.
  private func heard(_ payload: String) {
    guard let notice = try? JSONDecoder().decode(ClusterNotice.self, from: Data(payload.utf8))
    else {
      logger.warning("cluster: a notice that is not one of ours on \(Self.channel)")
      return
    }
    guard notice.node != node else { return }
    let seconds = max(0, Date().timeIntervalSince1970 - notice.at)
    for news in notice.news { hear(news) }
    received(notice.rows.count, notice.misses?.values.reduce(0, +) ?? 0, seconds)
  }
}
