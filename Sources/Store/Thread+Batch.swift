import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Thread {
  /// Puts the calling thread under Linux's batch policy (`SCHED_BATCH`): it gets its fair share
  /// of the CPU as before, but when it wakes it does not take the core from the thread running
  /// there; it runs on a free core, or when that thread sleeps or its slice ends. Returns
  /// whether the system took it (elsewhere: false, nothing changed).
  ///
  /// For the journal's writer, which wakes one to three thousand times a second in fast play:
  /// its wakes took the core from the service thread (7,000-13,000 involuntary switches of the
  /// service thread in 8 s, against 140-310 without the journal, 480-640 with a batch writer),
  /// which stopped mid-pass while the writer committed (docs/BENCHMARKS.md).
  @discardableResult
  public static func becomeBatch() -> Bool {
    #if os(Linux)
      var parameters = sched_param()
      return sched_setscheduler(0, batchPolicy, &parameters) == 0
    #else
      return false
    #endif
  }

  /// Gives the calling thread's core to another thread waiting for it, if any
  /// (`sched_yield`); returns at once otherwise. For the service thread, once a pass of its
  /// loop has woken the journal's writer (``becomeBatch()``) on a core they share.
  public static func yieldCore() {
    #if os(Linux)
      sched_yield()
    #endif
  }

  /// Linux's `SCHED_BATCH` (3 in its ABI; Glibc's module shows it only to GNU sources).
  static let batchPolicy: Int32 = 3
}
