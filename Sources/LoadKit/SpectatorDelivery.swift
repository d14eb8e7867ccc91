/// Times a table's changes from its move to their arrival at each of its spectators: the moment
/// the move was scheduled (a measured move's, once its mover's own diff says which version it
/// made) against the moment a spectator read that version. A spectator may read a version
/// before its mover does (the server writes the players first, but the sockets are read in
/// the load generator's own order): its arrival is kept until the version's move is known.
/// Bounded: only the last ``kept`` versions of each are kept.
struct SpectatorDelivery {
  /// Versions kept for matching, behind the newest seen.
  static let kept = 4096
  /// When the measured move that made each version was scheduled (monotonic ns).
  private var scheduled: [Int: UInt64] = [:]
  /// Arrivals of versions whose move is not known yet.
  private var early: [Int: [UInt64]] = [:]
  /// The newest version seen.
  private var newest = 0

  /// The measured move scheduled at `sent` made `version`: the delays (ns) of the arrivals
  /// that came before this was known.
  mutating func made(version: Int, sent: UInt64) -> [UInt64] {
    see(version)
    scheduled[version] = sent
    return (early.removeValue(forKey: version) ?? []).map { $0 >= sent ? $0 - sent : 0 }
  }

  /// A spectator read `version` at `now`: its delay (ns), or nil while the move is not known
  /// (or was not measured).
  mutating func arrived(version: Int, at now: UInt64) -> UInt64? {
    see(version)
    if let sent = scheduled[version] { return now >= sent ? now - sent : 0 }
    early[version, default: []].append(now)
    return nil
  }

  /// Entries kept (for tests).
  var count: Int { scheduled.count + early.count }

  private mutating func see(_ version: Int) {
    guard version > newest else { return }
    newest = version
    if scheduled.count + early.count > 2 * Self.kept {
      let oldest = newest - Self.kept
      scheduled = scheduled.filter { $0.key >= oldest }
      early = early.filter { $0.key >= oldest }
    }
  }
}
