/// A session's token as ``SessionRegistry``'s maps keep it: hashed once, when the key is made.
///
/// A move finds its player's session from the connection: the connection's token, then the
/// session by token. Keyed by the token itself, that look-up hashed the token twice (once for
/// its part of the ``PartitionedDictionary``, once for the part's buckets), some 1,000
/// instructions of a move's ~48,000 (`scripts/callgrind-moves.sh`); the key kept by the
/// connection carries its hash, so a move's look-up hashes one integer.
struct SessionKey: Hashable, PartitionKey, Sendable {
  /// The token (the hash of the client's secret, as the registry keeps it).
  let token: String
  /// The token's `hashValue`, taken when the key was made.
  private let tokenHash: Int

  init(_ token: String) {
    self.token = token
    tokenHash = token.hashValue
  }

  static func == (lhs: SessionKey, rhs: SessionKey) -> Bool {
    lhs.tokenHash == rhs.tokenHash && lhs.token == rhs.token
  }

  /// The token's hash, hashed again by the table's seeded hasher: a bucket still depends on
  /// the seed, and no more than the token's own hash is computed for it.
  func hash(into hasher: inout Hasher) { hasher.combine(tokenHash) }

  /// The token's hash itself (seeded, evenly spread), whose top bits pick the part.
  var partitionBits: UInt { UInt(bitPattern: tokenHash) }
}
