/// How fast each session may chat: a bucket of ``burst`` lines per session that refills by one
/// line every ``refillSeconds``. A session whose bucket is empty is refused (`tooFast`) and
/// its line is not said.
///
/// Bounded: a session's entry goes once its bucket is full again (nothing to remember), checked
/// whenever the map has grown past ``pruneAbove`` entries.
struct ChatAllowances: Sendable {
  /// Lines a session may say at once.
  static let burst = 5.0
  /// Seconds for one more line.
  static let refillSeconds = 2.0
  /// Entries kept before full buckets are let go.
  static let pruneAbove = 1024

  private var buckets: [String: (lines: Double, at: Double)] = [:]

  /// How many sessions have an entry (for tests).
  var count: Int { buckets.count }

  /// Whether the session `token` may say a line at `now`; if it may, the line is counted.
  mutating func take(_ token: String, now: Double) -> Bool {
    var lines = Self.level(buckets[token], now: now)
    guard lines >= 1 else { return false }
    lines -= 1
    buckets[token] = (lines, now)
    if buckets.count > Self.pruneAbove {
      buckets = buckets.filter { Self.level($0.value, now: now) < Self.burst }
    }
    return true
  }

  /// The seconds until `token` may say a line again (0: now).
  func wait(_ token: String, now: Double) -> Double {
    max(0, (1 - Self.level(buckets[token], now: now)) * Self.refillSeconds)
  }

  private static func level(_ bucket: (lines: Double, at: Double)?, now: Double) -> Double {
    guard let bucket else { return burst }
    return min(burst, bucket.lines + max(0, now - bucket.at) / refillSeconds)
  }
}
