/// How many socket events the service loop's next pass takes (issue 36): at most
/// ``TransportConfiguration/eventsPerPass``, and fewer while events cost so much that a pass of
/// them would last longer than ``TransportConfiguration/passBudget``.
///
/// A player's move that arrives during a pass is read at the start of the next one (a busy
/// pass reads the players of watched tables first, ``FirstServed``), so it waits for what is
/// left of the pass. Some events cost lws far more than others: in Debian's build each close
/// walks every live connection (`_DEBUG`), and each new connection is put in a sorted list of
/// timeouts; a pass of 64 closes among 10,000 connections took 5.0-5.5 ms on this 2-core
/// machine and 5-6 ms on the lent 16-core one, and a move waited behind most of it
/// (docs/BENCHMARKS.md, "Passes paced by their time").
///
/// A pass that took longer than the budget sets the next pass's cap to the events that fit in
/// the budget at the cost it saw per event (at least ``eventsAtLeast``, so a pass always makes
/// headway); a pass within the budget doubles the cap, up to the bound. Pure value: the loop
/// hands it each pass's events and time.
struct PassPacing {
  /// The fewest events a pass is given.
  static let eventsAtLeast = 4

  /// The most events a pass takes (``TransportConfiguration/eventsPerPass``; 0: no bound).
  let eventsAtMost: Int
  /// Seconds a pass should take at most; 0: passes are bounded by count only.
  let budget: Double
  /// ``eventsAtMost``, or as many as one wait can hand over when there is no bound.
  private let ceiling: Int
  /// The events the next pass takes at most; ``ceiling`` when it is not slowed.
  private var next: Int

  init(eventsAtMost: Int, budget: Double) {
    self.eventsAtMost = max(0, eventsAtMost)
    self.budget = budget > 0 && budget.isFinite ? budget : 0
    ceiling = self.eventsAtMost == 0 ? Int(Int32.max) : self.eventsAtMost
    next = ceiling
  }

  /// The cap of the next pass, as the event loop takes it (0: no bound).
  var cap: Int { next == ceiling ? eventsAtMost : next }

  /// Whether the next pass takes fewer events than the bound (events cost more than usual).
  var isSlowed: Bool { next < ceiling }

  /// How much of `full` (work the loop gives itself each pass, which brings events of its own:
  /// crowd sockets asked to write, new connections let in) the next pass is given: all of it,
  /// or while passes are slowed at most half of their events, and at least 1.
  func share(of full: Int) -> Int {
    isSlowed ? min(full, max(1, next / 2)) : full
  }

  /// A pass that took `events` socket events ran for `seconds`: returns the next pass's cap
  /// (0: no bound).
  mutating func passEnded(events: Int, seconds: Double) -> Int {
    guard budget > 0 else { return cap }
    if seconds > budget && events > 0 {
      let fitting = Double(events) * budget / seconds
      next = min(ceiling, max(Self.eventsAtLeast, min(Int(fitting), events)))
    } else if next < ceiling {
      next = next > ceiling / 2 ? ceiling : next * 2
    }
    return cap
  }
}
