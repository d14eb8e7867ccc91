/// What a connection does at its table.
enum Role: Equatable {
  /// The first player: creates the (private) table and re-deals finished games.
  case host
  /// Another player: joins by the invite code.
  case player
  /// Watches by the invite code; counts what it receives.
  case spectator
}

/// One client connection of an event loop: its socket state, its table view and its moves in
/// flight. Owned and touched by one loop thread only.
final class Connection {
  /// Where the socket is in its life.
  enum State: Equatable {
    /// Not connected yet.
    case notStarted
    /// `connect` in progress.
    case connecting
    /// Upgrade request sent, answer awaited.
    case handshaking
    /// WebSocket open.
    case open
    /// Close frame sent, the server's awaited.
    case closing
    /// Socket closed.
    case closed
  }

  /// A move waiting for its answer.
  struct Pending {
    /// When the move was due (open loop) or sent: latency is measured from here.
    var sent: UInt64
    /// Whether its latency goes into the report.
    var measured: Bool
  }

  /// Index in the loop's connection array (also the epoll tag).
  let index: Int
  /// Index of its table in the loop's table array.
  let table: Int
  /// Its role.
  let role: Role
  /// Its number among every player of the run (open loop: spreads send times evenly).
  let globalPlayer: Int

  /// The socket, or -1.
  var fd: Int32 = -1
  /// Where the socket is in its life.
  var state = State.notStarted
  /// Its opening handshake (the key it sent).
  let handshake: ClientHandshake
  /// Bytes of the server's handshake answer so far.
  var handshakeBytes: [UInt8] = []
  /// Splits received bytes into frames.
  var reader = FrameReader()
  /// A fragmented message being reassembled.
  var fragments: [UInt8]?
  /// Bytes waiting to be written, from `outOffset` on.
  var out: [UInt8] = []
  /// How much of `out` is already written.
  var outOffset = 0
  /// Whether it is on the loop's list of connections to flush.
  var dirty = false
  /// Whether epoll watches it for writability.
  var watchingWrite = false

  /// Whether `welcome` arrived.
  var welcomed = false
  /// The session's token from its `welcome`: a successor resumes it, as a client that lost its
  /// connection does.
  var token: String?
  /// Whether `join` or `spectate` went out.
  var joinSent = false
  /// Ready (seated with a board, or watching one) or failed: setup is over for it.
  var settled = false
  /// Whether it became ready (rather than failing).
  var ready = false
  /// Its seat, from its snapshot's `you` (nil for spectators).
  var seat: Int?
  /// Its view of the table.
  var tracker = BoardTracker()
  /// A spectator's version once it watches a table in play: its diffs are read without parsing
  /// them (``EventLoop/spectatorDiff(_:on:now:)``); nil before, and after a gap until its
  /// snapshot.
  var watchedVersion: Int?
  /// The id of its next move (setup messages use 1 and 2).
  var nextSeq = 100
  /// Moves in flight, by id.
  var pending: [Int: Pending] = [:]
  /// When its timer is due (`UInt64.max`: none); heap entries with another time are stale.
  var timerAt = UInt64.max
  /// Play: one of the moves in flight lost a race, so pick again at once.
  var lostRace = false
  /// A close frame went out.
  var closeSent = false
  /// This connection stops reading at the stall (``LoadConfiguration/stallAt``).
  var stalls = false
  /// It has stopped.
  var stalled = false
  /// Stalled: the bytes its socket holds unread, and when that last grew (its window shut
  /// then, or soon after).
  var unreadBytes: Int32 = 0
  var unreadGrewAt: UInt64 = 0

  /// A connection not yet started.
  /// A spectator that joined or reconnected in a storm and has not had its snapshot yet.
  var returning = false

  init(index: Int, table: Int, role: Role, globalPlayer: Int, handshake: ClientHandshake) {
    self.index = index
    self.table = table
    self.role = role
    self.globalPlayer = globalPlayer
    self.handshake = handshake
  }

  /// A connection in this one's place, to reconnect: its table, role and key, and, since setup
  /// is counted once, settled as this one was.
  func successor() -> Connection {
    let next = Connection(
      index: index, table: table, role: role, globalPlayer: globalPlayer, handshake: handshake)
    next.settled = settled
    next.ready = ready
    next.token = token
    return next
  }

  /// Whether the connection sits in a seat.
  var isPlayer: Bool { role != .spectator }
}

/// A min-heap of (deadline, connection index) timers; an entry is stale when its connection's
/// `timerAt` no longer equals its deadline, which saves removing entries when a timer moves.
struct TimerHeap {
  /// The heap array, earliest at index 0.
  private var items: [(deadline: UInt64, connection: Int)] = []

  /// The earliest deadline, if any.
  var earliest: UInt64? { items.first?.deadline }

  /// Adds a timer.
  mutating func push(_ deadline: UInt64, _ connection: Int) {
    items.append((deadline, connection))
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child].deadline < items[parent].deadline else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes and returns the earliest timer.
  mutating func pop() -> (deadline: UInt64, connection: Int)? {
    guard !items.isEmpty else { return nil }
    items.swapAt(0, items.count - 1)
    let top = items.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < items.count && items[left].deadline < items[smallest].deadline { smallest = left }
      if right < items.count && items[right].deadline < items[smallest].deadline {
        smallest = right
      }
      if smallest == parent { break }
      items.swapAt(parent, smallest)
      parent = smallest
    }
    return top
  }
}
