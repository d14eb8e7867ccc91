/// Everything `WebSocketTransport` needs to know; the defaults are the limits of protocol v2
/// (see docs/PROTOCOL.md, "Limits and close codes"). Settings the `matchismo` command has an
/// option for take their defaults from `ServerConfiguration.defaults`, so each is written once.
struct TransportConfiguration: Sendable {
  /// Interface address to bind: an IPv4 or IPv6 literal. `"0.0.0.0"` binds every IPv4
  /// interface, `"::"` every interface (IPv4 and IPv6).
  var host: String = ServerConfiguration.defaults.host
  /// TCP port for HTTP and WebSocket; `0` lets the kernel pick one (see
  /// `WebSocketTransport.listeningPort`).
  var port: Int = ServerConfiguration.defaults.port
  /// Directory served at `/` (with `index.html` as the default document); `nil` serves no files.
  var webRoot: String?
  /// PEM certificate chain. With `tlsPrivateKeyPath` also set, the port speaks https and wss only.
  var tlsCertificatePath: String?
  /// PEM private key for `tlsCertificatePath`.
  var tlsPrivateKeyPath: String?
  /// The WebSocket subprotocol. It is also used for clients that name no subprotocol.
  var subprotocol: String = "matchismo.v2"
  /// Largest accepted inbound message in bytes; a larger one closes the connection with 1009.
  var maxMessageBytes: Int = ServerConfiguration.defaults.maxMessageBytes
  /// Most bytes of one message from a server this one linked to (`TransportCommand.connect`):
  /// it sends what it sends its clients (a snapshot of a table with its history may be long).
  var maxLinkMessageBytes: Int = 4 << 20
  /// Frames that may wait for one connection; one more drops its queue and closes it with
  /// 4000 "too slow".
  var outboundQueueFrameLimit: Int = 512
  /// Bytes that may wait for one connection; more drops its queue and closes it with 4000.
  var outboundQueueByteLimit: Int = 4 << 20
  /// The kernel's send buffer of every WebSocket connection (`SO_SNDBUF`; Linux accounts twice
  /// this), so that a peer that stops reading holds a known amount of kernel memory and the
  /// outbound queue's bounds start counting early; 0 leaves the kernel's own sizing, which
  /// grows a buffer up to `tcp_wmem`'s maximum (4 MiB by default).
  var sendBufferBytes: Int = ServerConfiguration.defaults.sendBufferBytes
  /// Seconds a connection may stay blocked (bytes unsent in the kernel or in lws' buffer: the
  /// peer's window is shut) without progress before it is cut with 4000 "too slow"; 0 never
  /// cuts (see `DrainClock`).
  var drainTimeoutSeconds: Double = ServerConfiguration.defaults.drainTimeout
  /// Seconds between two drain checks.
  var drainCheckInterval: Double = 0.25
  /// Spectators' sockets written in one pass of the service loop (see `Crowd`): each takes a
  /// send, some microseconds, so a pass with a crowd to serve holds a player's next move by at
  /// most this many of them. With 10,000 spectators (docs/BENCHMARKS.md, "A crowd at one
  /// table") 8 gave the players p50 0.6–0.7 ms and the spectators p99 123–142 ms, 32 gave
  /// 1.3–1.6 ms and 126–132 ms: a spectator whose turn comes later has more frames waiting, sent
  /// in one write. With the crowds' share (``CrowdShare``) and members written at their turn,
  /// 4 gave the players p99 0.69–1.05 ms and the spectators 167–229 ms in six rounds, 8 gave
  /// 1.11–1.13 ms and 221–263 ms, 16 and 2 no better (docs/BENCHMARKS.md, "The crowd's share of
  /// the service thread").
  var crowdWritesPerPass: Int = 4
  /// Socket events one pass of the service loop takes at most (see `CEventPass`); 0: no bound.
  var eventsPerPass: Int = ServerConfiguration.defaults.eventsPerPass
  /// Seconds one pass of the service loop aims to last at most (``PassPacing``); 0: passes are
  /// bounded by ``eventsPerPass`` only.
  var passBudget: Double = Double(ServerConfiguration.defaults.passBudget) / 1_000_000
  /// The share of the service thread's time the crowds' fan-out may take at most
  /// (``CrowdShare``); 0 (or 1): no bound.
  var crowdShare: Double = Double(ServerConfiguration.defaults.crowdShare) / 100
  /// A pass with more callbacks to run than this serves the players of watched tables first
  /// (``FirstServed``).
  var firstServedAbove: Int = 16
  /// Most WebSocket connections one peer address may hold; one more is closed with 4002 right
  /// after its upgrade. 0: no limit (see `AddressLimit`).
  var maxConnectionsPerAddress: Int = ServerConfiguration.defaults.maxConnectionsPerAddress
  /// The port of a plain-HTTP listener of its own that serves `/metrics` and nothing else
  /// (then the main port serves no metrics), or nil: `/metrics` on the main port.
  var metricsPort: Int? = ServerConfiguration.defaults.metricsPort
  /// The interface of the metrics listener.
  var metricsHost: String = ServerConfiguration.defaults.metricsHost
  /// Messages a connection may send in a burst (token bucket size); an empty bucket closes the
  /// connection with 1008 "rate limit".
  var rateBurst: Double = ServerConfiguration.rateBurst(
    forRateLimit: ServerConfiguration.defaults.rateLimit)
  /// Tokens added back per second.
  var rateRefillPerSecond: Double = ServerConfiguration.defaults.rateLimit
  /// Seconds without a message or PONG from the peer before the server sends a PING (checked
  /// once a second by the transport itself, not by lws: see `KeepaliveWheel`). `0` turns
  /// keepalive off.
  var pingIdleSeconds: UInt16 = 30
  /// Seconds without a message or PONG after which the connection is dropped (no close frame:
  /// a peer that answers no PING would not read one); must exceed `pingIdleSeconds`.
  var hangupIdleSeconds: UInt16 = 60
  /// Most WebSocket connections open at once; further upgrades are refused. `start()` sets the
  /// soft open-file limit to this plus 1,024 (within the hard limit; see `FileDescriptorLimit`).
  var maxConnections: Int = ServerConfiguration.defaults.maxConnections
  /// Inbound bytes handed to the consumer and not yet acknowledged above which connections
  /// that deliver a message stop being read (`lws_rx_flow_control`).
  var inboundHighWaterBytes: Int = 4 << 20
  /// Once acknowledgements bring the unacknowledged bytes below this, every paused connection
  /// is read again.
  var inboundLowWaterBytes: Int = 1 << 20
  /// Browser origins (`scheme://host[:port]`) allowed to open a WebSocket besides the page's
  /// own (an `Origin` whose host and port equal the request's `Host`); `"*"` allows any.
  /// Requests without an `Origin` header (not from a browser) are always allowed.
  var allowedOrigins: [String] = []
  /// Proxies whose `X-Forwarded-For` names the client (``ClientAddress``).
  var trustedProxies: Set<String> = []
  /// The reason of the 1001 close every client gets when the server shuts down.
  var shutdownCloseReason = "server shutting down"

  /// Creates a configuration with the protocol v2 defaults.
  init() {}

  /// Whether both TLS paths are set (https and wss on `port`).
  var usesTLS: Bool { tlsCertificatePath != nil && tlsPrivateKeyPath != nil }

  /// Checks the values for consistency; returns a description of the first problem found.
  func validationProblem() -> String? {
    if !(0...65_535).contains(port) { return "port \(port) is not in 0...65535" }
    if host.isEmpty { return "host is empty" }
    if (tlsCertificatePath == nil) != (tlsPrivateKeyPath == nil) {
      return "tlsCertificatePath and tlsPrivateKeyPath must be set together"
    }
    let tokenCharacters = Set(
      "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    if subprotocol.isEmpty || subprotocol.utf8.count > 63
      || !subprotocol.allSatisfy(tokenCharacters.contains)
    {
      return "subprotocol \"\(subprotocol)\" is not a valid token of at most 63 characters"
    }
    if subprotocol == "http" { return "subprotocol may not be \"http\" (the file server's name)" }
    if maxMessageBytes < 1 { return "maxMessageBytes must be at least 1" }
    if outboundQueueFrameLimit < 1 { return "outboundQueueFrameLimit must be at least 1" }
    if outboundQueueByteLimit < 1 { return "outboundQueueByteLimit must be at least 1" }
    if sendBufferBytes < 0 { return "sendBufferBytes must be zero or more" }
    if eventsPerPass < 0 { return "eventsPerPass must be zero or more" }
    if !(passBudget >= 0) || !passBudget.isFinite { return "passBudget must be zero or more" }
    if !(0...1).contains(crowdShare) { return "crowdShare must be 0...1" }
    if firstServedAbove < 0 { return "firstServedAbove must be zero or more" }
    if !(drainTimeoutSeconds >= 0) || !drainTimeoutSeconds.isFinite {
      return "drainTimeoutSeconds must be zero or more"
    }
    if !(drainCheckInterval > 0) || !drainCheckInterval.isFinite {
      return "drainCheckInterval must be more than zero"
    }
    if maxConnectionsPerAddress < 0 { return "maxConnectionsPerAddress must be zero or more" }
    if !(rateBurst >= 1) || !rateBurst.isFinite { return "rateBurst must be at least 1" }
    if !(rateRefillPerSecond >= 0) || !rateRefillPerSecond.isFinite {
      return "rateRefillPerSecond must be zero or more"
    }
    if pingIdleSeconds > 0 && hangupIdleSeconds <= pingIdleSeconds {
      return "hangupIdleSeconds must be greater than pingIdleSeconds"
    }
    if maxConnections < 1 { return "maxConnections must be at least 1" }
    if inboundLowWaterBytes < 1 { return "inboundLowWaterBytes must be at least 1" }
    if inboundHighWaterBytes < inboundLowWaterBytes {
      return "inboundHighWaterBytes must be at least inboundLowWaterBytes"
    }
    for origin in allowedOrigins {
      if let problem = OriginPolicy.problem(withAllowedOrigin: origin) { return problem }
    }
    return nil
  }
}
