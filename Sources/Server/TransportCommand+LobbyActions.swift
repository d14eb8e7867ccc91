import Lobby
import Logging

/// Where the lobby's actions go besides the transport: the journal's writer, the reader of
/// finished games, the link to the cluster. Each is nil when the server has none.
struct LobbyOutlets: Sendable {
  var journal: JournalWriter? = nil
  var records: RecordReader? = nil
  var cluster: ClusterRelay? = nil
  /// Where the lobby's lines for the log go (``LobbyAction/log(_:)``).
  var logger: Logger? = nil
  /// Whether the journal's writer is woken later, once per pass of the service loop
  /// (``JournalWriter/wakeIfOwed()``), rather than by each batch: for a lobby that decides on
  /// the service thread (``InlineLobby``).
  var wakesJournalLater = false
}

extension [TransportCommand] {
  /// Appends the transport commands that carry out the lobby's `actions`, in order, then a
  /// ``TransportCommand/moveShown(receivedAt:)`` for each of `movesReceivedAt` (the moves
  /// these actions accepted).
  ///
  /// Journal entries go to the journal as one batch, and a `hold` of its ticket keeps every
  /// command after them until the batch is written (without a journal they are dropped), except
  /// a `sendAtOnce`, which the transport never holds. The hold is there even when no frame
  /// follows in these actions (a table closing, the last seat released): the next frame that
  /// shows the change may come from a later decision (a coalesced `lobbyDiff`), and it must not
  /// leave before the change is written either. Questions about finished games go to the
  /// records' reader, publications and session look-ups to the cluster's relay; both wait for
  /// the journal batches queued before them.
  mutating func append(
    actions: [LobbyAction], to outlets: LobbyOutlets = LobbyOutlets(),
    movesReceivedAt: [Double] = []
  ) {
    var entries: [JournalEntry] = []
    /// Hands what gathered to the journal and holds everything after it.
    func holdForEntries() {
      if !entries.isEmpty, let journal = outlets.journal {
        append(.hold(journal.append(entries, wake: !outlets.wakesJournalLater)))
      }
      entries.removeAll()
    }
    for action in actions {
      switch action {
      case .journal(let entry):
        entries.append(entry)
      case .query(let request):
        // Answered once what is queued for the journal is written, on the reader's thread.
        holdForEntries()
        // Too many questions waiting: refused at once (nothing in a refusal waits for the
        // journal).
        // A question of the lobby's own (ratings to show) is dropped: nobody waits for it.
        if let refusal = outlets.records?.submit(request), !request.isTheLobbys {
          append(.sendAtOnce(refusal, to: [request.connection]))
        }
      case .publish(let changes):
        holdForEntries()
        outlets.cluster?.publish(changes)
      case .missedGuess(let address):
        outlets.cluster?.missedGuess(address: address)
      case .log(let line):
        outlets.logger?.warning(
          "\(line.message)", metadata: line.metadata.mapValues { .string($0) })
      case .findSession(let token, let connection):
        holdForEntries()
        outlets.cluster?.findSession(token: token, for: connection)
      case .send(let frame, let connections):
        holdForEntries()
        append(.send(frame, to: connections))
      case .sendToCrowd(let frame, let connections):
        holdForEntries()
        append(.sendToCrowd(frame, to: connections))
      case .sendAtOnce(let frame, let connections):
        holdForEntries()
        append(.sendAtOnce(frame, to: connections))
      case .close(let connection, let code, let reason):
        holdForEntries()
        append(.close(connection, code: code, reason: reason))
      case .closeAtOnce(let connection, let code, let reason):
        holdForEntries()
        append(.closeAtOnce(connection, code: code, reason: reason))
      case .connect(let link, let url):
        append(.connect(link, url: url))
      }
    }
    holdForEntries()
    for receivedAt in movesReceivedAt { append(.moveShown(receivedAt: receivedAt)) }
  }
}
