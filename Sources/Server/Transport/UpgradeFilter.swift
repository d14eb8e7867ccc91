/// Which WebSocket upgrade requests are refused, and how: a pure value that the service thread
/// asks at `LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION` and that tests drive directly.
///
/// Refused, in this order: every upgrade once the transport shuts down; upgrades beyond
/// `maxConnections` (with a warning at most every `limitWarningInterval` seconds that counts
/// them); any `Sec-WebSocket-Version` but 13, the only one defined (lws would treat every
/// version as 13); and an `Origin` that `OriginPolicy` does not allow, which gets a 403.
struct UpgradeFilter {
  /// The request headers the decision reads (`nil`: absent or empty).
  struct Request: Equatable {
    /// `Sec-WebSocket-Version`.
    var version: String?
    /// `Origin` (browsers always send it).
    var origin: String?
    /// `Host`.
    var host: String?
  }

  /// What to do with an upgrade request.
  enum Decision: Equatable {
    /// Upgrade.
    case accept
    /// Close the connection without an answer.
    case refuse
    /// Refused at the connection limit; `warning` is the count of such refusals to log now,
    /// since the last warning, or `nil` if it is too soon to warn again.
    case refuseAtLimit(warning: Int?)
    /// A page of a foreign origin: answer `forbiddenResponse`, then close.
    case forbid(origin: String)
  }

  /// Seconds between two warnings about the connection limit.
  static let limitWarningInterval: Double = 10

  /// Most WebSocket connections open at once.
  let maxConnections: Int
  /// Which pages may upgrade.
  let originPolicy: OriginPolicy
  /// Refusals at the limit since the last warning.
  private(set) var refusedAtLimit = 0
  private var lastLimitWarning = -Double.infinity

  /// A filter for `configuration`'s connection limit and allowed origins.
  init(configuration: TransportConfiguration) {
    self.init(
      maxConnections: configuration.maxConnections,
      originPolicy: OriginPolicy(allowedOrigins: configuration.allowedOrigins))
  }

  /// A filter with the given limit and origin policy.
  init(maxConnections: Int, originPolicy: OriginPolicy) {
    self.maxConnections = maxConnections
    self.originPolicy = originPolicy
  }

  /// The decision about `request`, with `openConnections` open, at `now` (monotonic seconds).
  mutating func decide(
    _ request: Request, openConnections: Int, shuttingDown: Bool, now: Double
  ) -> Decision {
    if shuttingDown { return .refuse }
    if openConnections >= maxConnections {
      refusedAtLimit += 1
      guard now - lastLimitWarning >= Self.limitWarningInterval else {
        return .refuseAtLimit(warning: nil)
      }
      defer {
        lastLimitWarning = now
        refusedAtLimit = 0
      }
      return .refuseAtLimit(warning: refusedAtLimit)
    }
    guard request.version == "13" else { return .refuse }
    guard originPolicy.allows(origin: request.origin, host: request.host) else {
      return .forbid(origin: request.origin ?? "")
    }
    return .accept
  }

  /// The answer to a forbidden upgrade, so that the client learns why. A whole HTTP/1.1
  /// response written by hand: lws (`lws_return_http_status` and its header helpers) labels any
  /// response to an upgrade request HTTP/1.0, which WebSocket clients reject as malformed.
  static let forbiddenResponse: [UInt8] = {
    var response = "HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n"
    for header in StaticFiles.securityHeaders(host: nil) {
      response += "\(header.name): \(header.value)\r\n"
    }
    response += "\r\n"
    return Array(response.utf8)
  }()
}
