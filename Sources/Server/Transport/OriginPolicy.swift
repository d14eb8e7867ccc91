/// Which browser pages may open a WebSocket: the `Origin` check of the upgrade request.
///
/// A browser always sends `Origin` with a WebSocket upgrade, and a page cannot forge it; so
/// comparing it with the request's `Host` keeps other sites' pages from using a visitor's
/// browser (and its cookies or network position) to talk to this server. Clients that are not
/// browsers send no `Origin` and are allowed: they could send any `Origin` they like anyway.
struct OriginPolicy: Sendable {
  /// Whether `"*"` was configured.
  let allowsAnyOrigin: Bool
  /// Configured origins, normalised (lower case, default port removed).
  private let allowed: Set<String>

  /// A policy allowing the page's own origin plus `allowedOrigins` (entries as accepted by
  /// `problem(withAllowedOrigin:)`).
  init(allowedOrigins: [String]) {
    allowsAnyOrigin = allowedOrigins.contains("*")
    allowed = Set(allowedOrigins.compactMap { Self.normalized(origin: $0) })
  }

  /// Whether a request with these `Origin` and `Host` header values may upgrade.
  func allows(origin: String?, host: String?) -> Bool {
    guard let origin else { return true }
    if allowsAnyOrigin { return true }
    guard let normalized = Self.normalized(origin: origin) else { return false }
    if allowed.contains(normalized) { return true }
    guard let host, let scheme = normalized.split(separator: ":").first,
      let separator = normalized.range(of: "://")
    else { return false }
    let authority = normalized[separator.upperBound...]
    return authority == Self.withoutDefaultPort(host.lowercased(), scheme: String(scheme))
  }

  /// Why `entry` cannot be an allowed origin, or `nil` if it can (`"*"` or
  /// `http(s)://host[:port]` without a path).
  static func problem(withAllowedOrigin entry: String) -> String? {
    if entry == "*" || normalized(origin: entry) != nil { return nil }
    return "allowed origin \"\(entry)\" is not \"*\" or scheme://host[:port] (http or https)"
  }

  /// `scheme://authority` in lower case without the scheme's default port, or `nil` if
  /// `origin` is not an http(s) origin (`null` and origins with a path are not).
  static func normalized(origin: String) -> String? {
    let lowered = origin.lowercased()
    guard let separator = lowered.range(of: "://") else { return nil }
    let scheme = String(lowered[..<separator.lowerBound])
    let authority = String(lowered[separator.upperBound...])
    guard scheme == "http" || scheme == "https", !authority.isEmpty,
      authority.allSatisfy({ $0.isASCII && !"/?#@ \\".contains($0) })
    else { return nil }
    return "\(scheme)://\(withoutDefaultPort(authority, scheme: scheme))"
  }

  /// `authority` without `:80` (http) or `:443` (https), which browsers leave out of `Origin`.
  private static func withoutDefaultPort(_ authority: String, scheme: String) -> String {
    let defaultPort = scheme == "https" ? ":443" : ":80"
    return authority.hasSuffix(defaultPort)
      ? String(authority.dropLast(defaultPort.count)) : authority
  }
}
