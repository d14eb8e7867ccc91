import Foundation

/// Where a PostgreSQL journal lives, read from a URL of the form
/// `postgres://user:password@host:port/name` (`postgresql://` too; the password and the port
/// may be left out, the port is then 5432; user and password may be percent-encoded).
///
/// Plain TCP only: the URL takes no query parameters (no TLS yet), so a database on another
/// machine belongs on a private network.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
  /// The server's host name or address.
  public var host: String
  /// The server's port.
  public var port: Int
  /// The role to connect as.
  public var username: String
  /// Its password, if the server asks for one.
  public var password: String?
  /// The database.
  public var database: String

  /// The location `url` names; throws a ``StoreError`` saying what is wrong with it.
  public init(url: String) throws(StoreError) {
    let expected = "expected postgres://user:password@host:port/name"
    guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased() else {
      throw StoreError("not a URL (\(expected))")
    }
    guard scheme == "postgres" || scheme == "postgresql" else {
      throw StoreError("the scheme must be postgres:// or postgresql://, not \(scheme)://")
    }
    // An IPv6 address comes bracketed or not, depending on the Foundation.
    guard let bracketed = parts.host, !bracketed.isEmpty, bracketed != "[]" else {
      throw StoreError("no host (\(expected))")
    }
    let host =
      bracketed.hasPrefix("[") && bracketed.hasSuffix("]")
      ? String(bracketed.dropFirst().dropLast()) : bracketed
    guard let user = parts.user, !user.isEmpty else {
      throw StoreError("no user name (\(expected))")
    }
    let database = String(parts.path.drop { $0 == "/" })
    guard !database.isEmpty, !database.contains("/") else {
      throw StoreError("no database name after the host (\(expected))")
    }
    if let port = parts.port, !(1...65535).contains(port) {
      throw StoreError("the port must be 1...65535")
    }
    if parts.query != nil || parts.fragment != nil {
      throw StoreError("parameters after '?' or '#' are not supported (\(expected))")
    }
    self.host = host
    port = parts.port ?? 5432
    username = user
    password = parts.password
    self.database = database.removingPercentEncoding ?? database
  }

  /// The URL without its password, for logs and messages.
  public var description: String {
    let shownHost = host.contains(":") ? "[\(host)]" : host
    return "postgres://\(username)@\(shownHost):\(port)/\(database)"
  }
}
