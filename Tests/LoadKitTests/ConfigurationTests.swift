import Model
import Testing

@testable import LoadKit

/// Options, timers and report formatting.
struct ConfigurationTests {
  @Test(arguments: ["127.0.0.1", "127.1.2.3", "localhost"])
  func loopbackHostsAreAccepted(host: String) {
    var configuration = LoadConfiguration()
    configuration.host = host
    #expect(configuration.problem == nil)
  }

  @Test(arguments: [
    "10.0.0.1", "192.168.1.1", "0.0.0.0", "example.com", "::1", "127.0.0", "128.0.0.1",
  ])
  func otherHostsAreRefused(host: String) {
    var configuration = LoadConfiguration()
    configuration.host = host
    #expect(configuration.problem?.contains("loopback") == true)
  }

  @Test func countsConnections() {
    var configuration = LoadConfiguration()
    configuration.tables = 10
    configuration.seats = 4
    configuration.spectators = 2
    #expect(configuration.players == 40)
    #expect(configuration.connections == 60)
  }

  @Test func idleWindowIsTheHold() {
    var configuration = LoadConfiguration()
    configuration.mode = .idle
    configuration.warmup = 5
    configuration.duration = 3
    let idle = Timeline(start: 1_000, configuration: configuration)
    #expect(idle.windowStart == 1_000)
    #expect(idle.windowEnd == 3_000_001_000)
    configuration.mode = .open
    let open = Timeline(start: 1_000, configuration: configuration)
    #expect(open.windowStart == 5_000_001_000)
  }

  @Test func timerHeapPopsInDeadlineOrder() {
    var heap = TimerHeap()
    var random = SplitMix64(seed: 7)
    var deadlines = (0..<200).map { _ in UInt64.random(in: 0..<1000, using: &random) }
    for (index, deadline) in deadlines.enumerated() { heap.push(deadline, index) }
    var popped = [UInt64]()
    while let (deadline, _) = heap.pop() { popped.append(deadline) }
    deadlines.sort()
    #expect(popped == deadlines)
  }

  @Test func aPathStartsWithASlashAndHoldsNoSpaces() {
    var configuration = LoadConfiguration()
    #expect(configuration.path == "/")
    configuration.path = "/ws?node=n2"
    #expect(configuration.problem == nil)
    for bad in ["ws", "/a b", "/\u{7F}", "/" + String(repeating: "x", count: 256)] {
      configuration.path = bad
      #expect(configuration.problem?.contains("--path") == true, "\(bad)")
    }
  }

  @Test func aStormNeedsTheCrowdsOwnLoopsMovesAndItsWindowsInTheRun() {
    var configuration = LoadConfiguration()
    configuration.tables = 1
    configuration.duration = 20
    configuration.spectators = 100
    configuration.storm = .reconnect
    #expect(configuration.problem?.contains("--storm needs") == true)
    configuration.crowdThreads = 1
    #expect(configuration.problem == nil)
    // Its window before it, and after it, in the measured window.
    configuration.stormAt = 4
    #expect(configuration.problem?.contains("--storm-at") == true)
    configuration.stormAt = 16
    #expect(configuration.problem?.contains("--storm-at") == true)
    configuration.stormAt = 15
    #expect(configuration.problem == nil)
    configuration.stormWindow = 0
    #expect(configuration.problem?.contains("--storm-window") == true)
    configuration.stormWindow = 5
    configuration.mode = .idle
    #expect(configuration.problem?.contains("--storm needs moves") == true)
  }

  @Test func stallsAreStaggeredAndFitTheWindow() {
    var configuration = LoadConfiguration()
    configuration.tables = 20
    configuration.duration = 35
    configuration.stallAt = 5
    configuration.stallTables = 16
    configuration.stallEvery = 1.5
    configuration.stallWindow = 5
    #expect(configuration.problem == nil)
    #expect(configuration.stallSecond(ofTable: 0) == 5)
    #expect(configuration.stallSecond(ofTable: 15) == 27.5)
    #expect(configuration.stallSecond(ofTable: 16) == nil)
    // The last stall needs its window after it.
    configuration.duration = 32
    #expect(configuration.problem?.contains("--stall-at") == true)
    configuration.duration = 35
    // The first needs its window before it.
    configuration.stallAt = 4
    #expect(configuration.problem?.contains("--stall-at") == true)
    configuration.stallAt = 5
    configuration.stallTables = 21
    #expect(configuration.problem?.contains("--stall-tables") == true)
    configuration.stallTables = 16
    configuration.seats = 1
    #expect(configuration.problem?.contains("2 seats") == true)
    configuration.seats = 4
    configuration.mode = .idle
    #expect(configuration.problem?.contains("--stall-at") == true)
  }

  @Test func soakSamplingNeedsAServerAndFitsTheWindow() {
    var configuration = LoadConfiguration()
    configuration.duration = 600
    configuration.sampleEvery = 60
    #expect(configuration.problem == "--sample-every needs --server-pid")
    configuration.serverPID = 1
    #expect(configuration.problem == nil)
    configuration.sampleEvery = 601
    #expect(configuration.problem?.contains("--sample-every") == true)
    configuration.sampleEvery = 0
    #expect(configuration.problem?.contains("--sample-every") == true)
    configuration.sampleEvery = 60
    configuration.duration = 86_400
    #expect(configuration.problem == nil)
    configuration.duration = 86_401
    #expect(configuration.problem?.contains("--duration") == true)
  }

  @Test func soakReportGivesGrowthFromTheFirstSample() {
    var configuration = LoadConfiguration()
    configuration.sampleEvery = 60
    let samples = [
      RSSSample(seconds: 60, rssKiB: 40_000), RSSSample(seconds: 120, rssKiB: 41_000),
      RSSSample(seconds: 180, rssKiB: 40_500),
    ]
    let report = LoadReport(
      configuration: configuration, statistics: LoopStatistics(), setupSeconds: 1,
      windowSeconds: 180, serverBefore: nil, serverAtStart: nil,
      serverAtEnd: ProcessSample(cpuMicroseconds: 0, rssKiB: 41_000), serverAfter: nil,
      selfAtStart: nil, selfAtEnd: nil, machineCPUMicroseconds: nil, rssSamples: samples)
    #expect(report.value("rss_samples") == "3")
    #expect(report.value("rss_first_sample_kib") == "40000")
    #expect(report.value("rss_end_kib") == "41000")
    #expect(report.value("rss_max_kib") == "41000")
    #expect(report.value("rss_growth_pct") == "2.50")
    #expect(report.value("rss_series_kib") == "60:40000,120:41000,180:40500")
    // Without samples, no soak fields.
    let plain = LoadReport(
      configuration: configuration, statistics: LoopStatistics(), setupSeconds: 1,
      windowSeconds: 180, serverBefore: nil, serverAtStart: nil, serverAtEnd: nil,
      serverAfter: nil, selfAtStart: nil, selfAtEnd: nil, machineCPUMicroseconds: nil)
    #expect(plain.value("rss_growth_pct") == nil)
  }

  @Test func fixedDecimals() {
    #expect(fixed(1.25, 1) == "1.3")
    #expect(fixed(0.04, 2) == "0.04")
    #expect(fixed(-3.5, 0) == "-4")
    #expect(fixed(12, 2) == "12.00")
  }
}
