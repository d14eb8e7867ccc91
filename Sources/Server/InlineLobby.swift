import Lobby

/// The lobby's state machine run on the transport's service thread: each message is decided
/// and its frames queued in the same pass of the loop that read it, with no thread hop and no
/// wake. The shell is this thin: events in, actions out, carried out by the transport at once.
final class InlineLobby: ServiceThreadHandler {
  private var state: LobbyState

  /// Runs `state` on the service thread.
  init(state: LobbyState) {
    self.state = state
  }

  var decidesInline: Bool { true }

  func handle(_ event: TransportEvent, now: Double, commands: inout [TransportCommand]) {
    switch event {
    case .opened:
      return
    case .message(let connection, let bytes):
      commands.append(actions: state.receive(bytes, from: connection, now: now))
    case .closed(let connection):
      commands.append(actions: state.disconnected(connection, now: now))
    }
    // Whatever came due meanwhile (the timer may not have fired yet in this pass).
    if let due = state.nextDeadline(), due <= now {
      commands.append(actions: state.advance(to: now))
    }
  }

  func deadlineReached(now: Double, commands: inout [TransportCommand]) {
    commands.append(actions: state.advance(to: now))
  }

  func nextDeadline() -> Double? { state.nextDeadline() }
}

extension [TransportCommand] {
  /// Appends the transport commands that carry out the lobby's `actions`, in order.
  mutating func append(actions: [LobbyAction]) {
    for action in actions {
      switch action {
      case .send(let frame, let connections): append(.send(frame, to: connections))
      case .close(let connection, let code, let reason):
        append(.close(connection, code: code, reason: reason))
      }
    }
  }
}
