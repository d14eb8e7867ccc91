import CLoadSystem
import Glibc

/// Runs a whole load scenario: starts the event loops, fixes the shared timeline once they have
/// seated their tables, samples the server and itself at the window's edges, and reports.
public enum LoadRunner {
  /// Runs `configuration` (which must have no ``LoadConfiguration/problem``) and reports.
  /// `progress` hears a line at each phase, for a person watching.
  public static func run(
    _ configuration: LoadConfiguration, progress: (String) -> Void = { _ in }
  ) -> LoadReport {
    precondition(configuration.problem == nil, configuration.problem ?? "")
    // A server that closes while a frame is being written must not kill the load generator.
    signal(SIGPIPE, SIG_IGN)
    raiseFileLimit()

    let serverBefore = configuration.serverPID.flatMap { ProcSampler.sample(pid: $0) }
    let coordinator = Coordinator()
    let threads = min(configuration.threads, configuration.tables)
    let runStart = monotonicNanoseconds()
    var workers = [WorkerThread]()
    for thread in 0..<threads {
      let tableNumbers = Array(stride(from: thread, to: configuration.tables, by: threads))
      let seed = UInt64(thread) &* 0x9E37_79B9 &+ runStart
      workers.append(
        WorkerThread {
          let loop = EventLoop(
            configuration: configuration, coordinator: coordinator, tableNumbers: tableNumbers,
            seed: seed)
          coordinator.finish(loop.run())
        })
    }
    // The crowd's loops: every table's spectators dealt out over them.
    for index in 0..<configuration.crowdThreads {
      let seed = UInt64(threads + index) &* 0x9E37_79B9 &+ runStart
      workers.append(
        WorkerThread {
          if configuration.crowdNice > 0 {
            _ = load_nice_this_thread(Int32(configuration.crowdNice))
          }
          let loop = EventLoop(
            configuration: configuration, coordinator: coordinator,
            tableNumbers: Array(0..<configuration.tables), seed: seed,
            crowd: (index, configuration.crowdThreads))
          coordinator.finish(loop.run())
        })
    }
    let loops = threads + configuration.crowdThreads

    progress(
      "connecting \(configuration.connections) connections at \(configuration.tables) tables")
    let setupDeadline = runStart + UInt64((configuration.setupTimeout + 1) * 1e9)
    while coordinator.readyLoops < loops && monotonicNanoseconds() < setupDeadline {
      sleep(until: monotonicNanoseconds() + 10_000_000)
    }
    let setupSeconds = Double(monotonicNanoseconds() - runStart) / 1e9
    // A short lead so that every loop has seen the timeline before its first deadline.
    let timeline = Timeline(
      start: monotonicNanoseconds() + 50_000_000, configuration: configuration)
    coordinator.begin(timeline)
    progress(
      "\(coordinator.readyLoops)/\(loops) loops seated in \(fixed(setupSeconds, 1)) s; load for "
        + "\(fixed(Double(timeline.windowEnd - timeline.start) / 1e9, 1)) s")

    sleep(until: timeline.windowStart)
    let serverAtStart = configuration.serverPID.flatMap { ProcSampler.sample(pid: $0) }
    let selfAtStart = ProcSampler.sample(pid: nil)
    let machineAtStart = ProcSampler.machineCPU()
    let rssSamples = sampleServer(configuration, timeline: timeline, progress: progress)
    sleep(until: timeline.windowEnd)
    let machineAtEnd = ProcSampler.machineCPU()
    let serverAtEnd = configuration.serverPID.flatMap { ProcSampler.sample(pid: $0) }
    let selfAtEnd = ProcSampler.sample(pid: nil)
    let windowSeconds = Double(timeline.windowEnd - timeline.windowStart) / 1e9
    progress("window over; draining and closing")

    for worker in workers { worker.join() }
    var statistics = LoopStatistics()
    for result in coordinator.results { statistics.merge(result) }
    let serverAfter = configuration.serverPID.flatMap { ProcSampler.sample(pid: $0) }
    let machine = machineAtStart.flatMap { start in
      machineAtEnd.map { (busy: $0.busy &- start.busy, steal: $0.steal &- start.steal) }
    }

    return LoadReport(
      configuration: configuration, statistics: statistics, setupSeconds: setupSeconds,
      windowSeconds: windowSeconds, serverBefore: serverBefore, serverAtStart: serverAtStart,
      serverAtEnd: serverAtEnd, serverAfter: serverAfter, selfAtStart: selfAtStart,
      selfAtEnd: selfAtEnd,
      machineCPUMicroseconds: machine?.busy, rssSamples: rssSamples,
      machineStealMicroseconds: machine?.steal)
  }

  /// Soak sampling: reads the server's RSS every ``LoadConfiguration/sampleEvery`` seconds from
  /// the window's start until its end (at most duration ÷ interval samples), telling `progress`
  /// each one. Empty when sampling is off or there is no server to read.
  static func sampleServer(
    _ configuration: LoadConfiguration, timeline: Timeline, progress: (String) -> Void
  ) -> [RSSSample] {
    guard let every = configuration.sampleEvery, every > 0, let pid = configuration.serverPID
    else { return [] }
    let step = UInt64(every * 1e9)
    let count = Int((timeline.windowEnd - timeline.windowStart) / max(1, step))
    guard count >= 1 else { return [] }
    var samples: [RSSSample] = []
    samples.reserveCapacity(count)
    for k in 1...count {
      let at = timeline.windowStart + UInt64(k) * step
      sleep(until: at)
      guard let sample = ProcSampler.sample(pid: pid) else { continue }
      let seconds = Double(at - timeline.windowStart) / 1e9
      samples.append(RSSSample(seconds: seconds, rssKiB: sample.rssKiB))
      progress("t=\(fixed(seconds, 0)) s: server RSS \(sample.rssKiB) KiB")
    }
    return samples
  }

  /// Raises this process's open-file limit to its hard limit: every connection is a descriptor.
  static func raiseFileLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  }
}
