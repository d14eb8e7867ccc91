/// The per-address connection limit: how many WebSocket connections one peer address holds at
/// once. A pure value the service thread asks when a connection is established and tells when
/// it closes; tests drive it directly.
///
/// Addresses are counted exactly as the socket names them (an IPv6 address on its own, not its
/// /64). Behind a proxy every connection comes from the proxy's address, so there the limit
/// belongs to the proxy (README.md, "Slow and greedy clients").
struct AddressLimit: Sendable {
  /// Most connections from one address; 0: no limit (nothing is counted).
  let limit: Int
  /// Open connections per address, for the addresses that hold one.
  private(set) var counts: [String: Int] = [:]

  /// A limit of `limit` connections per address (0: none).
  init(limit: Int) {
    self.limit = limit
  }

  /// Whether the limit is on.
  var isOn: Bool { limit > 0 }

  /// Counts a new connection from `address` unless it holds `limit` already.
  /// - Returns: `false` if the connection is over the limit (and was not counted).
  mutating func admit(_ address: String) -> Bool {
    guard isOn else { return true }
    let held = counts[address, default: 0]
    guard held < limit else { return false }
    counts[address] = held + 1
    return true
  }

  /// A connection that `admit` counted closed.
  mutating func release(_ address: String) {
    guard let held = counts[address] else { return }
    counts[address] = held > 1 ? held - 1 : nil
  }
}
