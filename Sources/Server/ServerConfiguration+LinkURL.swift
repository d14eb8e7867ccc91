import Foundation

extension ServerConfiguration {
  /// Where the other nodes of a cluster reach this node: they link there to watch its tables
  /// for their own spectators (``PostgresClusterLink/linkURL``). See
  /// ``linkURL(advertised:host:port:hostName:)``.
  var linkURL: String? {
    Self.linkURL(
      advertised: advertisedURL, host: host, port: port,
      hostName: ProcessInfo.processInfo.hostName)
  }

  /// A node's address for the other nodes: its `--advertise-url` when that is a `ws://` URL
  /// (the operator says the node is reached there); otherwise `ws://HOST:PORT/` on the address
  /// it listens on, or on `hostName` (the machine's name) when it listens on every interface.
  /// Nil when the port is the system's choice (0): no address can be named before it binds.
  static func linkURL(advertised: String?, host: String, port: Int, hostName: String) -> String? {
    if let advertised, advertised.hasPrefix("ws://") { return advertised }
    guard port > 0 else { return nil }
    let everyInterface = ["", "0.0.0.0", "::", "[::]", "*"].contains(host)
    let name = everyInterface ? hostName : host
    guard !name.isEmpty else { return nil }
    // An IPv6 address is bracketed in a URL.
    let shown = name.contains(":") && !name.hasPrefix("[") ? "[\(name)]" : name
    return "ws://\(shown):\(port)/"
  }
}
