import Lobby
import Protocol
import Synchronization

/// The sharded lobby's side on the transport's service thread: each event is handed straight
/// to the queue of the executor its connection's route names.
extension ShardedLobby {
  var decidesInline: Bool { false }

  func handle(_ event: TransportEvent, now: Double, commands: inout [TransportCommand]) {
    switch event {
    case .opened(let connection, let address):
      let route = ConnectionRoute(address: address)
      routes[connection] = route
      if connection.isLink {
        executors[route.take(default: Self.desk)].post(.linkOpened(connection))
      }
    case .message(let connection, let bytes, let receivedAt):
      let route = self.route(connection)
      executors[route.take(default: Self.desk)].post(
        .message(connection, bytes, receivedAt: receivedAt, route))
    case .closed(let connection):
      let route = self.route(connection)
      routes[connection] = nil
      executors[route.take(default: Self.desk)].post(.closed(connection, route))
    case .news(let news, let done):
      executors[Self.desk].post(.news(news, done: done))
    }
  }

  func deadlineReached(now: Double, commands: inout [TransportCommand]) {}

  func nextDeadline() -> Double? { nil }

  private func route(_ connection: ConnectionID) -> ConnectionRoute {
    if let route = routes[connection] { return route }
    let route = ConnectionRoute()
    routes[connection] = route
    return route
  }
}

extension ShardedLobby {
  /// A pass of the transport's loop is over: the executors may decide another budget's worth
  /// (``Admission``), and each with messages waiting is nudged.
  func passEnded() {
    admissionBudget.refill()
    servicePasses.add(1, ordering: .sequentiallyConsistent)
    for (index, slot) in admissions.enumerated()
    where slot.waiting.load(ordering: .sequentiallyConsistent) {
      executors[index].nudge()
    }
  }
}
