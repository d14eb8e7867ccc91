/// Whether the service thread is pressed (``LoopPressure``), from what each pass's end finds:
/// a large crowd still behind after every turn of the pass, or new connections waiting to be
/// let in (``AcceptPacing``). A storm presses in bursts (a pass that let the last waiting
/// connection in finds none waiting, the next one finds hundreds more), and the journal's
/// writer takes the word only before it waits: so the word holds for ``hold`` seconds after
/// the last pass that pressed.
///
/// Passes slowed by their cost (``PassPacing``) are no sign: fast play slows them too, on a
/// busy machine pass after pass, and a writer woken at every decision with the short slice cost
/// it 4 times the commits and 12-14 points of a core (500 tables of bots, 9,800 moves a
/// second; docs/BENCHMARKS.md).
struct PressureHold {
  /// How long the word holds after the last pass that pressed, in seconds.
  static let hold = 1.0

  /// Until when (``MonotonicClock`` seconds) the thread counts as pressed.
  private var until = -Double.infinity

  /// A pass ended at `now`, finding what it found: whether the thread is pressed.
  mutating func passEnded(crowdBehind: Bool, connectionsWaiting: Bool, at now: Double) -> Bool {
    if crowdBehind || connectionsWaiting { until = now + Self.hold }
    return now < until
  }
}
