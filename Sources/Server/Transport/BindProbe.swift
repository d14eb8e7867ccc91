#if canImport(Glibc)
  import Glibc
#endif

/// Explains a failed listen: lws only says that context creation failed, so after a failure
/// the transport binds a throwaway socket to the same address to learn the errno.
enum BindProbe {
  /// The typed error for binding `host:port`, or `nil` if the probe binds fine (or `host` is
  /// not an IP literal).
  static func diagnose(host: String, port: Int) -> TransportError? {
    guard (0...65_535).contains(port) else { return nil }
    var storage = sockaddr_storage()
    let length: socklen_t
    let family: Int32
    var address4 = in_addr()
    var address6 = in6_addr()
    if inet_pton(AF_INET, host, &address4) == 1 {
      family = AF_INET
      length = socklen_t(MemoryLayout<sockaddr_in>.size)
      withUnsafeMutableBytes(of: &storage) { raw in
        let sin = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
        sin.pointee.sin_family = sa_family_t(AF_INET)
        sin.pointee.sin_port = in_port_t(UInt16(port).bigEndian)
        sin.pointee.sin_addr = address4
      }
    } else if inet_pton(AF_INET6, host, &address6) == 1 {
      family = AF_INET6
      length = socklen_t(MemoryLayout<sockaddr_in6>.size)
      withUnsafeMutableBytes(of: &storage) { raw in
        let sin6 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
        sin6.pointee.sin6_family = sa_family_t(AF_INET6)
        sin6.pointee.sin6_port = in_port_t(UInt16(port).bigEndian)
        sin6.pointee.sin6_addr = address6
      }
    } else {
      return nil
    }
    let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var yes: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    let result = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard result != 0 else { return nil }
    switch errno {
    case EADDRINUSE: return .addressInUse(host: host, port: port)
    case EACCES, EPERM: return .permissionDenied(host: host, port: port)
    case EADDRNOTAVAIL: return .addressNotAvailable(host: host)
    default: return nil
    }
  }
}
