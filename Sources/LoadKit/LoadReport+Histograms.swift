import Histogram

extension LoadReport {
  /// With ``LoadConfiguration/histograms``: the players' latency in the measured window
  /// (`lat_hist_us`) and, in a storm run, in the windows before and from the storm
  /// (`storm_before_hist_us`, `storm_during_hist_us`), as counts by microseconds.
  var histogramFields: [(String, Value)] {
    guard configuration.histograms else { return [] }
    let s = statistics
    var fields: [(String, Value)] = [("lat_hist_us", Self.counts(of: s.latency))]
    if configuration.storm != nil {
      fields += [
        ("storm_before_hist_us", Self.counts(of: s.latencyBeforeStorm)),
        ("storm_during_hist_us", Self.counts(of: s.latencyDuringStorm)),
      ]
    }
    return fields
  }

  /// The recorded values of `histogram`, each bucket as (its highest value, its count): the
  /// same values its percentiles answer with.
  static func counts(of histogram: Histogram<UInt64>) -> Value {
    .counts(
      histogram.recordedValues().map {
        (String(histogram.highestEquivalentForValue($0.value)), Int($0.count))
      })
  }
}
