#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Seconds from a monotonic clock (`CLOCK_MONOTONIC`), as a `Double` for `TokenBucket`.
enum MonotonicClock {
  /// Seconds since an arbitrary fixed point; never goes backwards.
  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
  }

  /// Seconds of CPU the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`): what its work cost,
  /// without the time it waited for a core.
  static func threadCPU() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
  }
}
