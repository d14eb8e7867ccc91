import CoreMetrics
import Foundation
import Lobby
import Logging
import Protocol
import Store

/// Answers the lobby's questions about finished games (``RecordRequest``) from the store, on a
/// thread of its own, so that a page of high scores or a replay never holds up a move. Each
/// answer is sent to the asking connection alone.
///
/// A question waits until the journal has written everything queued before it: a player who
/// asks for the high scores right after their game ended finds that game in them. Questions
/// wait in a bounded ``RecordQueue``; the replays answered last are kept (``ReplayCache``), so a
/// game asked for again is neither read nor played again.
final class RecordReader: @unchecked Sendable {
  private let store: any JournalStore
  private let journal: JournalWriter?
  private let logger: Logger
  /// Counts the questions refused.
  private let refused: CoreMetrics.Counter?
  private let condition = NSCondition()
  /// Guarded by `condition`.
  private var queue: RecordQueue
  /// The reader's thread only.
  private var replays: ReplayCache
  /// Carries an answer to the transport (set before the first question). An answer shows only
  /// what the store has, so the transport need not hold it behind unwritten frames: the
  /// server's shell sends it at once (`TransportCommand.sendAtOnce`), and high scores and
  /// replays go on while the journal is down.
  var send: @Sendable (Frame, ConnectionID) -> Void = { _, _ in }
  /// Carries what the store says of ratings back to the lobby (set before the first question).
  var tell: @Sendable (ClusterNews) -> Void = { _ in }

  /// A reader of `store`, whose questions wait for `journal`'s writes, in `queue`, keeping up
  /// to `replayBytes` of replays.
  init(
    store: any JournalStore, journal: JournalWriter?, logger: Logger,
    refused: CoreMetrics.Counter? = nil, queue: RecordQueue = RecordQueue(),
    replayBytes: Int = 8 << 20
  ) {
    self.store = store
    self.journal = journal
    self.logger = logger
    self.refused = refused
    self.queue = queue
    self.replays = ReplayCache(capacity: replayBytes)
  }

  /// Starts the reader's thread (it runs as long as the process).
  func start() {
    let thread = Thread(named: "records") { [self] in run() }
    thread.start()
  }

  /// Queues `request`, to be answered once what is queued for the journal now is written; or,
  /// when too many questions wait (``RecordQueue``), returns the refusal for the caller to send
  /// at once. Any thread.
  func submit(_ request: RecordRequest) -> Frame? {
    let ticket = journal?.lastQueuedTicket ?? 0
    condition.lock()
    let refusal = queue.submit(request, ticket: ticket)
    if refusal == nil { condition.signal() }
    condition.unlock()
    if refusal != nil { refused?.increment() }
    return refusal
  }

  private func run() {
    while true {
      condition.lock()
      var next = queue.next()
      while next == nil {
        condition.wait()
        next = queue.next()
      }
      condition.unlock()
      let (request, ticket) = next!
      // Not for ever, nor while the journal is down: a journal that cannot write must not
      // silence the high scores.
      _ = journal?.waitUntilWritten(ticket, timeout: 2, onlyWhileUp: true)
      if case .ratings(let players, let table) = request.kind {
        do {
          let ratings = try store.ratings(of: players)
          tell(
            .ratings(ratings, players: players, connection: request.connection, table: table))
        } catch {
          logger.error("ratings cannot be read: \(error)")
        }
      } else {
        let answer = store.answer(request, replays: &replays) { [logger] problem in
          logger.error("\(problem)")
        }
        send(answer, request.connection)
      }
      condition.lock()
      queue.answered(request)
      condition.unlock()
    }
  }
}
