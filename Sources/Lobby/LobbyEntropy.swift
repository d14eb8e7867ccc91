/// Where the lobby's secrets come from: deal seeds, session tokens, invite codes. Tests pass
/// fixed ones, so that a run is repeatable; the server passes the system's random source
/// (`LobbyEntropy.system`, in the server, which keeps tokens as their SHA-256).
public struct LobbyEntropy: Sendable {
  /// A new deal seed.
  public var seed: @Sendable () -> UInt64
  /// A new session token.
  public var token: @Sendable () -> String
  /// A number below the argument (for invite codes).
  public var below: @Sendable (Int) -> Int
  /// What the lobby keeps of a session token: the server stores (and journals) only this, and
  /// finds a session by the hash of the token a client presents.
  public var hash: @Sendable (String) -> String
  /// Today, in UTC (`yyyy-mm-dd`): the day whose daily puzzle is dealt. The server reads the
  /// wall clock; tests name a day.
  public var today: @Sendable () -> String
  /// The wall clock, in Unix seconds: arenas start and end on it. Read once; lobby time
  /// carries it on (``LobbyState``). Tests name a moment.
  public var wallClock: @Sendable () -> Double

  /// Creates entropy from the three sources; `hash` keeps tokens as they are unless given, and
  /// `today` is the first day of 2026 unless given.
  public init(
    seed: @escaping @Sendable () -> UInt64, token: @escaping @Sendable () -> String,
    below: @escaping @Sendable (Int) -> Int,
    hash: @escaping @Sendable (String) -> String = { $0 },
    today: @escaping @Sendable () -> String = { "2026-01-01" },
    wallClock: @escaping @Sendable () -> Double = { 1_767_225_600 }
  ) {
    self.wallClock = wallClock
    self.today = today
    self.seed = seed
    self.token = token
    self.below = below
    self.hash = hash
  }
}
