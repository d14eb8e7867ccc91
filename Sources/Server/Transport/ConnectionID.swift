/// Identifies one WebSocket connection for the life of the process; never reused.
///
/// Ids are handed out when a WebSocket upgrade completes (the `.opened` event), counting up
/// from 1 across all transports of the process. `0` is never a valid id.
struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
  /// The number behind the id; unique within one process run.
  let rawValue: UInt64

  /// A short form for logs, for example `ws#42`.
  var description: String { "ws#\(rawValue)" }
}
