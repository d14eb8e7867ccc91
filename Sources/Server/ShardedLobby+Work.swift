import Protocol
import Synchronization

extension ShardedLobby {
  /// An event as an executor decides it: a client's message decoded (its moves are told apart
  /// from the rest, ``Admission``), a client's close, or something that is no client's.
  enum Work: Admissible {
    /// A client's message, decoded; its size in bytes, when the transport received it, and
    /// its connection's route.
    case message(
      ConnectionID, Result<ClientEnvelope, ProtocolError>, bytes: Int, receivedAt: Double,
      ConnectionRoute)
    /// A client's connection has gone.
    case closed(ConnectionID, ConnectionRoute)
    /// Another node's message to this one's link, a link opened or closed, news from the
    /// cluster: decided at once.
    case other(Event)

    init(_ event: Event) {
      switch event {
      case .message(let connection, let bytes, let receivedAt, let route) where !connection.isLink:
        self = .message(
          connection, ClientMessageDecoder.decode(bytes), bytes: bytes.count,
          receivedAt: receivedAt, route)
      case .closed(let connection, let route) where !connection.isLink:
        self = .closed(connection, route)
      default:
        self = .other(event)
      }
    }

    var connection: ConnectionID? {
      switch self {
      case .message(let connection, _, _, _, _), .closed(let connection, _): connection
      case .other: nil
      }
    }

    var isMove: Bool {
      if case .message(_, let decoded, _, _, _) = self { return decoded.isMove }
      return false
    }
  }

  /// An executor's own ``Admission``, touched only by its thread, and whether something of it
  /// waits for the service thread's next pass (read by that thread).
  final class AdmissionSlot: @unchecked Sendable {
    var admission: Admission<Work>
    /// Whether something waits for the service thread's next pass.
    let waiting = Atomic<Bool>(false)

    /// A slot whose admission spends `budget`, the one all executors share.
    init(budget: AdmissionBudget) {
      admission = Admission(budget: budget)
    }
  }
}
