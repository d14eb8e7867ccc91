#if canImport(Glibc)
  import Glibc
#endif

/// Makes the process file limit fit the connection limit: the soft limit becomes
/// `maxConnections + headroom`, within the hard limit, which is never touched.
///
/// lws sizes its socket tables from `ulimit -n` (silently using 2,560 when the limit is above
/// 10,000,000), the Debian build scans that whole table on every connection close (a debug
/// sanity check), and `info.rlimit_nofile` would set the soft *and* hard limit to one value.
/// So the transport sets only the soft limit itself, to what it needs, and leaves
/// `rlimit_nofile` at 0.
enum FileDescriptorLimit {
  /// Descriptors kept free for everything that is not a WebSocket (listen socket, HTTP
  /// clients, files being served, the database, logs).
  static let headroom = 1024

  /// lws falls back to 2,560 descriptors above this limit.
  static let lwsMaximum: rlim_t = 10_000_000

  /// The soft limit to use for `maxConnections` given the hard limit.
  static func soft(forConnections maxConnections: Int, hard: rlim_t) -> rlim_t {
    min(rlim_t(clamping: maxConnections) + rlim_t(headroom), hard, lwsMaximum)
  }

  /// Adjusts `RLIMIT_NOFILE`; returns the soft limit now in effect.
  @discardableResult
  static func adjust(forConnections maxConnections: Int) -> rlim_t {
    var limit = rlimit()
    guard getrlimit(openFilesResource, &limit) == 0 else { return 0 }
    let soft = soft(forConnections: maxConnections, hard: limit.rlim_max)
    if soft != limit.rlim_cur {
      var updated = limit
      updated.rlim_cur = soft
      if setrlimit(openFilesResource, &updated) != 0 { return limit.rlim_cur }
    }
    return soft
  }

  private static var openFilesResource: __rlimit_resource_t {
    __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
  }
}
