import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Thread {
  /// A thread that runs `body` under `name`, for Foundation and for the system. On Linux a
  /// `Thread.name` set before the thread starts never reaches the system, and every thread
  /// showed as its process (or a dispatch queue) in `top -H`, `perf` and
  /// `/proc/PID/task/TID/comm`. The thread names itself as it starts, where the kernel keeps
  /// the name (what `pthread_setname_np` does; Swift sees neither it nor the variadic
  /// `prctl`); the system keeps the first 15 bytes, and Foundation reads them back from it.
  public convenience init(named name: String, _ body: @escaping @Sendable () -> Void) {
    self.init {
      #if canImport(Glibc)
        let file = open("/proc/thread-self/comm", O_WRONLY)
        if file >= 0 {
          let bytes = Array(name.utf8.prefix(15))
          _ = write(file, bytes, bytes.count)
          close(file)
        }
      #endif
      body()
    }
    self.name = name
  }
}
