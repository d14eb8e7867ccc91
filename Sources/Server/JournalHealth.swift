/// Whether the journal can take moves now, decided from what its writer does: a pure value that
/// ``JournalWriter`` runs under its lock, and that tests drive directly.
///
/// The journal is down from a failed write until a write succeeds. It is also down while one
/// write has taken longer than ``stallLimit``: a disk or a database that hangs rather than fails
/// (a frozen file system, a database server that stops answering) would otherwise leave every
/// move taken meanwhile unanswered for as long as it hangs, its frames held. While the journal
/// is down the lobby refuses moves at once with `unavailable`
/// (`LobbyState.journalAvailable(_:)`); the write in progress goes on, and the frames behind it
/// stay held until it ends.
struct JournalHealth: Sendable {
  /// What changed, for the log and the metrics.
  enum Change: Equatable, Sendable {
    /// A write failed while the journal was up.
    case failed
    /// The write in progress has taken longer than ``JournalHealth/stallLimit``.
    case stalled
    /// A write succeeded while the journal was down.
    case recovered
  }

  /// The longest a write may take before the journal counts as down, in seconds.
  let stallLimit: Double
  /// Whether moves are refused now.
  private(set) var down = false
  /// When the write in progress began (monotonic seconds); nil between writes.
  private(set) var writingSince: Double?

  /// A journal that is up, where a write may take up to `stallLimit` seconds.
  init(stallLimit: Double) {
    precondition(stallLimit > 0, "a write may take some time")
    self.stallLimit = stallLimit
  }

  /// A write begins at `now`.
  mutating func began(at now: Double) {
    writingSince = now
  }

  /// The write in progress succeeded.
  mutating func succeeded() -> Change? {
    writingSince = nil
    guard down else { return nil }
    down = false
    return .recovered
  }

  /// The write in progress failed (it will be tried again).
  mutating func failed() -> Change? {
    writingSince = nil
    guard !down else { return nil }
    down = true
    return .failed
  }

  /// Looks at the write in progress at `now`: one that has taken ``stallLimit`` or longer puts
  /// the journal down.
  mutating func check(at now: Double) -> Change? {
    guard !down, let since = writingSince, now - since >= stallLimit else { return nil }
    down = true
    return .stalled
  }
}
