/// How much of the service thread the crowds' fan-out may take (issue 36): at most ``share``
/// of its time, kept as credit that wall time earns and the crowd members' writes spend.
///
/// Unbounded, a crowd of 10,000 took the whole service thread (each spectator written again as
/// soon as its turn came round, a send of a few frames), and on two cores shared with the
/// crowd's readers every other thread that woke (the journal's writer, the players' own
/// clients) waited for a core: players' p99 2.0-4.5 ms against 0.6-1.2 ms with no crowd. Held
/// to 55 %, each spectator is written less often with more frames a write, the thread has time
/// left, and the players' p99 came to 0.87-1.43 ms, the spectators' to 169-221 ms
/// (docs/BENCHMARKS.md, "The crowd's share of the service thread").
///
/// While credit is left a pass gives the crowds their turns; once it is spent, none until wall
/// time has earned it back (the loop arms a timer for then, ``wait(at:)``). Credit saved while
/// no crowd writes is capped at ``window`` of wall time's worth, so a crowd that comes back
/// after a quiet spell does not take the thread for long. Pure value: the loop hands it the
/// clock and what the writes cost.
struct CrowdShare {
  /// Wall time whose earnings are kept at most: the longest the crowd may write at once, as
  /// a share of it.
  static let window = 0.004

  /// The share of the service thread's time the crowds may take (0 < share ≤ 1); 0: no bound.
  let share: Double
  /// Seconds of writing the crowds may still do.
  private(set) var credit: Double
  /// When credit was last earned.
  private var earnedAt: Double?

  init(share: Double) {
    self.share = share > 0 && share < 1 ? share : 0
    credit = self.share * Self.window
  }

  /// Whether the crowds are held to a share at all.
  var isBounded: Bool { share > 0 }

  /// How many of `full` turns the crowds get in the pass about to begin at `now`: all of them
  /// while credit is left, none once it is spent.
  mutating func turns(of full: Int, at now: Double) -> Int {
    guard isBounded else { return full }
    if let earnedAt, now > earnedAt {
      credit = min(share * Self.window, credit + (now - earnedAt) * share)
    }
    earnedAt = now
    return credit > 0 ? full : 0
  }

  /// A crowd member's write took `seconds`.
  mutating func spent(_ seconds: Double) {
    guard isBounded, seconds > 0 else { return }
    credit -= seconds
  }

  /// Seconds from `now` until the crowds have credit again; nil while they have some.
  func wait(at now: Double) -> Double? {
    guard isBounded, credit <= 0 else { return nil }
    let since = earnedAt.map { max(0, now - $0) } ?? 0
    return max(0, -credit / share - since)
  }
}
