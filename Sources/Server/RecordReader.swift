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
/// asks for the high scores right after their game ended finds that game in them.
final class RecordReader: @unchecked Sendable {
  private let store: any JournalStore
  private let journal: JournalWriter?
  private let logger: Logger
  private let condition = NSCondition()
  private var pending: [(request: RecordRequest, ticket: UInt64)] = []
  /// Carries an answer to the transport (set before the first question).
  var send: @Sendable (Frame, ConnectionID) -> Void = { _, _ in }

  /// A reader of `store`, whose questions wait for `journal`'s writes.
  init(store: any JournalStore, journal: JournalWriter?, logger: Logger) {
    self.store = store
    self.journal = journal
    self.logger = logger
  }

  /// Starts the reader's thread (it runs as long as the process).
  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "records"
    thread.start()
  }

  /// Queues `request`, to be answered once what is queued for the journal now is written. Any
  /// thread.
  func submit(_ request: RecordRequest) {
    let ticket = journal?.lastQueuedTicket ?? 0
    condition.lock()
    pending.append((request, ticket))
    condition.signal()
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      while pending.isEmpty { condition.wait() }
      let (request, ticket) = pending.removeFirst()
      condition.unlock()
      // Not for ever: a journal that cannot write must not silence the high scores.
      _ = journal?.waitUntilWritten(ticket, timeout: 2)
      let answer = store.answer(request) { [logger] problem in logger.error("\(problem)") }
      send(answer, request.connection)
    }
  }
}
