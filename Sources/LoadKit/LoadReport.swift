/// The outcome of a run, as a readable table, one `key=value` line, or JSON.
public struct LoadReport: Sendable {
  /// What ran.
  public let configuration: LoadConfiguration
  /// What the loops counted.
  public let statistics: LoopStatistics
  /// Seconds from the first connect to the start of load.
  public let setupSeconds: Double
  /// Length of the measured window (idle: the hold).
  public let windowSeconds: Double
  /// Server before any connection, at the window's start and end, and after the close.
  public let serverBefore, serverAtStart, serverAtEnd, serverAfter: ProcessSample?
  /// This process at the window's start and end.
  public let selfAtStart, selfAtEnd: ProcessSample?
  /// CPU time the whole machine used during the window, in microseconds.
  public let machineCPUMicroseconds: UInt64?
  /// Of it, the time the hypervisor gave to other machines (steal), in microseconds.
  public let machineStealMicroseconds: UInt64?
  /// Soak samples of the server's RSS during the window, oldest first (empty without
  /// `--sample-every`).
  public let rssSamples: [RSSSample]

  /// A report of what a run measured.
  public init(
    configuration: LoadConfiguration, statistics: LoopStatistics, setupSeconds: Double,
    windowSeconds: Double, serverBefore: ProcessSample?, serverAtStart: ProcessSample?,
    serverAtEnd: ProcessSample?, serverAfter: ProcessSample?, selfAtStart: ProcessSample?,
    selfAtEnd: ProcessSample?, machineCPUMicroseconds: UInt64?, rssSamples: [RSSSample] = [],
    machineStealMicroseconds: UInt64? = nil
  ) {
    self.configuration = configuration
    self.statistics = statistics
    self.setupSeconds = setupSeconds
    self.windowSeconds = windowSeconds
    self.serverBefore = serverBefore
    self.serverAtStart = serverAtStart
    self.serverAtEnd = serverAtEnd
    self.serverAfter = serverAfter
    self.selfAtStart = selfAtStart
    self.selfAtEnd = selfAtEnd
    self.machineCPUMicroseconds = machineCPUMicroseconds
    self.machineStealMicroseconds = machineStealMicroseconds
    self.rssSamples = rssSamples
  }

  /// The soak figures: RSS at the first sample, at the window's end, the growth between them
  /// in %, the largest sample, and every sample as `seconds:KiB` pairs. Empty without samples.
  var soakFields: [(String, Value)] {
    guard let first = rssSamples.first else { return [] }
    let end = serverAtEnd?.rssKiB ?? rssSamples.last?.rssKiB ?? first.rssKiB
    let largest = max(end, rssSamples.map(\.rssKiB).max() ?? 0)
    return [
      ("rss_samples", .int(rssSamples.count)),
      ("rss_first_sample_s", .real(first.seconds, 0)),
      ("rss_first_sample_kib", .int(Int(first.rssKiB))),
      ("rss_end_kib", .int(Int(end))),
      ("rss_max_kib", .int(Int(largest))),
      ("rss_growth_pct", .real(Self.growth(from: first.rssKiB, to: end), 2)),
      (
        "rss_series_kib",
        .text(rssSamples.map { "\(fixed($0.seconds, 0)):\($0.rssKiB)" }.joined(separator: ","))
      ),
    ]
  }

  /// Growth from `first` to `last` in % of `first` (0 when `first` is 0).
  static func growth(from first: UInt64, to last: UInt64) -> Double {
    first == 0 ? 0 : (Double(last) - Double(first)) / Double(first) * 100
  }

  /// The report's values in order, as (key, value) pairs: the single source for every format.
  public var fields: [(String, Value)] {
    let s = statistics
    let window = max(windowSeconds, 1e-9)
    var out: [(String, Value)] = [
      ("mode", .text(configuration.mode.rawValue)),
      ("tables", .int(configuration.tables)),
      ("seats", .int(configuration.seats)),
      ("spectators", .int(configuration.spectators)),
      ("threads", .int(configuration.threads)),
      ("connections", .int(configuration.connections)),
      ("connected", .int(s.connected)),
      ("ready", .int(s.ready)),
      ("setup_failures", .int(s.setupFailures)),
      ("setup_s", .real(setupSeconds, 1)),
      ("held", .int(s.heldAtWindowEnd)),
      ("window_s", .real(windowSeconds, 1)),
    ]
    if configuration.mode == .open { out.append(("rate", .real(configuration.rate, 0))) }
    out += [
      ("moves", .int(s.movesInWindow)),
      ("moves_per_s", .real(Double(s.movesInWindow) / window, 0)),
      ("diffs", .int(s.diffsInWindow)),
      ("diffs_per_s", .real(Double(s.diffsInWindow) / window, 0)),
      ("status_frames", .int(s.statusFrames)),
      ("frames", .int(s.framesTotal)),
      ("answered_diff", .int(s.answeredByDiff)),
      ("answered_error", .int(s.answeredByError)),
      ("unanswered", .int(s.unanswered)),
      ("resyncs", .int(s.resyncs)),
      ("protocol_errors", .int(s.protocolErrors)),
      ("errors", .counts(s.errors.map { ($0.key, $0.value) })),
      ("closes", .counts(s.closes.map { (String($0.key), $0.value) })),
      ("lat_n", .int(Int(s.latency.totalCount))),
      ("lat_p50_us", .int(percentile(50))),
      ("lat_p90_us", .int(percentile(90))),
      ("lat_p99_us", .int(percentile(99))),
      ("lat_p999_us", .int(percentile(99.9))),
      ("lat_max_us", .int(s.latency.totalCount == 0 ? 0 : Int(s.latency.max))),
    ]
    if configuration.spectators > 0 {
      let crowd = s.spectatorLatency
      func p(_ q: Double) -> Int { crowd.totalCount == 0 ? 0 : Int(crowd.valueAtPercentile(q)) }
      out += [
        ("spectator_diffs", .int(s.spectatorDiffs)),
        ("crowd_counts", .int(s.crowdCounts)),
        ("spec_lat_n", .int(Int(crowd.totalCount))),
        ("spec_lat_p50_us", .int(p(50))),
        ("spec_lat_p99_us", .int(p(99))),
        ("spec_lat_max_us", .int(crowd.totalCount == 0 ? 0 : Int(crowd.max))),
      ]
    }
    if configuration.mode == .idle {
      out += [
        ("liveness_sent", .int(s.livenessSent)),
        ("liveness_ok", .int(s.livenessAnswered)),
      ]
    }
    if configuration.mode == .play {
      out += [
        ("sets_claimed", .int(s.setsClaimed)),
        ("games_over", .int(s.gamesOver)),
        ("redeal_votes", .int(s.redealVotes)),
        ("redeals", .int(s.redeals)),
      ]
    }
    if let start = serverAtStart, let end = serverAtEnd {
      let cpu = Double(end.cpuMicroseconds &- start.cpuMicroseconds)
      out += [
        ("server_cpu_pct", .real(cpu / (window * 1e6) * 100, 1)),
        (
          "server_us_per_diff",
          .real(s.diffsInWindow > 0 ? cpu / Double(s.diffsInWindow) : 0, 1)
        ),
      ]
    }
    if let before = serverBefore, let end = serverAtEnd {
      let held = s.heldAtWindowEnd
      out += [
        ("server_rss_start_kib", .int(Int(before.rssKiB))),
        ("server_rss_end_kib", .int(Int(end.rssKiB))),
        (
          "server_kib_per_conn",
          held == 0
            ? .text("-") : .real(Double(Int(end.rssKiB) - Int(before.rssKiB)) / Double(held), 2)
        ),
      ]
    }
    out += soakFields
    out += stallFields
    out += stormFields
    out += histogramFields
    if let before = serverBefore, let after = serverAfter {
      out.append(
        (
          "server_cpu_total_s",
          .real(Double(after.cpuMicroseconds &- before.cpuMicroseconds) / 1e6, 2)
        ))
    }
    if let start = selfAtStart, let end = selfAtEnd {
      let cpu = Double(end.cpuMicroseconds &- start.cpuMicroseconds)
      out.append(("loadgen_cpu_pct", .real(cpu / (window * 1e6) * 100, 1)))
      if let machine = machineCPUMicroseconds {
        // Everything else on the machine (other developers' builds and servers), in % of a core.
        var other = Double(machine) - cpu
        if let serverStart = serverAtStart, let serverEnd = serverAtEnd {
          other -= Double(serverEnd.cpuMicroseconds &- serverStart.cpuMicroseconds)
        }
        out.append(("other_cpu_pct", .real(max(0, other) / (window * 1e6) * 100, 0)))
      }
      if let steal = machineStealMicroseconds {
        // Of that, what the hypervisor gave other machines, in % of a core.
        out.append(("steal_cpu_pct", .real(Double(steal) / (window * 1e6) * 100, 0)))
      }
    }
    return out
  }

  /// A latency percentile in microseconds (0 when nothing was measured).
  private func percentile(_ p: Double) -> Int {
    statistics.latency.totalCount == 0 ? 0 : Int(statistics.latency.valueAtPercentile(p))
  }

  /// One report value.
  public enum Value: Sendable {
    /// A whole number.
    case int(Int)
    /// A number shown with this many decimals.
    case real(Double, Int)
    /// Text without spaces.
    case text(String)
    /// Counts by name (errors by code, closes by code).
    case counts([(String, Int)])

    /// The value as text without spaces (key=value form).
    var compact: String {
      switch self {
      case .int(let i): String(i)
      case .real(let d, let digits): fixed(d, digits)
      case .text(let t): t
      case .counts(let pairs):
        pairs.isEmpty
          ? "-" : pairs.sorted { $0.0 < $1.0 }.map { "\($0.0):\($0.1)" }.joined(separator: ",")
      }
    }

    /// The value as JSON.
    var json: String {
      switch self {
      case .int(let i): String(i)
      case .real(let d, let digits): d.isFinite ? fixed(d, digits) : "null"
      case .text(let t): "\"\(t)\""
      case .counts(let pairs):
        "{" + pairs.sorted { $0.0 < $1.0 }.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
          + "}"
      }
    }
  }

  /// Every field as one `key=value` line, for scripts.
  public var keyValueLine: String {
    fields.map { "\($0.0)=\($0.1.compact)" }.joined(separator: " ")
  }

  /// Every field as one JSON object.
  public var json: String {
    "{" + fields.map { "\"\($0.0)\":\($0.1.json)" }.joined(separator: ",") + "}"
  }

  /// A readable two-column table.
  public var table: String {
    let rows = fields
    let width = rows.map(\.0.count).max() ?? 0
    return rows.map { key, value in
      key + String(repeating: " ", count: width - key.count) + "  " + value.compact
    }.joined(separator: "\n")
  }

  /// One field's value, by key (tests and scripts).
  public func value(_ key: String) -> String? {
    fields.first { $0.0 == key }?.1.compact
  }
}

/// One soak sample: the server's RSS some seconds into the measured window.
public struct RSSSample: Equatable, Sendable {
  /// Seconds since the window opened.
  public var seconds: Double
  /// VmRSS, in KiB.
  public var rssKiB: UInt64

  /// A sample.
  public init(seconds: Double, rssKiB: UInt64) {
    self.seconds = seconds
    self.rssKiB = rssKiB
  }
}

/// `value` with exactly `digits` decimals (no Foundation: LoadKit stays on the standard library).
func fixed(_ value: Double, _ digits: Int) -> String {
  guard value.isFinite else { return "nan" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let scaled = (abs(value) * scale).rounded()
  let whole = Int(scaled / scale)
  let fraction = Int(scaled - Double(whole) * scale)
  let sign = value < 0 && scaled > 0 ? "-" : ""
  guard digits > 0 else { return sign + String(whole) }
  let fractionText = String(fraction)
  return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count)
    + fractionText
}
