import Protocol

/// A request from any thread to the service thread, queued in `TransportInbox`.
enum TransportCommand: Sendable {
  /// Queue one frame for every connection in the list; the frame is shared, not copied.
  case send(Frame, to: [ConnectionID])
  /// Send what is queued, then close with `code` and `reason`.
  case close(ConnectionID, code: UInt16, reason: String)
}
