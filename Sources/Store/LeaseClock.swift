import Synchronization

/// The time at which a shared PostgreSQL database decides leases: until when a renewal holds a
/// node's lease, and whether a lease has run out (``PostgresJournalStore/load()``,
/// ``PostgresJournalStore/renewLeases()``, ``PostgresClusterLink/takeOver(lease:limit:only:)``,
/// ``PostgresClusterLink/claimSession(token:)``).
///
/// A server uses ``database``: the database's own clock (`now()`, the time its transaction
/// started), so that the nodes' clocks never matter. A test uses a ``manual(at:)`` clock, shared
/// by every store and link of the test, and moves it on: a lease runs out the moment the test
/// says so, with no wait, and the decision is the very SQL the server runs.
public final class LeaseClock: Sendable {
  /// Seconds since 1970 on a manual clock; nil for the database's clock.
  private let seconds: Mutex<Double?>

  private init(seconds: Double?) {
    self.seconds = Mutex(seconds)
  }

  /// The database's clock: what a server uses.
  public static let database = LeaseClock(seconds: nil)

  /// A clock that stands at `seconds` (since 1970) until it is moved on.
  public static func manual(at seconds: Double) -> LeaseClock {
    precondition(seconds.isFinite && seconds >= 0, "a manual clock needs a time")
    return LeaseClock(seconds: seconds)
  }

  /// Moves a manual clock on by `seconds`.
  public func advance(by seconds: Double) {
    precondition(seconds.isFinite && seconds >= 0, "a clock moves on")
    self.seconds.withLock { now in
      guard let current = now else { preconditionFailure("the database's clock is not moved") }
      now = current + seconds
    }
  }

  /// The time as an SQL expression of type `timestamptz`: `now()`, or a manual clock's time (a
  /// number this type formats, never text from outside).
  var sql: String {
    guard let now = seconds.withLock({ $0 }) else { return "now()" }
    return "to_timestamp(\(now))"
  }
}
