/// Unknown invite codes a session tried: one per miss, draining at one per `refillSeconds`.
struct InviteGuesses: Sendable, Equatable {
  /// Misses not yet drained.
  var level: Double
  /// When `level` was last drained.
  var updated: Double

  /// Whether every miss has drained.
  var isEmpty: Bool { level == 0 }

  /// Drains what time has taken away since the last drain.
  mutating func drain(now: Double, refillSeconds: Double) {
    level = max(0, level - (now - updated) / refillSeconds)
    updated = now
  }
}
