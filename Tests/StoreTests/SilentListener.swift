import Foundation

/// A TCP port on 127.0.0.1 that takes connections (the kernel completes them from its backlog)
/// and never says a word, as a frozen server's does. Closed when released.
final class SilentListener {
  /// The port it listens on.
  let port: Int
  private let socket: Int32

  init() throws {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(socket, pointer, length) == 0 && listen(socket, 16) == 0
          && getsockname(socket, pointer, &length) == 0
      }
    }
    guard bound else {
      close(socket)
      throw POSIXError(.EADDRINUSE)
    }
    self.socket = socket
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit { close(socket) }
}
