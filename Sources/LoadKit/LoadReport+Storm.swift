extension LoadReport {
  /// A storm run's fields (none without ``LoadConfiguration/storm``): the players' latency in
  /// the window before the storm and in the one that starts with it, their p99s' ratio, how
  /// many spectators acted, and (join, reconnect) how many had their snapshot again and the
  /// latest of those returns (-1 if any is missing); reconnect: how many resumed their session.
  var stormFields: [(String, Value)] {
    guard let storm = configuration.storm else { return [] }
    let s = statistics
    let before = s.latencyBeforeStorm
    let during = s.latencyDuringStorm
    let ratio =
      before.totalCount > 0 && during.totalCount > 0
      ? Double(during.valueAtPercentile(99)) / Double(before.valueAtPercentile(99)) : -1
    var fields: [(String, Value)] = [
      ("storm", .text(storm.rawValue)),
      ("storm_at_s", .real(configuration.stormAt, 1)),
      ("storm_window_s", .real(configuration.stormWindow, 1)),
    ]
    fields += Self.latencyFields("storm_before", before)
    fields += Self.latencyFields("storm_during", during)
    fields += [
      ("storm_p99_ratio", .real(ratio, 2)),
      ("storm_spectators", .int(s.stormActed)),
    ]
    if storm == .reconnect { fields.append(("storm_resumed", .int(s.stormResumed))) }
    if storm != .leave {
      let returns = s.stormReturnSeconds
      fields += [
        ("storm_returned", .int(returns.count)),
        (
          "storm_returned_latest_s",
          .real(returns.count < s.stormActed ? -1 : (returns.max() ?? -1), 3)
        ),
        (
          "storm_returned_p50_s",
          .real(returns.isEmpty ? -1 : returns.sorted()[returns.count / 2], 3)
        ),
      ]
    }
    return fields
  }
}
