import Foundation

/// Where a PostgreSQL journal lives, read from a URL of the form
/// `postgres://user:password@host:port/name` (`postgresql://` too; the password and the port
/// may be left out, the port is then 5432; user and password may be percent-encoded), or with
/// several servers, as libpq reads it: `postgres://user@h1:p1,h2:p2/name?target_session_attrs=read-write`
/// (a highly available database: a node keeps to the one that accepts writes).
///
/// Plain TCP only (no TLS yet), so a database on another machine belongs on a private network.
/// The parameters taken after `?`: `target_session_attrs` (`read-write`, the default with
/// several hosts, or `any`), `sslmode` (`disable`, `allow` or `prefer`: plain TCP) and
/// `connect_timeout` (seconds, at least 1).
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
  /// One server of the list.
  public struct Server: Sendable, Hashable, CustomStringConvertible {
    /// Its host name or address.
    public var host: String
    /// Its port.
    public var port: Int

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
  }

  /// Which server a connection may keep.
  public enum Target: String, Sendable, Hashable {
    /// One that accepts writes (a primary, not a standby nor one kept read-only).
    case readWrite = "read-write"
    /// The first that answers.
    case any
  }

  /// The servers, in the order they are tried.
  public var servers: [Server]
  /// The role to connect as.
  public var username: String
  /// Its password, if the server asks for one.
  public var password: String?
  /// The database.
  public var database: String
  /// Which server a connection may keep.
  public var target: Target
  /// Longest one server may take to accept a connection, in seconds.
  public var connectTimeout: Int

  /// The first server's host (the only one's, with one).
  public var host: String { servers[0].host }
  /// The first server's port.
  public var port: Int { servers[0].port }

  /// The location `url` names; throws a ``StoreError`` saying what is wrong with it.
  public init(url: String) throws(StoreError) {
    let expected = "expected postgres://user:password@host:port/name"
    guard let schemeEnd = url.range(of: "://") else {
      throw StoreError("not a URL (\(expected))")
    }
    let scheme = url[..<schemeEnd.lowerBound].lowercased()
    guard scheme == "postgres" || scheme == "postgresql" else {
      throw StoreError("the scheme must be postgres:// or postgresql://, not \(scheme)://")
    }
    var rest = url[schemeEnd.upperBound...]
    if let hash = rest.firstIndex(of: "#") {
      guard rest[rest.index(after: hash)...].isEmpty else {
        throw StoreError("a fragment after '#' is not supported (\(expected))")
      }
      rest = rest[..<hash]
    }
    var query: Substring = ""
    if let mark = rest.firstIndex(of: "?") {
      query = rest[rest.index(after: mark)...]
      rest = rest[..<mark]
    }
    let slash = rest.firstIndex(of: "/") ?? rest.endIndex
    var authority = rest[..<slash]
    let path = rest[slash...].drop { $0 == "/" }
    var user: Substring = ""
    var secret: Substring?
    if let at = authority.lastIndex(of: "@") {
      let userInfo = authority[..<at]
      authority = authority[authority.index(after: at)...]
      if let colon = userInfo.firstIndex(of: ":") {
        user = userInfo[..<colon]
        secret = userInfo[userInfo.index(after: colon)...]
      } else {
        user = userInfo
      }
    }
    servers = try Self.servers(authority, expected: expected)
    guard let name = String(user).removingPercentEncoding, !name.isEmpty else {
      throw StoreError("no user name (\(expected))")
    }
    guard !path.isEmpty, !path.contains("/"), let database = String(path).removingPercentEncoding
    else {
      throw StoreError("no database name after the host (\(expected))")
    }
    username = name
    password = secret.map { String($0).removingPercentEncoding ?? String($0) }
    self.database = database
    target = servers.count > 1 ? .readWrite : .any
    connectTimeout = 5
    try read(parameters: query)
  }

  /// The servers of `authority` (`host:port,host:port`, an IPv6 address in brackets).
  private static func servers(_ authority: Substring, expected: String) throws(StoreError)
    -> [Server]
  {
    var servers: [Server] = []
    for part in authority.split(separator: ",", omittingEmptySubsequences: false) {
      var host = part
      var port = 5432
      if part.hasPrefix("[") {
        guard let close = part.firstIndex(of: "]") else {
          throw StoreError("'\(part)': an IPv6 address needs its closing ']'")
        }
        host = part[part.index(after: part.startIndex)..<close]
        let after = part[part.index(after: close)...]
        if !after.isEmpty {
          guard after.hasPrefix(":") else {
            throw StoreError("'\(part)': expected :port after ']'")
          }
          port = try Self.port(after.dropFirst(), in: part)
        }
      } else if let colon = part.firstIndex(of: ":") {
        host = part[..<colon]
        port = try Self.port(part[part.index(after: colon)...], in: part)
      }
      guard !host.isEmpty else {
        throw StoreError(
          part.isEmpty && authority.contains(",")
            ? "an empty host in the list '\(authority)'" : "no host (\(expected))")
      }
      servers.append(Server(host: String(host), port: port))
    }
    return servers
  }

  private static func port(_ text: Substring, in part: Substring) throws(StoreError) -> Int {
    guard let port = Int(text), (1...65535).contains(port) else {
      throw StoreError("'\(part)': the port must be 1...65535")
    }
    return port
  }

  /// Reads the parameters after `?`; throws on any this server does not take.
  private mutating func read(parameters query: Substring) throws(StoreError) {
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let key = String(parts[0]).removingPercentEncoding ?? String(parts[0])
      let value = parts.count > 1 ? String(parts[1]).removingPercentEncoding ?? "" : ""
      switch key {
      case "target_session_attrs":
        guard let target = Target(rawValue: value) else {
          throw StoreError(
            "unknown target_session_attrs '\(value)' (this server takes read-write or any)")
        }
        self.target = target
      case "sslmode":
        guard ["disable", "allow", "prefer"].contains(value) else {
          throw StoreError(
            "sslmode '\(value)' is not supported: connections are plain TCP (disable, allow or prefer)"
          )
        }
      case "connect_timeout":
        guard let seconds = Int(value), seconds >= 1 else {
          throw StoreError("connect_timeout '\(value)' is not a whole number of seconds ≥ 1")
        }
        connectTimeout = seconds
      default:
        throw StoreError(
          "the parameter '\(key)' is not supported (target_session_attrs, sslmode, connect_timeout are)"
        )
      }
    }
  }

  /// The URL without its password, for logs and messages.
  public var description: String {
    let hosts = servers.map(\.description).joined(separator: ",")
    let attrs =
      servers.count > 1 || target != .any ? "?target_session_attrs=\(target.rawValue)" : ""
    return "postgres://\(username)@\(hosts)/\(database)\(attrs)"
  }
}
