import Foundation
import Logging
import Synchronization

/// A warning that an outage repeats many times a second (every lease renewal, every look for
/// dead nodes, every try to listen): the first is logged at once, then at most one every
/// ``interval`` seconds, saying how many were left out meanwhile. A new outage after a quiet
/// spell is logged at once again.
public final class RepeatedWarning: Sendable {
  /// Seconds between two lines.
  public let interval: Double
  private let state = Mutex<(last: Double, skipped: Int)>((-.infinity, 0))

  public init(interval: Double = 5) {
    self.interval = interval
  }

  /// How many warnings were left out before one at `now` (which is logged), or nil: leave it
  /// out too.
  public func admit(at now: Double) -> Int? {
    state.withLock { state in
      guard now - state.last >= interval else {
        state.skipped += 1
        return nil
      }
      defer { state = (now, 0) }
      return state.skipped
    }
  }

  /// Logs `message` on `logger` if its time has come.
  public func warning(_ message: @autoclosure () -> String, on logger: Logger) {
    guard let skipped = admit(at: ProcessInfo.processInfo.systemUptime) else { return }
    let more = skipped > 0 ? " (\(skipped) more like it since the last)" : ""
    logger.warning("\(message())\(more)")
  }
}
