import Foundation

extension PostgresJournalStore {
  /// Renews the leases of every open table this server holds, for ``lease`` seconds from now.
  public func renewLeases() throws {
    try perform("cannot renew the leases in \(location)") { connection in
      _ = try run(
        """
        UPDATE game_table SET lease_until = now() + make_interval(secs => \(lease))
        WHERE owner = \(owner) AND open
        """, on: connection)
    }
  }

  /// Renews the leases every third of ``lease`` on a thread of its own, until ``close()``, so
  /// that a server with nothing to write keeps its tables. A failure is logged and the next
  /// renewal tried as usual.
  public func startLeaseRenewal() {
    let thread = Thread { [self] in
      while true {
        Thread.sleep(forTimeInterval: lease / 3)
        if closed.load(ordering: .relaxed) { return }
        do {
          try renewLeases()
        } catch {
          logger.warning("\(error)")
        }
      }
    }
    thread.name = "journal-leases"
    thread.start()
  }
}
