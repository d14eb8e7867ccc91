import CWebSockets

/// Carries out `HTTPResponder`'s answers on lws HTTP connections: headers through lws' header
/// helpers, files through `lws_serve_http_file`, and the `/metrics` body at the connection's
/// `LWS_CALLBACK_HTTP_WRITEABLE`, as lws wants for a body of any size. Service thread only.
final class HTTPResponseWriter {
  private let responder: HTTPResponder
  private let metrics: TransportMetrics?
  /// `/metrics` bodies (with `LWS_PRE` bytes of headroom) waiting for their connection's
  /// `LWS_CALLBACK_HTTP_WRITEABLE`, by HTTP connection.
  private var pendingBodies: [OpaquePointer: [UInt8]] = [:]

  /// A writer serving `staticFiles` and, when there are `metrics`, the metrics page (on a
  /// listener of its own when `metricsApart`).
  init(staticFiles: StaticFiles?, metrics: TransportMetrics?, metricsApart: Bool = false) {
    responder = HTTPResponder(
      staticFiles: staticFiles, servesMetrics: metrics != nil, metricsApart: metricsApart)
    self.metrics = metrics
  }

  /// `LWS_CALLBACK_HTTP`: answers the request for `path` (`length` bytes, as lws hands it).
  func serve(_ wsi: OpaquePointer, path: UnsafeMutableRawPointer?, length: Int) -> Int32 {
    let requestPath =
      path.map {
        String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self)
      } ?? "/"
    let response = responder.respond(
      isGet: lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0, path: requestPath,
      host: RequestHeader.value(WSI_TOKEN_HOST, of: wsi),
      forwarded: lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR) > 0,
      onMetricsListener: Self.isOnMetricsListener(wsi))
    switch response.body {
    case .none:
      // A body may follow a request that is not a GET: answer and close rather than read it.
      let result = respondWithoutBody(
        wsi, status: response.status, headers: response.headers,
        finish: !response.closesConnection)
      return response.closesConnection ? -1 : result
    case .metrics:
      guard let metrics else { return -1 }
      return sendMetrics(wsi, metrics, status: response.status, headers: response.headers)
    case .file(let path, let contentType):
      let extra = response.headers.map { "\($0.name): \($0.value)\r\n" }.joined()
      let result = lws_serve_http_file(wsi, path, contentType, extra, Int32(extra.utf8.count))
      if result < 0 || (result > 0 && lws_http_transaction_completed(wsi) != 0) { return -1 }
      return 0
    }
  }

  /// Whether `wsi` came to the metrics listener's vhost.
  private static func isOnMetricsListener(_ wsi: OpaquePointer) -> Bool {
    guard let vhost = lws_get_vhost(wsi), let name = lws_get_vhost_name(vhost) else {
      return false
    }
    return String(cString: name) == LWSEventLoop.metricsVhost
  }

  /// `LWS_CALLBACK_HTTP_WRITEABLE` and `LWS_CALLBACK_CLOSED_HTTP` for a connection with a
  /// `/metrics` body pending: writes it and ends the transaction, or forgets it. `nil` when
  /// nothing is pending (a static file, whose writes lws drives itself).
  func event(_ wsi: OpaquePointer, _ reason: lws_callback_reasons) -> Int32? {
    guard var body = pendingBodies.removeValue(forKey: wsi) else { return nil }
    guard reason == LWS_CALLBACK_HTTP_WRITEABLE else { return 0 }
    let headroom = shim_lws_pre()
    // lws keeps whatever the socket does not take and sends it before anything else; ending
    // the transaction meanwhile is deferred until that is out.
    let written = body.withUnsafeMutableBufferPointer { buffer in
      lws_write(
        wsi, buffer.baseAddress! + headroom, buffer.count - headroom, LWS_WRITE_HTTP_FINAL)
    }
    if written < 0 || lws_http_transaction_completed(wsi) != 0 { return -1 }
    return 0
  }

  /// `GET /metrics`: renders every metric now (on this thread: the registry only takes locks
  /// that other threads hold for a single update) and sends the headers; the body waits for
  /// the connection's `LWS_CALLBACK_HTTP_WRITEABLE`.
  private func sendMetrics(
    _ wsi: OpaquePointer, _ metrics: TransportMetrics, status: UInt32,
    headers: [(name: String, value: String)]
  ) -> Int32 {
    let headroom = shim_lws_pre()
    var body = [UInt8](repeating: 0, count: headroom)
    body.reserveCapacity(16 * 1024)
    metrics.render(&body)
    let sent = writeHeaders(
      wsi, status: status, contentType: TransportMetrics.contentType,
      contentLength: body.count - headroom, headers: headers)
    guard sent else { return -1 }
    pendingBodies[wsi] = body
    lws_callback_on_writable(wsi)
    return 0
  }

  /// Sends a header-only response and, if `finish`, ends the HTTP transaction (keeping the
  /// connection for the next request when lws can).
  private func respondWithoutBody(
    _ wsi: OpaquePointer, status: UInt32, headers: [(name: String, value: String)], finish: Bool
  ) -> Int32 {
    let sent = writeHeaders(
      wsi, status: status, contentType: "text/plain; charset=utf-8", contentLength: 0,
      headers: headers)
    if !sent || (finish && lws_http_transaction_completed(wsi) != 0) { return -1 }
    return 0
  }

  /// Writes the status line and headers through lws' header helpers, from a buffer with
  /// `LWS_PRE` bytes of headroom. Returns whether it worked.
  private func writeHeaders(
    _ wsi: OpaquePointer, status: UInt32, contentType: String, contentLength: Int,
    headers: [(name: String, value: String)]
  ) -> Bool {
    let headroom = shim_lws_pre()
    var buffer = [UInt8](repeating: 0, count: headroom + 4096)
    return buffer.withUnsafeMutableBufferPointer { buffer -> Bool in
      let start = buffer.baseAddress! + headroom
      let end = buffer.baseAddress! + buffer.count - 1
      var cursor: UnsafeMutablePointer<UInt8>? = start
      if lws_add_http_common_headers(
        wsi, status, contentType, lws_filepos_t(contentLength), &cursor, end) != 0
      {
        return false
      }
      for header in headers {
        let name = header.name.lowercased() + ":"
        let added = lws_add_http_header_by_name(
          wsi, name, header.value, Int32(header.value.utf8.count), &cursor, end)
        if added != 0 { return false }
      }
      return lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
    }
  }
}
