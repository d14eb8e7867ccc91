/// A request from any thread to the service thread, queued in `TransportInbox`.
enum TransportCommand: Sendable {
  /// Queue `frame` for one connection.
  case send(OutboundFrame, ConnectionID)
  /// Queue `frame` for each of the connections (one inbox entry for a broadcast).
  case sendMany(OutboundFrame, [ConnectionID])
  /// Send what is queued, then close with `code` and `reason`.
  case close(ConnectionID, code: UInt16, reason: String)
}
