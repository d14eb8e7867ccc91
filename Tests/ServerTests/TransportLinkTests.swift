import Logging
import Protocol
import Testing

@testable import Server

#if canImport(Glibc)
  import Glibc
#endif

/// Links (issue 36): a transport opens a WebSocket connection to another server, as a client on
/// its own loop, and uses it like any connection.
@Suite(.ownThread) struct TransportLinkTests {
  @Test(arguments: [
    ("ws://10.0.0.2:8080/ws", LinkAddress(host: "10.0.0.2", port: 8080, path: "/ws")),
    ("ws://node-2:9000", LinkAddress(host: "node-2", port: 9000, path: "/")),
    ("ws://node-2/", LinkAddress(host: "node-2", port: 80, path: "/")),
    ("ws://[::1]:7000/a/b?c=d", LinkAddress(host: "::1", port: 7000, path: "/a/b?c=d")),
  ])
  func aNodesURLNamesWhereItsLinkGoes(url: String, address: LinkAddress) {
    #expect(LinkAddress(url: url) == address)
  }

  @Test(arguments: [
    "wss://node:1/ws", "http://node:1/", "ws://:80/", "ws://node:0/", "ws://node:x/",
    "ws://node:70000/", "ws://[::1/", "ws://[::1]x/",
  ])
  func anythingElseIsNoLinkAddress(url: String) {
    #expect(LinkAddress(url: url) == nil)
  }

  @Test func aLinkIsAConnectionBothWays() async throws {
    let owner = try Self.transport()
    let watcher = try Self.transport()
    // Shut down whatever happens: a service thread left running keeps the test process alive.
    await Self.always(shutting: [owner, watcher]) {
      await Self.bothWays(owner, watcher)
    }
  }

  private static func bothWays(_ owner: WebSocketTransport, _ watcher: WebSocketTransport) async {
    var ownerEvents = owner.events.makeAsyncIterator()
    var watcherEvents = watcher.events.makeAsyncIterator()
    let link = ConnectionID.link(1)
    #expect(link.isLink && !ConnectionID(rawValue: 7).isLink)
    watcher.perform([.connect(link, url: "ws://127.0.0.1:\(owner.listeningPort)/")])
    guard case .opened(let far, _) = await ownerEvents.next(),
      case .opened(let near, let address) = await watcherEvents.next()
    else {
      Issue.record("the link did not open on both sides")
      return
    }
    #expect(near == link && address == nil && !far.isLink)
    // The link's frames are masked as a client's must be (the owner's lws refuses others),
    // from a copy: the same shared frame sent twice reaches it twice, the same.
    let hello = Frame(Array("hello from the watching node".utf8))
    watcher.perform([.send(hello, to: [link]), .send(hello, to: [link])])
    for _ in 0..<2 {
      guard case .message(far, let bytes, _) = await ownerEvents.next() else {
        Issue.record("the owner did not read the link's frame")
        return
      }
      #expect(bytes == hello.payload)
    }
    // The owner's frames come whole and in order, faster than a client may send and longer
    // than a client's message may be: a link is not held to either.
    let frames = (0..<100).map { index in
      Frame(
        Array("frame \(index) ".utf8) + [UInt8](repeating: 120, count: index == 50 ? 300_000 : 40))
    }
    owner.perform(frames.map { .send($0, to: [far]) })
    for frame in frames {
      guard case .message(link, let bytes, _) = await watcherEvents.next() else {
        Issue.record("the link did not carry every frame")
        return
      }
      #expect(bytes == frame.payload)
    }
    // Either side's close is the other's.
    owner.perform([.close(far, code: 1001, reason: "going away")])
    guard case .closed(link) = await watcherEvents.next(),
      case .closed(far) = await ownerEvents.next()
    else {
      Issue.record("the link's close was not seen on both sides")
      return
    }
  }

  @Test func aLinkToNobodyIsReportedClosedAndNeverOpened() async throws {
    // A port bound and never listened on, kept so for the test: a connection there is refused
    // (a port just given back could be taken by another test's server meanwhile).
    let nobody = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #expect(nobody >= 0)
    defer { close(nobody) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(nobody, $0, length) == 0 && getsockname(nobody, $0, &length) == 0
      }
    }
    #expect(bound)
    let port = Int(UInt16(bigEndian: address.sin_port))
    let watcher = try Self.transport()
    var events = watcher.events.makeAsyncIterator()
    let link = ConnectionID.link(2)
    watcher.perform([.connect(link, url: "ws://127.0.0.1:\(port)/")])
    let first = await events.next()
    if case .closed(link) = first {
    } else {
      Issue.record(
        "a link that could not open was not reported closed: \(String(describing: first))")
    }
    // Frames for it go nowhere; a client's id is no link's.
    watcher.perform([
      .send(Frame(Array("x".utf8)), to: [link]),
      .connect(ConnectionID(rawValue: 5), url: "ws://127.0.0.1:\(port)/"),
    ])
    await watcher.shutdown(graceSeconds: 1)
    #expect(await events.next() == nil)
  }

  /// Runs `body`, then shuts every one of `transports` down, whatever `body` found.
  private static func always(
    shutting transports: [WebSocketTransport], _ body: () async -> Void
  ) async {
    await body()
    for transport in transports { await transport.shutdown(graceSeconds: 5) }
  }

  private static func transport() throws -> WebSocketTransport {
    var configuration = TransportConfiguration()
    configuration.port = 0
    configuration.host = "127.0.0.1"
    var logger = Logger(label: "link-test")
    logger.logLevel = .warning
    let transport = WebSocketTransport(configuration: configuration, logger: logger)
    try transport.start()
    return transport
  }
}
