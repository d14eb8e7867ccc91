import Foundation
import Testing

@testable import Server

/// What a plain HTTP request is answered with.
@Suite struct HTTPResponderTests {
  /// A web root with a page, a script and a file that is not public; removed by the caller.
  private static func webRoot() throws -> StaticFiles {
    let made = FileManager.default.temporaryDirectory
      .appendingPathComponent("http-responder-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: made.appendingPathComponent("js"), withIntermediateDirectories: true)
    try Data("<!doctype html>".utf8).write(to: made.appendingPathComponent("index.html"))
    try Data("export {}".utf8).write(to: made.appendingPathComponent("js/app.js"))
    try Data("notes".utf8).write(to: made.appendingPathComponent("README.md"))
    guard let resolved = realpath(made.path, nil) else { throw CocoaError(.fileNoSuchFile) }
    defer { free(resolved) }
    return StaticFiles(root: String(cString: resolved))
  }

  private static func header(_ response: HTTPResponder.Response, _ name: String) -> String? {
    response.headers.first { $0.name == name }?.value
  }

  @Test func onlyGetIsAnsweredAndTheConnectionClosesAfterA405() {
    let responder = HTTPResponder(staticFiles: nil, servesMetrics: true)
    let response = responder.respond(isGet: false, path: "/", host: nil)
    #expect(response.status == 405)
    #expect(response.body == .none)
    #expect(response.closesConnection)
    #expect(Self.header(response, "Allow") == "GET")
    #expect(Self.header(response, "X-Content-Type-Options") == "nosniff")
  }

  @Test func publicFilesAreServedWithTheirCachePolicy() throws {
    let files = try Self.webRoot()
    defer { try? FileManager.default.removeItem(atPath: files.root) }
    let responder = HTTPResponder(staticFiles: files, servesMetrics: false)

    let page = responder.respond(isGet: true, path: "/", host: "game.example:8080")
    #expect(page.status == 200)
    #expect(
      page.body == .file(path: files.root + "/index.html", contentType: "text/html; charset=utf-8"))
    #expect(Self.header(page, "Cache-Control") == "no-cache")
    #expect(
      Self.header(page, "Content-Security-Policy")?.contains(
        "connect-src 'self' ws://game.example:8080 wss://game.example:8080") == true)
    #expect(!page.closesConnection)

    let script = responder.respond(isGet: true, path: "/js/app.js", host: nil)
    #expect(
      script.body
        == .file(path: files.root + "/js/app.js", contentType: "text/javascript; charset=utf-8"))
    #expect(Self.header(script, "Cache-Control") == "max-age=\(StaticFiles.assetMaxAge)")
  }

  @Test func anythingElseIs404WithTheSecurityHeaders() throws {
    let files = try Self.webRoot()
    defer { try? FileManager.default.removeItem(atPath: files.root) }
    let responder = HTTPResponder(staticFiles: files, servesMetrics: false)
    for path in ["/README.md", "/missing.js", "/js/", "/../etc/passwd", TransportMetrics.path] {
      let response = responder.respond(isGet: true, path: path, host: nil)
      #expect(response.status == 404, "\(path)")
      #expect(response.body == .none)
      #expect(!response.closesConnection)
      #expect(Self.header(response, "Content-Security-Policy") != nil)
      #expect(Self.header(response, "Cache-Control") == nil)
    }
    // Without a web root, not even the page.
    let bare = HTTPResponder(staticFiles: nil, servesMetrics: false)
    #expect(bare.respond(isGet: true, path: "/", host: nil).status == 404)
  }

  @Test func theMetricsPageIsNeverCached() {
    let responder = HTTPResponder(staticFiles: nil, servesMetrics: true)
    let response = responder.respond(isGet: true, path: TransportMetrics.path, host: nil)
    #expect(response.status == 200)
    #expect(response.body == .metrics)
    #expect(Self.header(response, "Cache-Control") == "no-store")
    // Only that exact path.
    #expect(responder.respond(isGet: true, path: "/metrics/", host: nil).status == 404)
  }

  /// The metrics are the operator's: not through a proxy (the cluster's front door says whom
  /// it forwards), while the files still are.
  @Test func aForwardedRequestDoesNotGetTheMetrics() {
    let responder = HTTPResponder(staticFiles: nil, servesMetrics: true)
    let forwarded = responder.respond(
      isGet: true, path: TransportMetrics.path, host: nil, forwarded: true)
    #expect(forwarded.status == 404 && forwarded.body == .none)
    #expect(responder.respond(isGet: true, path: TransportMetrics.path, host: nil).status == 200)
  }

  /// With a metrics listener of its own (`--metrics-port`), only it serves `/metrics`, and it
  /// serves nothing else; the main port serves the files and no metrics.
  @Test func aMetricsListenerOfItsOwnServesTheMetricsAlone() throws {
    let files = try Self.webRoot()
    defer { try? FileManager.default.removeItem(atPath: files.root) }
    let responder = HTTPResponder(staticFiles: files, servesMetrics: true, metricsApart: true)
    let own = responder.respond(
      isGet: true, path: TransportMetrics.path, host: nil, onMetricsListener: true)
    #expect(own.status == 200 && own.body == .metrics)
    #expect(
      responder.respond(isGet: true, path: "/", host: nil, onMetricsListener: true).status == 404)
    #expect(responder.respond(isGet: true, path: TransportMetrics.path, host: nil).status == 404)
    #expect(responder.respond(isGet: true, path: "/", host: nil).status == 200)
  }
}
