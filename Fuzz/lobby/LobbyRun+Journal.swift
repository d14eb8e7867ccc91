import Lobby
import Protocol

/// The journal's side of a run: the server stopped at a random moment and started again on
/// what its lobby journaled.
extension LobbyRun {
  /// A snapshot's members that a restart may change: the version (a restored table moves on
  /// by one), what says who is connected and how long is left of a clock that starts again at
  /// the restart, the status line, and the spectators (every connection is gone).
  static let restartMayChange: Set<String> = [
    "version", "status", "spectators", "countdown", "turnLeft", "connected", "away", "you",
    "replyTo",
    // A person waiting alone waits again from the restart for the offer of a computer.
    "computerOffer",
  ]

  /// The server stops (every connection gone) and starts again at the same moment, its lobby
  /// restored from ``journal``. Every table that was open comes back as it was: the same
  /// players, board, deck, selections, scores and history; none that was closed comes back.
  /// The run goes on with the restored lobby and new connections.
  mutating func restart() {
    var restored = LobbyState(
      configuration: configuration, entropy: entropy, shards: state.shardCount)
    do {
      try restored.restore(journal.contents, now: now)
    } catch {
      fatalError("the journal holds a game the lobby does not deal: \(error)")
    }
    for id in state.tableIDs {
      guard let live = state.table(id) else { continue }
      guard let back = restored.table(id) else {
        fatalError("\(id) was open but did not come back from the journal")
      }
      let shown = Self.lasting(live.snapshot(replyTo: nil, you: nil, now: now))
      let again = Self.lasting(back.snapshot(replyTo: nil, you: nil, now: now))
      precondition(
        shown == again,
        "\(id) came back from the journal other than it was:\n\(shown.encodedText)\n\(again.encodedText)"
      )
    }
    for id in restored.tableIDs {
      precondition(state.table(id) != nil, "\(id) came back from the journal but was closed")
    }
    state = restored
    for slot in connections.indices { connections[slot] = newConnection() }
    catchUp()
  }

  /// `value` without the members a restart may change, at any depth.
  static func lasting(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members):
      return .object(
        members.filter { !restartMayChange.contains($0.0) }.map { ($0.0, lasting($0.1)) })
    case .array(let items):
      return .array(items.map(lasting))
    default:
      return value
    }
  }
}

extension JSONValue {
  /// The value as JSON text, for a crash report.
  var encodedText: String { String(decoding: encoded, as: UTF8.self) }
}
