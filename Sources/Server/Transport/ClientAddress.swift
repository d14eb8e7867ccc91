import Foundation

/// Whose connection it is: the peer's address, or, when the peer is a proxy this server trusts
/// (the cluster's front door, `--trusted-proxy`), the address that proxy put last in
/// `X-Forwarded-For` (HAProxy's `option forwardfor` adds the address it saw; what came before it
/// was written by the client and proves nothing).
enum ClientAddress {
  /// The client's address for a connection from `peer` that carried `forwardedFor`.
  static func of(peer: String, forwardedFor: String?, trusted: Set<String>) -> String {
    guard trusted.contains(peer), let forwardedFor,
      let last = forwardedFor.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
      isAddress(last)
    else { return peer }
    return last
  }

  /// Whether `text` is an IPv4 or IPv6 address in its numeric form.
  static func isAddress(_ text: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
  }
}
