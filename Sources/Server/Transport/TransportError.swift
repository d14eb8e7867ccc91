/// Why `WebSocketTransport.start()` failed.
enum TransportError: Error, Equatable, CustomStringConvertible {
  /// `start()` was called a second time.
  case alreadyStarted
  /// The configuration contradicts itself; the text says how.
  case invalidConfiguration(String)
  /// `webRoot` is not a readable directory.
  case webRootNotFound(String)
  /// A TLS certificate or key file cannot be read.
  case tlsFileUnreadable(String)
  /// Another socket already listens on this address and port.
  case addressInUse(host: String, port: Int)
  /// The process may not bind this address and port (for example a port below 1024).
  case permissionDenied(host: String, port: Int)
  /// `host` is not an address of this machine.
  case addressNotAvailable(host: String)
  /// libev could not create an event loop.
  case eventLoopUnavailable
  /// libwebsockets needs more room before a payload (`LWS_PRE`) than `Frame` leaves.
  case insufficientFrameHeadroom(needed: Int, available: Int)
  /// libwebsockets refused to create its context; the text is its last error line, if any.
  case contextCreationFailed(String)

  /// A sentence for logs and the command line.
  var description: String {
    switch self {
    case .alreadyStarted: "the transport was already started"
    case .invalidConfiguration(let text): "invalid transport configuration: \(text)"
    case .webRootNotFound(let path): "web root \(path) is not a readable directory"
    case .tlsFileUnreadable(let path): "TLS file \(path) cannot be read"
    case .addressInUse(let host, let port): "\(host):\(port) is already in use"
    case .permissionDenied(let host, let port): "no permission to listen on \(host):\(port)"
    case .addressNotAvailable(let host): "\(host) is not an address of this machine"
    case .eventLoopUnavailable: "libev could not create an event loop"
    case .insufficientFrameHeadroom(let needed, let available):
      "libwebsockets needs \(needed) bytes before each frame (LWS_PRE) but frames leave \(available)"
    case .contextCreationFailed(let text):
      text.isEmpty
        ? "libwebsockets could not create its context"
        : "libwebsockets could not create its context: \(text)"
    }
  }
}
