import DequeModule
import Lobby
import Protocol

/// Which messages the inline lobby decides in the pass of the service loop that read them, and
/// which wait for later passes, so that a crowd arriving at once (thousands of spectators
/// asking to watch, or coming back after their node died) does not hold the players' moves up
/// behind it: 2,000 spectators asking at once held a move up to 100 ms when each was decided as
/// it was read.
///
/// A move (`choose`) is decided at once. Anything else is decided at once while the pass has
/// budget left (``perPass``): ordinary traffic is decided in the pass that read it, as before.
/// Past it, messages wait, and the waiting ones are decided ``perPass`` at a time in the passes
/// after, each of which reads the sockets first (the players' moves with them). A connection
/// keeps its own order: once one of its messages waits, everything after it from that
/// connection waits too, its close included.
///
/// What waits is bounded by what the transport lets a connection send (its rate limit, twice
/// that in a burst) times the connections it holds; it drains ``perPass`` a pass, and the loop
/// does not sleep while something waits.
struct Admission {
  /// A message or a close the lobby is to decide.
  enum Item {
    case message(ConnectionID, Result<ClientEnvelope, ProtocolError>, receivedAt: Double)
    case closed(ConnectionID)

    var connection: ConnectionID {
      switch self {
      case .message(let connection, _, _), .closed(let connection): connection
      }
    }

    /// A move: a card chosen.
    var isMove: Bool {
      if case .message(_, .success(let envelope), _) = self, case .choose = envelope.message {
        return true
      }
      return false
    }
  }

  /// Messages other than moves decided in one pass.
  static let perPass = 32

  private var queue = Deque<Item>()
  private var waitingOf: [ConnectionID: Int] = [:]
  private var budget = Admission.perPass

  /// Whether something waits for a later pass.
  var hasWaiting: Bool { !queue.isEmpty }

  /// How many wait.
  var waiting: Int { queue.count }

  /// Whether `item` is to be decided now; if not, it waits (``next()`` gives it back later).
  mutating func admit(_ item: Item) -> Bool {
    let connection = item.connection
    // Nothing waits (the usual case): no lookup.
    if queue.isEmpty || waitingOf[connection] == nil {
      if item.isMove { return true }
      if budget > 0 {
        budget -= 1
        return true
      }
    }
    queue.append(item)
    waitingOf[connection, default: 0] += 1
    return false
  }

  /// The next waiting item to decide, while this pass has budget left.
  mutating func next() -> Item? {
    guard budget > 0, let item = queue.popFirst() else { return nil }
    budget -= 1
    let connection = item.connection
    if let count = waitingOf[connection], count > 1 {
      waitingOf[connection] = count - 1
    } else {
      waitingOf[connection] = nil
    }
    return item
  }

  /// The pass is over: the next one has its budget.
  mutating func passEnded() {
    budget = Self.perPass
  }
}
