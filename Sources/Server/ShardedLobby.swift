import Foundation
import Lobby
import Protocol
import Synchronization

/// The thin shell that runs the lobby's state machine on K executor threads, its tables spread
/// over K shards by table number (`--executors K`, K ≥ 1).
///
/// **Routing.** The transport's service thread hands each event straight to an executor's
/// queue (no global queue in between): a seated player's messages go to the executor of the
/// shard where it plays (``executor(ofShard:)``, never the desk when there are two executors or
/// more), as far as the executors last told the connection's ``ConnectionRoute``; everything
/// else (lobby connections, spectators, links) goes to the desk (``desk``), which decides it
/// under the exclusive hold that all of it needs anyway. So a player's move never waits in a
/// queue behind a crowd's messages, nor behind its executor's own wait for the exclusive hold:
/// when the executors shared the crowd by connection number, a join storm of 10,000 held a
/// move up to 93 ms on 16 cores (docs/BENCHMARKS.md). While a connection has messages in
/// flight, the next ones follow them to the same queue, so one connection's messages are always
/// decided in the order they arrived. The route is only a hint: any executor can decide any
/// event.
///
/// **Deciding.** The state is a value; its shards of tables are lent to this shell
/// (``LobbyState/lendShards()``, each kept in a ``ShardSlot`` with its lock) whenever the state
/// is not held exclusively. A `choose` by a seated player needs only its table's shard: the
/// executor holds the state shared (``ReadWriteLock``) to ask for the move's ticket and that
/// shard's slot to play it, so moves on the tables of different shards are decided at the same
/// time. Everything else — every other message, a disconnect, the deadlines — holds the whole
/// state exclusively, with the shards taken back (``LobbyState/takeBack(_:)``). Either way one
/// event is decided completely under its locks, with no wait in the middle; the result is the
/// decision ``LobbyState`` alone would make: a move takes the lobby's one path for moves, its
/// ticket (``LobbyState/moveTicket(of:)``) then its play
/// (``LobbyState/choose(_:replyTo:from:ticket:in:now:)``), on its shard or under the exclusive
/// hold.
///
/// **Order out.** An executor hands its frames to the transport before it lets go of the locks
/// that ordered them, so every member of a table gets the table's diffs in version order, and a
/// connection's replies in the order of its messages. A run of moves on one shard is handed over
/// in one batch (one lock of the transport's inbox, at most one wake of its thread).
///
/// **Moves first.** Each executor has an ``Admission``, and all of them spend one budget, the
/// transport's current pass's: a batch's moves are decided at once, the rest while the budget
/// lasts; what is left waits for the transport's next pass (``passEnded()`` refills the budget
/// and nudges the executor). So a storm of spectators holds the state exclusively for at most a
/// budget's worth of decisions a pass, however many executors there are, and the moves of every
/// shard get in between.
///
/// Executor 0 also keeps the clock: it sleeps until the state's next deadline (any executor
/// that makes it earlier wakes it) and exports the metrics.
///
/// Before each message, an executor looks whether the journal's writer has started or stopped
/// failing since the lobby was last told (``LobbyState/journalAvailable(_:)``, under the
/// exclusive hold); the lobby decides what that means for moves.
final class ShardedLobby: ServiceThreadHandler, @unchecked Sendable {
  /// What an executor is handed.
  enum Event: Sendable {
    /// A complete text message, when the transport received it, and its connection's route.
    case message(ConnectionID, [UInt8], receivedAt: Double, ConnectionRoute)
    /// The connection has gone.
    case closed(ConnectionID, ConnectionRoute)
    /// News from the cluster, and whom to tell once it is handed over.
    case news(ClusterNews, done: @Sendable () -> Void)
    /// A link to another node opened (its messages come as `message`, undecoded).
    case linkOpened(ConnectionID)
  }

  let executors: [LobbyExecutor]
  let lock = ReadWriteLock()
  /// Executors waiting to decide a move: one that would hold the state exclusively lets them
  /// go first. The lock lets a waiting writer in ahead of new readers, and in a storm of
  /// spectators every executor wants it for their admissions, pass after pass: with seven
  /// executors a player's move waited up to 190 ms behind them (docs/BENCHMARKS.md, "Bounded
  /// passes, players first").
  let movesWaiting = Atomic<Int>(0)
  /// The shards while the lobby lends them: whenever the state is not held exclusively.
  let slots: [ShardSlot]
  /// Each executor's ``Admission``: what its passes leave for later.
  let admissions: [AdmissionSlot]
  /// The one budget of the transport's current pass that every executor's admission spends,
  /// refilled when a pass ends (``passEnded()``).
  let admissionBudget = AdmissionBudget()
  /// The transport's passes so far (``passEnded()``). The budget counts passes too, under its
  /// lock; this counter is the sequentially consistent one that an executor reads after storing
  /// its `waiting`, and the service thread writes before reading it, so that no nudge is lost.
  let servicePasses = Atomic<UInt64>(0)
  let now: @Sendable () -> Double
  // Set by `attach` before `start`, read only by the executors afterwards.
  var perform: @Sendable ([LobbyAction], [Double]) -> Void = { _, _ in }
  var consumed: @Sendable (Int) -> Void = { _ in }
  // Guarded by `lock`: exclusively, or shared to ask for a move's ticket. Its shards are lent
  // to `slots` except while it is held exclusively.
  var state: LobbyState
  // Guarded by `lock`, held exclusively.
  var metrics: LobbyMetrics?
  var lastExport = -Double.infinity
  /// Whether there are metrics: each accepted move's received time goes to `perform`, and the
  /// lobby's are exported. Asked rather than `metrics != nil`, which copies the metrics out.
  let measuresLatency: Bool
  /// The journal's writer, whose `failing` the lobby hears of; nil without a journal.
  let journal: JournalWriter?
  /// What the lobby was last told of the journal: down (true) or not. Changed only under the
  /// exclusive hold.
  let journalDown = Atomic<Bool>(false)
  // Service thread only.
  var routes = PartitionedDictionary<ConnectionID, ConnectionRoute>()

  /// Seconds between two exports of the metrics while only moves happen.
  static let exportInterval = 0.5

  /// The executor of everything but the seated players' messages: the lobby's desk, which
  /// holds the state exclusively for nearly all it decides (and keeps the clock).
  static let desk = 0

  /// The executor of the players of the tables of `shard`: any but the desk, when there is
  /// more than one executor. A player's move then waits at most for the exclusive hold in
  /// progress (``movesWaiting`` lets it in before the next), not behind its own executor's
  /// queue of lobby messages and its waits for the exclusive hold.
  func executor(ofShard shard: Int) -> Int {
    executors.count == 1 ? Self.desk : 1 + shard % (executors.count - 1)
  }

  /// Runs `state` (made with `shards` equal to the number of executors wanted) on that many
  /// executor threads, telling it whether `journal` is failing.
  init(
    state: LobbyState, now: @escaping @Sendable () -> Double, metrics: LobbyMetrics? = nil,
    journal: JournalWriter? = nil
  ) {
    self.state = state
    self.now = now
    self.metrics = metrics
    self.measuresLatency = metrics != nil
    self.journal = journal
    let count = state.shardCount
    slots = (0..<count).map { _ in ShardSlot() }
    executors = (0..<count).map { LobbyExecutor(index: $0, now: now) }
    admissions = (0..<count).map { [admissionBudget] _ in AdmissionSlot(budget: admissionBudget) }
    lend()
  }

  /// Where the executors' actions go, and whom they tell how many message bytes they took.
  /// Before ``start()``.
  func attach(
    perform: @escaping @Sendable (_ actions: [LobbyAction], _ movesReceivedAt: [Double]) -> Void,
    consumed: @escaping @Sendable (Int) -> Void
  ) {
    self.perform = perform
    self.consumed = consumed
  }

  /// Starts the executor threads.
  func start() {
    for executor in executors {
      executor.start { [self] batch, timerDue, stopping in
        run(batch, on: executor.index, timerDue: timerDue, stopping: stopping)
      }
    }
  }

  /// Stops after the events already queued; returns when every executor has ended.
  func stop() {
    for executor in executors { executor.stop() }
  }

  /// ``stop()`` without holding a thread of the caller's executor while the queues drain.
  func drain() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread { [self] in
        stop()
        done.resume()
      }
    }
  }

  /// Calls `body` with the state held exclusively (for tests and inspection).
  func withState<T>(_ body: (inout LobbyState) -> T) -> T {
    lock.writeLock()
    takeBack()
    defer {
      lend()
      lock.unlock()
    }
    return body(&state)
  }

  /// Lends the state's shards to the slots (the state held exclusively, or not yet shared).
  func lend() {
    for (slot, shard) in zip(slots, state.lendShards()) { slot.shard = shard }
  }

  /// Takes the shards back from the slots into the state (held exclusively).
  func takeBack() {
    state.takeBack(slots.map { $0.take() })
  }
}
