import Glibc

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC): the only clock used for latency and windows,
/// so a wall-clock step cannot bend a measurement.
public func monotonicNanoseconds() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Sleeps until the monotonic clock reads `deadline` (returns at once if it has passed).
func sleep(until deadline: UInt64) {
  while true {
    let now = monotonicNanoseconds()
    guard now < deadline else { return }
    let left = deadline - now
    var ts = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
    _ = nanosleep(&ts, nil)
  }
}

/// CPU time and resident memory of a process, read from /proc.
public struct ProcessSample: Equatable, Sendable {
  /// utime + stime, in microseconds.
  public var cpuMicroseconds: UInt64
  /// VmRSS, in KiB.
  public var rssKiB: UInt64
}

/// Reads /proc/PID/stat and /proc/PID/status.
public enum ProcSampler {
  /// A sample of process `pid` (`nil` for this process), or nil when it cannot be read.
  public static func sample(pid: Int32?) -> ProcessSample? {
    let base = pid.map { "/proc/\($0)" } ?? "/proc/self"
    guard let stat = readFile(base + "/stat"), let status = readFile(base + "/status") else {
      return nil
    }
    // The command name in field 2 may hold spaces and parentheses: fields are counted from the
    // last ')'. utime and stime are fields 14 and 15, i.e. 12 and 13 after the state field.
    guard let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let utime = UInt64(fields[11]), let stime = UInt64(fields[12]) else {
      return nil
    }
    let ticks = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
    var rss: UInt64 = 0
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      rss = UInt64(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }
    return ProcessSample(cpuMicroseconds: (utime + stime) * 1_000_000 / ticks, rssKiB: rss)
  }

  /// CPU time the whole machine has used so far, in microseconds: busy and steal, as
  /// ``machineCPU(statLine:ticksPerSecond:)`` reads them.
  public static func machineCPU() -> (busy: UInt64, steal: UInt64)? {
    guard let stat = readFile("/proc/stat"), let line = stat.split(separator: "\n").first else {
      return nil
    }
    return machineCPU(statLine: line, ticksPerSecond: UInt64(max(1, sysconf(Int32(_SC_CLK_TCK)))))
  }

  /// From /proc/stat's first line, in microseconds: `busy`, the time every process used (user,
  /// nice, system, irq, softirq, steal: with the server's and our own share it tells how much
  /// other work disturbed a run), and of it `steal`, the time a virtual machine's hypervisor
  /// gave to others while this machine had work (on the project's shared machines most of what
  /// disturbs a run: docs/BENCHMARKS.md, "Storms pooled over many runs").
  static func machineCPU(statLine line: Substring, ticksPerSecond: UInt64) -> (
    busy: UInt64, steal: UInt64
  )? {
    let fields = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
    guard fields.count >= 8, ticksPerSecond > 0 else { return nil }
    let busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]
    return (busy * 1_000_000 / ticksPerSecond, fields[7] * 1_000_000 / ticksPerSecond)
  }

  /// A whole small file as text.
  static func readFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n <= 0 { break }
      bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A started POSIX thread running a closure once.
final class WorkerThread: Sendable {
  /// The thread handle, for joining.
  private let handle: pthread_t

  /// Starts `body` on a new thread.
  init(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(ClosureBox(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { raw in
        let box = Unmanaged<ClosureBox>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
      }, box)
    precondition(result == 0, "pthread_create failed: \(result)")
    handle = thread
  }

  /// Waits for the thread to finish.
  func join() { pthread_join(handle, nil) }
}

/// Carries a closure through pthread_create's `void *` argument.
private final class ClosureBox: Sendable {
  /// The closure to run.
  let body: @Sendable () -> Void
  /// A box for `body`.
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
