import Lobby
import Protocol

/// A request from any thread to the service thread, queued in `TransportInbox`.
enum TransportCommand: Sendable {
  /// Queue one frame for every connection in the list; the frame is shared, not copied.
  case send(Frame, to: [ConnectionID])
  /// `send` to a crowd (a table's spectators, the host's list of them): held like `send`, but
  /// kept once for the whole crowd (`Crowd`), and their sockets are asked to write a few at a
  /// time, once a pass of the loop (``TransportConfiguration/crowdWritesPerPass``), so that
  /// nothing else waits behind them.
  case sendToCrowd(Frame, to: [ConnectionID])
  /// `send`, but never held: it goes out ahead of commands waiting behind a `hold` (a frame that
  /// shows nothing a journal batch records).
  case sendAtOnce(Frame, to: [ConnectionID])
  /// Send what is queued, then close with `code` and `reason`.
  case close(ConnectionID, code: UInt16, reason: String)
  /// The commands after this one wait until `release` of this ticket or a later one (a journal
  /// batch being written: its frames may leave only once it is).
  case hold(UInt64)
  /// Tickets up to this one are released: held commands go on, in order. Never held itself.
  case release(UInt64)
  /// The frames before this one show a move the service thread received at `receivedAt`
  /// (`MonotonicClock`): its latency (`matchismo_move_broadcast_latency_seconds`) ends when this
  /// is carried out, behind any hold like the frames.
  case moveShown(receivedAt: Double)
  /// Hand `news` to the consumer as a ``TransportEvent/news(_:done:)``, on the service thread,
  /// like a connection's event (any thread posts it; never held); `done` is called once the
  /// consumer has handled it and handed its commands over.
  indirect case news(ClusterNews, done: @Sendable () -> Void)
  /// Close the connection at once, ahead of anything queued or held for it, and drop whatever
  /// comes for it later. Never held.
  case closeAtOnce(ConnectionID, code: UInt16, reason: String)
  /// Open a WebSocket connection to another server (a link: another node of the cluster), as
  /// connection `id` (which the caller chose: one no client has, ``ConnectionID/link(_:)``).
  /// It is reported like a client's: `.opened`, its messages, `.closed`; a link that could not
  /// be opened (`url` is no `ws://` URL, nobody answers there) is reported `.closed` alone.
  /// Never held.
  case connect(ConnectionID, url: String)
}
