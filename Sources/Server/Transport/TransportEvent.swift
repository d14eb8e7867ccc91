import Lobby

/// What the transport reports to its single consumer, in order per connection:
/// one `.opened`, any number of `.message`, one `.closed`.
enum TransportEvent: Sendable {
  /// A WebSocket upgrade completed; the id is new. `address` is the client's
  /// (``ClientAddress``: a trusted proxy's forwarded one), nil if lws names none.
  case opened(ConnectionID, address: String?)
  /// One complete text message (valid UTF-8, at most `maxMessageBytes` bytes), and when the
  /// service thread received its last byte (`MonotonicClock`), so a consumer can measure how
  /// long the message waited for it.
  case message(ConnectionID, [UInt8], receivedAt: Double)
  /// The connection is gone; only sent for connections that were `.opened`. Sends to the id
  /// are dropped from now on.
  case closed(ConnectionID)
  /// News from the cluster (``TransportCommand/news(_:done:)``), in the order it was posted;
  /// `done` is called once the consumer has handled it and handed over what it decided.
  case news(ClusterNews, done: @Sendable () -> Void)
}
