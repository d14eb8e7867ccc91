/// Where a link goes (`TransportCommand.connect`): another server's WebSocket endpoint, plain
/// `ws://` (the nodes of a cluster speak to each other on their private addresses).
struct LinkAddress: Sendable, Equatable {
  /// A name or an address (IPv6 without brackets).
  var host: String
  var port: Int
  /// The request's path, from its first `/`.
  var path: String

  /// The address a `ws://HOST:PORT/PATH` URL names (the port 80 when it names none, the path
  /// `/` when it has none), or nil for anything else (`wss://` included).
  init?(url: String) {
    guard url.hasPrefix("ws://") else { return nil }
    let rest = url.dropFirst("ws://".count)
    let authority = rest.prefix { $0 != "/" }
    path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
    var hostPart = Substring(authority)
    var portPart: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      hostPart = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { return nil }
        portPart = after.dropFirst()
      }
    } else if let colon = authority.lastIndex(of: ":") {
      hostPart = authority[..<colon]
      portPart = authority[authority.index(after: colon)...]
    }
    guard !hostPart.isEmpty else { return nil }
    host = String(hostPart)
    if let portPart {
      guard let port = Int(portPart), (1...65535).contains(port) else { return nil }
      self.port = port
    } else {
      port = 80
    }
  }

  init(host: String, port: Int, path: String) {
    self.host = host
    self.port = port
    self.path = path
  }
}
