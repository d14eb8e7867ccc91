import CWebSockets

/// Which part of the service loop handles an lws callback: lws calls one C function per
/// protocol with a reason, and this says where each reason goes. A pure value, so that tests
/// can check the table without a socket.
enum LWSCallbackRoute: Equatable {
  /// Another thread woke the loop (`LWS_CALLBACK_EVENT_WAIT_CANCELLED`): take the inbox.
  case wake
  /// The game protocol was initialised.
  case protocolInitialised
  /// An upgrade request to the game protocol: the upgrade filter decides.
  case upgradeFilter
  /// An upgrade request to the "http" protocol: always refused (no WebSocket there).
  case refuseUpgrade
  /// A plain HTTP request (`LWS_CALLBACK_HTTP`).
  case httpRequest
  /// An HTTP connection may write, or closed: a pending `/metrics` body is written or dropped.
  case httpBody
  /// A WebSocket upgrade completed.
  case established
  /// A chunk of a message arrived.
  case receive
  /// A WebSocket connection may write.
  case writable
  /// A connection closed (also one whose upgrade failed).
  case closed
  /// The peer sent a close frame.
  case peerClose
  /// A PONG arrived.
  case pong
  /// A link (a connection this server opened to another) completed its upgrade.
  case linkEstablished
  /// A link could not be opened.
  case linkFailed
  /// lws accepted a new connection from a listening socket (``AcceptPacing``).
  case accepted
  /// Nothing of ours: lws' default HTTP handling (`lws_callback_http_dummy`).
  case lwsDefault

  /// The route of `reason` on the game protocol, to which plain HTTP requests are bound too
  /// (it is the default protocol).
  @inline(__always)
  init(gameProtocol reason: lws_callback_reasons) {
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED: self = .wake
    case LWS_CALLBACK_PROTOCOL_INIT: self = .protocolInitialised
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: self = .upgradeFilter
    case LWS_CALLBACK_HTTP: self = .httpRequest
    case LWS_CALLBACK_HTTP_WRITEABLE, LWS_CALLBACK_CLOSED_HTTP: self = .httpBody
    case LWS_CALLBACK_ESTABLISHED: self = .established
    case LWS_CALLBACK_RECEIVE: self = .receive
    case LWS_CALLBACK_SERVER_WRITEABLE: self = .writable
    case LWS_CALLBACK_CLOSED: self = .closed
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE: self = .peerClose
    case LWS_CALLBACK_RECEIVE_PONG: self = .pong
    // A link's side of the same (`ServiceLoop+Links`).
    case LWS_CALLBACK_CLIENT_ESTABLISHED: self = .linkEstablished
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR: self = .linkFailed
    case LWS_CALLBACK_CLIENT_RECEIVE: self = .receive
    case LWS_CALLBACK_CLIENT_WRITEABLE: self = .writable
    case LWS_CALLBACK_CLIENT_CLOSED: self = .closed
    case LWS_CALLBACK_CLIENT_RECEIVE_PONG: self = .pong
    default: self = .lwsDefault
    }
  }

  /// The route of `reason` on `protocols[0]` ("http"), reached by a client that asks for
  /// subprotocol "http" explicitly, and by each connection a listening socket accepts.
  init(httpProtocol reason: lws_callback_reasons) {
    switch reason {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: self = .refuseUpgrade
    case LWS_CALLBACK_HTTP: self = .httpRequest
    case LWS_CALLBACK_HTTP_WRITEABLE, LWS_CALLBACK_CLOSED_HTTP: self = .httpBody
    // lws asks protocols[0] of the listening vhost about each connection it accepts.
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION: self = .accepted
    // A link that fails before lws bound it to the game protocol.
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR: self = .linkFailed
    default: self = .lwsDefault
    }
  }
}
