import Testing

@testable import LoadKit

@Suite struct ReportHistogramTests {
  private func report(_ configuration: LoadConfiguration, _ statistics: LoopStatistics)
    -> LoadReport
  {
    LoadReport(
      configuration: configuration, statistics: statistics, setupSeconds: 1, windowSeconds: 20,
      serverBefore: nil, serverAtStart: nil, serverAtEnd: nil, serverAfter: nil,
      selfAtStart: nil, selfAtEnd: nil, machineCPUMicroseconds: nil)
  }

  /// Counts by value parsed back from a `.counts` field's compact form (`value:count,...`).
  private func counts(_ text: String?) -> [(UInt64, Int)] {
    (text ?? "").split(separator: ",").map { pair in
      let parts = pair.split(separator: ":")
      return (UInt64(parts[0])!, Int(parts[1])!)
    }.sorted { $0.0 < $1.0 }
  }

  /// The p99 of pooled counts, by the histogram's own rule: the value at which the count
  /// reaches 99 % of the total, rounded up.
  private func p99(_ pooled: [(UInt64, Int)]) -> UInt64 {
    let total = pooled.reduce(0) { $0 + $1.1 }
    let rank = max(1, Int((0.99.nextDown * Double(total)).rounded(.up)))
    var seen = 0
    for (value, count) in pooled {
      seen += count
      if seen >= rank { return value }
    }
    return 0
  }

  @Test func histogramsComeOnlyWhenAskedFor() {
    var statistics = LoopStatistics()
    statistics.latency.record(500)
    var configuration = LoadConfiguration()
    #expect(report(configuration, statistics).value("lat_hist_us") == nil)
    configuration.histograms = true
    #expect(report(configuration, statistics).value("lat_hist_us") == "500:1")
    #expect(report(configuration, statistics).value("storm_before_hist_us") == nil)
  }

  @Test func pooledCountsGiveThePercentileOfAllTheSamples() {
    var configuration = LoadConfiguration()
    configuration.histograms = true
    configuration.storm = .join
    // Two runs whose storm windows hold 200 moves each: one slow move in the first, three in
    // the second. Either run's own p99 is its third slowest move: the second run's is slow.
    // The pool's is the fifth slowest of 400: past all four slow ones.
    var first = LoopStatistics()
    var second = LoopStatistics()
    var all = LoopStatistics.makeLatencyHistogram()
    for i in 0..<200 {
      let a: UInt64 = i == 0 ? 40_000 : 1_000 + UInt64(i)
      let b: UInt64 = i < 3 ? 30_000 + UInt64(i) * 1_000 : 1_200 + UInt64(i)
      first.latencyDuringStorm.record(a)
      second.latencyDuringStorm.record(b)
      first.latencyBeforeStorm.record(900)
      all.record(a)
      all.record(b)
    }
    let one = counts(report(configuration, first).value("storm_during_hist_us"))
    let two = counts(report(configuration, second).value("storm_during_hist_us"))
    #expect(one.reduce(0) { $0 + $1.1 } == 200)
    #expect(p99(one) == first.latencyDuringStorm.valueAtPercentile(99))
    #expect(p99(two) == second.latencyDuringStorm.valueAtPercentile(99))
    let pooled = (one + two).sorted { $0.0 < $1.0 }
    #expect(p99(pooled) == all.valueAtPercentile(99))
    #expect(p99(pooled) < 30_000)
    #expect(report(configuration, first).value("storm_before_hist_us") == "900:200")
  }
}
