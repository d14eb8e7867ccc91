import Lobby
import Protocol

/// Which messages the inline lobby decides in the pass of the service loop that read them, and
/// which wait for later passes, so that a crowd arriving at once (thousands of spectators
/// asking to watch, or coming back after their node died) does not hold the players' moves up
/// behind it: 2,000 spectators asking at once held a move up to 100 ms when each was decided as
/// it was read.
///
/// A move (`choose`) is decided at once. Anything else is decided at once while the pass has
/// budget left (``AdmissionBudget/perPass``) and nothing waits: ordinary traffic is decided in
/// the pass that read it, as before. Past it, messages wait, oldest first, and the waiting ones
/// are decided ``AdmissionBudget/perPass`` at a time in the passes after, each of which reads
/// the sockets first (the players' moves with them). A connection keeps its own order: once
/// one of its messages waits, everything after it from that connection waits too, its move and
/// close included.
///
/// The inline lobby keeps one for the service thread (its passes are the loop's); the sharded
/// lobby one per executor, all spending one ``AdmissionBudget`` that the transport's passes
/// refill, so that a spectator storm is decided at most ``AdmissionBudget/perPass`` a pass
/// however many executors there are (one budget each let 15 executors decide 480 a pass, and
/// a join storm of 10,000 held the players' moves 380 ms on 16 cores).
///
/// What waits is bounded by what the transport lets a connection send (its rate limit, twice
/// that in a burst) times the connections it holds; it drains ``AdmissionBudget/perPass`` a pass, and the loop
/// does not sleep while something waits (an executor does not wait for events).
struct Admission<Item: Admissible> {
  private var queue = FIFO<Item>()
  private var waitingOf = PartitionedDictionary<ConnectionID, Int>()
  private let budget: AdmissionBudget
  /// The pass whose budget this admission spends.
  private var pass: UInt64

  /// An admission spending `budget`: its own, or one it shares with others.
  init(budget: AdmissionBudget = AdmissionBudget()) {
    self.budget = budget
    pass = budget.pass
  }

  /// Whether something waits for a later pass.
  var hasWaiting: Bool { !queue.isEmpty }

  /// How many wait.
  var waiting: Int { queue.count }

  /// Whether `item` is to be decided now; if not, it waits (``next()`` gives it back later).
  /// `sliceSpent`: the pass has no time left for anything but moves (as if its budget were
  /// spent; ``InlineLobby/admissionSlice``).
  mutating func admit(_ item: Item, sliceSpent: Bool = false) -> Bool {
    guard let connection = item.connection else { return true }
    // Nothing waits (the usual case): no lookup.
    if queue.isEmpty {
      if item.isMove || (!sliceSpent && budget.take(in: pass)) { return true }
    } else if item.isMove && waitingOf[connection] == nil {
      return true
    }
    // Anything else waits its turn behind what already waits, oldest first.
    queue.append(item)
    waitingOf[connection, default: 0] += 1
    return false
  }

  /// The next waiting item to decide, while this pass has budget left.
  mutating func next() -> Item? {
    guard !queue.isEmpty, budget.take(in: pass), let item = queue.popFirst() else { return nil }
    if let connection = item.connection {
      if let count = waitingOf[connection], count > 1 {
        waitingOf[connection] = count - 1
      } else {
        waitingOf[connection] = nil
      }
    }
    return item
  }

  /// The pass is over: the next one has its budget (an admission with a budget of its own).
  mutating func passEnded() {
    budget.refill()
    begin()
  }

  /// Spends the budget of the current pass from now on (an admission sharing its budget,
  /// refilled by another thread, as its thread's run begins).
  mutating func begin() {
    pass = budget.pass
  }
}
