/// How many new connections the service loop lets into lws in one pass, so that a crowd that
/// connects at once (the spectators of a node that died, all coming back together) is taken in
/// steps, between which the players' moves are read and their frames written.
///
/// lws accepts everything in the listen queue at once, and each new connection's upgrade is
/// then read, answered and given its timeouts in the passes after: 10,000 reconnecting at once
/// held the service thread for 3 s and a player's move up to 1.3 s.
///
/// A connection the kernel accepted is taken at once while the pass has budget (``perPass``)
/// and none waits; otherwise it waits, oldest first, and ``passEnded()`` gives the ones the next
/// pass takes. What waits is bounded (``limit``): past it a new connection is refused (closed
/// at once), as a full listen queue would.
///
/// While connections wait, the rest of the listen queue is taken to wait behind them in steps
/// of ``perStep`` (``takeStep(from:)``), between which the loop serves its players: taken in
/// one go, a reconnect storm's queue of 5,863 held the service thread 12.4 ms.
struct AcceptPacing {
  /// What becomes of a connection the kernel accepted.
  enum Decision: Equatable {
    /// lws takes it now.
    case now
    /// It waits for a later pass (``wait(_:)``).
    case wait
    /// Too many wait already: it is closed.
    case refuse
  }

  /// New connections taken in one pass.
  static let perPass = 16

  /// The most connections taken from the listen queue in one step: some 0.7 ms of `accept4`
  /// in a reconnect storm here (2-3 µs each with the socket's set-up).
  static let perStep = 256

  /// The most steps one pass's end takes: the kernel's queue, 4,096 long (`somaxconn`), in
  /// all. Taken at every pass's end while any wait, it never fills while passes are short.
  static let stepsPerPass = 16

  /// The most connections that wait.
  let limit: Int
  /// The listening socket that connections wait behind (set by the first that waits).
  var listener: Int32?
  private var waiting = FIFO<Int32>()
  private var budget = AcceptPacing.perPass

  init(limit: Int) {
    self.limit = max(0, limit)
  }

  /// How many wait.
  var waitingCount: Int { waiting.count }

  /// Whether any wait.
  var hasWaiting: Bool { !waiting.isEmpty }

  /// A connection the kernel accepted: taken now, kept for later, or refused.
  mutating func accepted() -> Decision {
    if waiting.isEmpty && budget > 0 {
      budget -= 1
      return .now
    }
    return waiting.count < limit ? .wait : .refuse
  }

  /// Keeps socket `fd` (one ``accepted()`` said waits) for a later pass.
  mutating func wait(_ fd: Int32) {
    waiting.append(fd)
  }

  /// One step of the listen queue: up to ``perStep`` connections from `next` (an accept,
  /// `nil` once the queue is empty) kept to wait, fewer where the queue empties or the limit
  /// is reached (the rest stay in the kernel's queue). How many were kept.
  mutating func takeStep(from next: () -> Int32?) -> Int {
    var taken = 0
    while taken < AcceptPacing.perStep, accepted() == .wait, let fd = next() {
      wait(fd)
      taken += 1
    }
    return taken
  }

  /// The pass is over: the sockets the next pass takes, oldest first, out of its budget of
  /// `perPass` (fewer than ``perPass`` while passes are slowed, ``PassPacing/share(of:)``).
  mutating func passEnded(perPass: Int = AcceptPacing.perPass) -> [Int32] {
    let taken = waiting.removeFirst(upTo: perPass)
    budget = perPass - taken.count
    return taken
  }

  /// A pass in which none waited is over: the next one has its whole budget, `perPass`. (The
  /// same as ``passEnded(perPass:)`` then, without the array: it runs at the end of every pass.)
  mutating func renewBudget(perPass: Int = AcceptPacing.perPass) {
    budget = perPass
  }

  /// Every socket that waits, given up (the loop is ending: the caller closes them).
  mutating func removeAll() -> [Int32] {
    waiting.removeAll()
  }
}
