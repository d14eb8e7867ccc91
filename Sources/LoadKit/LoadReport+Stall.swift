import Histogram

extension LoadReport {
  /// A stall run's fields (none without ``LoadConfiguration/stallAt``): the table mates'
  /// latency in the window before the stall and in the one that starts with it, the latency
  /// at the other tables at the same moments (`stall_beside`), when the
  /// stalled seats were seen `away` and cut (the latest of each, -1 if any is missing), and the
  /// membership events seen at their tables.
  var stallFields: [(String, Value)] {
    guard let stallAt = configuration.stallAt else { return [] }
    let s = statistics
    let expected = configuration.stallTables
    func latest(_ seconds: [Double]) -> Value {
      seconds.count < expected ? .real(-1, 3) : .real(seconds.max() ?? -1, 3)
    }
    return [
      ("stall_at_s", .real(stallAt, 1)),
      ("stall_window_s", .real(configuration.stallWindow, 1)),
      ("stall_tables", .int(expected)),
      ("stall_every_s", .real(configuration.stallEvery, 1)),
    ] + Self.latencyFields("stall_before", s.latencyBeforeStall)
      + Self.latencyFields("stall_during", s.latencyDuringStall)
      + Self.latencyFields("stall_beside", s.latencyBesideStall) + [
        ("stall_during_over_beside_p99x110_pct", Self.shareOver(s, factor: 1.1)),
        ("stall_aways", .int(s.stallAwaySeconds.count)),
        ("stall_away_latest_s", latest(s.stallAwaySeconds)),
        ("stall_cuts", .int(s.stallCutSeconds.count)),
        ("stall_cut_latest_s", latest(s.stallCutSeconds)),
        ("stall_cut_after_shut_latest_s", latest(s.stallCutAfterShutSeconds)),
        ("stall_away_after_cut_latest_s", latest(s.stallAwayAfterCutSeconds)),
        ("stall_events", .counts(s.stallTableEvents.map { ($0.key, $0.value) })),
      ]
  }

  /// The share (%) of the moves during the stalls slower than `factor` × the p99 of the moves
  /// beside them: at most 1 % when the stalls' p99 is within that factor, give or take the
  /// sampling error of a tail.
  private static func shareOver(_ s: LoopStatistics, factor: Double) -> Value {
    guard s.latencyDuringStall.totalCount > 0, s.latencyBesideStall.totalCount > 0 else {
      return .real(-1, 3)
    }
    let limit = UInt64(Double(s.latencyBesideStall.valueAtPercentile(99)) * factor)
    let over = s.latencyDuringStall.count(
      within: (limit + 1)...Swift.max(limit + 1, s.latencyDuringStall.max))
    return .real(Double(over) / Double(s.latencyDuringStall.totalCount) * 100, 3)
  }

  /// `prefix_n`, `prefix_p50_us`, `prefix_p99_us`, `prefix_p999_us` of `histogram`.
  static func latencyFields(_ prefix: String, _ histogram: Histogram<UInt64>)
    -> [(String, Value)]
  {
    func at(_ p: Double) -> Value {
      .int(histogram.totalCount == 0 ? 0 : Int(histogram.valueAtPercentile(p)))
    }
    return [
      ("\(prefix)_n", .int(Int(histogram.totalCount))),
      ("\(prefix)_p50_us", at(50)),
      ("\(prefix)_p99_us", at(99)),
      ("\(prefix)_p999_us", at(99.9)),
    ]
  }
}
