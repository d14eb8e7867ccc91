import Foundation

extension PostgresJournalStore {
  /// Renews this node's lease (one row of `cluster_node`, whatever the number of its tables)
  /// for ``lease`` seconds from now (on ``clock``).
  public func renewLeases() throws {
    try perform("cannot renew the lease in \(location)") { connection in
      try renewLease(on: connection)
    }
  }

  /// Renews this node's lease on `connection`. A renewal that finds the lease run out (the
  /// node, or the database, stood still longer than a lease) starts the node's `alive_since`
  /// again: the takeover's grace counts from there (``PostgresClusterLink/takeOver``).
  func renewLease(on connection: PostgresConnection) throws {
    _ = try connector.runCommitted(
      """
      INSERT INTO cluster_node (id, lease_until, alive_since)
      VALUES (\(owner), \(unescaped: clock.sql) + make_interval(secs => \(lease)),
        \(unescaped: clock.sql))
      ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until,
        alive_since = CASE
          WHEN cluster_node.alive_since IS NULL OR cluster_node.lease_until IS NULL
            OR cluster_node.lease_until < excluded.alive_since
          THEN excluded.alive_since ELSE cluster_node.alive_since END
      """, on: connection)
  }

  /// Renews the lease every ``renewal`` seconds on a thread of its own, until ``close()``, so
  /// that a node with nothing to write keeps its tables. A failure is logged and the next
  /// renewal tried as usual.
  public func startLeaseRenewal() {
    let thread = Thread(named: "journal-leases") { [self] in
      let failing = RepeatedWarning()
      while true {
        Thread.sleep(forTimeInterval: renewal)
        if closed.load(ordering: .relaxed) { return }
        do {
          try renewLeases()
        } catch {
          failing.warning("\(error)", on: logger)
        }
      }
    }
    thread.start()
  }
}
