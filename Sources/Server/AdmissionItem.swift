import Protocol

/// A client's message or close, as the inline lobby hands it to its ``Admission``.
enum AdmissionItem: Admissible {
  case message(ConnectionID, Result<ClientEnvelope, ProtocolError>, receivedAt: Double)
  case closed(ConnectionID)

  var connection: ConnectionID? { client }

  /// The connection it comes from.
  var client: ConnectionID {
    switch self {
    case .message(let connection, _, _), .closed(let connection): connection
    }
  }

  var isMove: Bool {
    if case .message(_, let decoded, _) = self { return decoded.isMove }
    return false
  }
}

extension Result where Success == ClientEnvelope {
  /// Whether this decoded message is a move (a card chosen).
  var isMove: Bool {
    if case .success(let envelope) = self, case .choose = envelope.message { return true }
    return false
  }
}
