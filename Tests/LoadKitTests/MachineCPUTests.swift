import Testing

@testable import LoadKit

/// The machine's CPU time from /proc/stat, and what the report makes of it.
struct MachineCPUTests {
  @Test func busyAndStealComeFromTheFirstLine() throws {
    let line: Substring = "cpu  2235265 116144 656298 8510300 12826 0 180781 150198 0 0"
    let cpu = try #require(ProcSampler.machineCPU(statLine: line, ticksPerSecond: 100))
    // user + nice + system + irq + softirq + steal; idle and iowait are not busy.
    #expect(cpu.busy == (2_235_265 + 116_144 + 656_298 + 0 + 180_781 + 150_198) * 10_000)
    #expect(cpu.steal == 150_198 * 10_000)
    #expect(ProcSampler.machineCPU(statLine: "cpu  1 2 3", ticksPerSecond: 100) == nil)
  }

  @Test func theReportGivesStealInPercentOfACore() {
    let report = LoadReport(
      configuration: LoadConfiguration(), statistics: LoopStatistics(), setupSeconds: 1,
      windowSeconds: 20, serverBefore: nil, serverAtStart: nil, serverAtEnd: nil,
      serverAfter: nil, selfAtStart: ProcessSample(cpuMicroseconds: 0, rssKiB: 0),
      selfAtEnd: ProcessSample(cpuMicroseconds: 4_000_000, rssKiB: 0),
      machineCPUMicroseconds: 10_000_000, machineStealMicroseconds: 3_000_000)
    #expect(report.value("loadgen_cpu_pct") == "20.0")
    #expect(report.value("other_cpu_pct") == "30")
    #expect(report.value("steal_cpu_pct") == "15")
    let unknown = LoadReport(
      configuration: LoadConfiguration(), statistics: LoopStatistics(), setupSeconds: 1,
      windowSeconds: 20, serverBefore: nil, serverAtStart: nil, serverAtEnd: nil,
      serverAfter: nil, selfAtStart: ProcessSample(cpuMicroseconds: 0, rssKiB: 0),
      selfAtEnd: ProcessSample(cpuMicroseconds: 4_000_000, rssKiB: 0),
      machineCPUMicroseconds: 10_000_000)
    #expect(unknown.value("steal_cpu_pct") == nil)
  }
}
