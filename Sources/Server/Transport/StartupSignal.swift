import Dispatch
import Synchronization

/// Hands the outcome of context creation from the service thread to the caller of `start()`.
final class StartupSignal: Sendable {
  private let result = Mutex<Result<Int, TransportError>?>(nil)
  private let semaphore = DispatchSemaphore(value: 0)

  /// An outcome not reported yet.
  init() {}

  /// Service thread: the listening port, or why the context could not be created.
  func report(_ outcome: Result<Int, TransportError>) {
    result.withLock { $0 = outcome }
    semaphore.signal()
  }

  /// Caller of `start()`: blocks until `report` was called.
  func wait() -> Result<Int, TransportError> {
    semaphore.wait()
    return result.withLock { $0! }
  }
}
