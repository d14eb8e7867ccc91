/// A token bucket: `capacity` tokens at most, refilled continuously at `refillPerSecond`.
///
/// Pure value type; the caller supplies the time (monotonic seconds), so it is deterministic
/// to test. A clock that goes backwards refills nothing.
struct TokenBucket: Sendable, Equatable {
  /// Most tokens the bucket holds (the allowed burst).
  let capacity: Double
  /// Tokens added per second of elapsed time.
  let refillPerSecond: Double
  /// Tokens available right now (as of the last call).
  private(set) var tokens: Double
  /// Time of the last refill, in the caller's seconds.
  private(set) var lastRefill: Double

  /// A full bucket at time `now`.
  init(capacity: Double, refillPerSecond: Double, now: Double) {
    self.capacity = capacity
    self.refillPerSecond = refillPerSecond
    self.tokens = capacity
    self.lastRefill = now
  }

  /// Takes `cost` tokens at time `now` if that many are available.
  /// - Returns: `false` (and takes nothing) when the bucket holds fewer than `cost` tokens.
  mutating func take(now: Double, cost: Double = 1) -> Bool {
    if now > lastRefill {
      tokens = min(capacity, tokens + (now - lastRefill) * refillPerSecond)
      lastRefill = now
    }
    guard tokens >= cost else { return false }
    tokens -= cost
    return true
  }
}
