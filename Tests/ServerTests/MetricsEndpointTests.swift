import Logging
import Testing

@testable import Server

/// `GET /metrics` served by the transport's own HTTP handler.
@Suite(.ownThread) struct MetricsEndpointTests {
  private static let logger: Logger = {
    var logger = Logger(label: "metrics-endpoint-test")
    logger.logLevel = .warning
    return logger
  }()

  /// Runs `body` with a transport on a free port and always shuts it down.
  private func withTransport(
    metrics: TransportMetrics?, _ body: (Int) async throws -> Void
  ) async throws {
    var configuration = TransportConfiguration()
    configuration.port = 0
    let transport = WebSocketTransport(
      configuration: configuration, logger: Self.logger, metrics: metrics)
    try transport.start()
    do {
      try await body(transport.listeningPort)
    } catch {
      await transport.shutdown()
      throw error
    }
    await transport.shutdown()
  }

  /// A body far larger than a socket takes at once: lws must keep the rest and send it before
  /// the transaction ends, and the connection must then serve the next request.
  @Test func servesALargeRenderingWholeTwiceOnOneConnection() async throws {
    let page = (0..<200_000).map { "matchismo_test_line_\($0) 1\n" }.joined()
    let metrics = TransportMetrics(factory: ServerMetrics().factory) { buffer in
      buffer.append(contentsOf: page.utf8)
    }
    try await withTransport(metrics: metrics) { port in
      let responses = try await offPool {
        let client = try LoopbackClient(port: port)
        return [try client.get("/metrics"), try client.get("/metrics")]
      }
      for response in responses {
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == TransportMetrics.contentType)
        #expect(response.headers["cache-control"] == "no-store")
        #expect(response.headers["x-content-type-options"] == "nosniff")
        #expect(response.body.count == page.utf8.count)
        #expect(response.body == Array(page.utf8))
      }
    }
  }

  @Test func withoutMetricsThereIsNoPage() async throws {
    try await withTransport(metrics: nil) { port in
      let response = try await offPool { try LoopbackClient(port: port).get("/metrics") }
      #expect(response.status == 404)
    }
  }
}
