/// Whether the service thread is pressed (``LoopPressure``), from what each pass's end finds:
/// a large crowd still behind after every turn of the pass, new connections waiting to be let
/// in (``AcceptPacing``), or passes slowed by their cost (``PassPacing``). A storm presses in
/// bursts (a pass that let the last waiting connection in finds none waiting, the next one
/// finds hundreds more), and the journal's writer takes the word only before it waits: so the
/// word holds for ``hold`` seconds after the last pass that pressed.
struct PressureHold {
  /// How long the word holds after the last pass that pressed, in seconds.
  static let hold = 1.0

  /// Until when (``MonotonicClock`` seconds) the thread counts as pressed.
  private var until = -Double.infinity

  /// A pass ended at `now`, finding what it found: whether the thread is pressed.
  mutating func passEnded(
    crowdBehind: Bool, connectionsWaiting: Bool, passesSlowed: Bool, at now: Double
  ) -> Bool {
    if crowdBehind || connectionsWaiting || passesSlowed { until = now + Self.hold }
    return now < until
  }
}
