/// What the server answers to a plain HTTP request: a public file of the web root, the
/// `/metrics` page, 404, or 405 for anything but GET, every answer with the security headers.
/// The metrics are the operator's: a request that came through a proxy (it says whom it
/// forwards, `X-Forwarded-For`, as the cluster's front door does) does not get them, however
/// its path is spelled (lws decodes and folds it before it gets here).
/// A value that decides only; `HTTPResponseWriter` carries the answer out on lws.
struct HTTPResponder: Sendable {
  /// One answer.
  struct Response {
    /// What follows the headers.
    enum Body: Equatable {
      /// Nothing (`Content-Length: 0`).
      case none
      /// The metrics, rendered when sent.
      case metrics
      /// A file that lws sends itself.
      case file(path: String, contentType: String)
    }

    /// HTTP status code.
    var status: UInt32
    /// Headers besides the ones lws adds (content type and length, date).
    var headers: [(name: String, value: String)]
    /// The body.
    var body: Body
    /// Whether the connection closes after the answer: a request that is not a GET may carry
    /// a body, which is not read.
    var closesConnection = false
  }

  /// The files served, or `nil` for none.
  let staticFiles: StaticFiles?
  /// Whether `/metrics` is served.
  let servesMetrics: Bool
  /// Whether `/metrics` has a listener of its own (`--metrics-port`): then only that listener
  /// serves it, and serves nothing else.
  var metricsApart = false

  /// The answer to a request.
  /// - Parameters:
  ///   - isGet: whether the method is GET.
  ///   - path: the request path as lws hands it over (percent-decoded, without the query,
  ///     `..` segments folded); `StaticFiles` still refuses anything outside the public files.
  ///   - host: the `Host` header, for the content security policy.
  ///   - forwarded: whether a proxy forwarded the request (`X-Forwarded-For`).
  ///   - onMetricsListener: whether it came to the metrics listener (`--metrics-port`).
  func respond(
    isGet: Bool, path: String, host: String?, forwarded: Bool = false,
    onMetricsListener: Bool = false
  ) -> Response {
    var headers = StaticFiles.securityHeaders(host: host)
    guard isGet else {
      headers.append(("Allow", "GET"))
      return Response(status: 405, headers: headers, body: .none, closesConnection: true)
    }
    let metricsHere = servesMetrics && onMetricsListener == metricsApart
    if path == TransportMetrics.path && metricsHere && !forwarded {
      headers.append(("Cache-Control", "no-store"))
      return Response(status: 200, headers: headers, body: .metrics)
    }
    guard !onMetricsListener, let file = staticFiles?.resolve(path) else {
      return Response(status: 404, headers: headers, body: .none)
    }
    headers.append(("Cache-Control", file.cacheControl))
    return Response(
      status: 200, headers: headers, body: .file(path: file.path, contentType: file.contentType))
  }
}
