#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Seconds from a monotonic clock (`CLOCK_MONOTONIC`), as a `Double` for `TokenBucket`.
enum MonotonicClock {
  /// Seconds since an arbitrary fixed point; never goes backwards.
  static func now() -> Double { seconds(of: CLOCK_MONOTONIC) }

  /// Seconds of CPU the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`): what its work cost,
  /// without the time it waited for a core.
  static func threadCPU() -> Double { seconds(of: CLOCK_THREAD_CPUTIME_ID) }

  private static func seconds(of clock: clockid_t) -> Double {
    var spec = timespec()
    clock_gettime(clock, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
  }
}
