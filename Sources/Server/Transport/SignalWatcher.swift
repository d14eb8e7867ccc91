import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Turns SIGINT and SIGTERM (or other signals) into a callback, so the application can call
/// `WebSocketTransport.shutdown()` instead of being killed.
///
/// Each signal's default action is replaced by "ignore", and a `DispatchSourceSignal` reports
/// it. libwebsockets does not watch any signal (the transport gives lws its own libev loop, so
/// lws never installs its SIGINT watcher). `cancel()` restores the default actions.
///
/// ```swift
/// let watcher = SignalWatcher { signal in
///   Task { await transport.shutdown() }
/// }
/// ```
final class SignalWatcher: Sendable {
  /// The signals being watched.
  let signals: [Int32]

  private let sources: Mutex<[any DispatchSourceSignal]>

  /// Starts watching `signals`; `handler` runs on `queue` once per delivered signal.
  ///
  /// Returns once the sources are armed (Dispatch registers them asynchronously; a signal
  /// arriving before that would be ignored), or after one second at most.
  init(
    signals: [Int32] = [SIGINT, SIGTERM], queue: DispatchQueue = .global(),
    handler: @escaping @Sendable (Int32) -> Void
  ) {
    self.signals = signals
    let armed = DispatchGroup()
    let sources = signals.map { number in
      // Ignore first, so a signal that arrives before the source is armed does no harm.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { handler(number) }
      armed.enter()
      source.setRegistrationHandler { armed.leave() }
      source.resume()
      return source
    }
    _ = armed.wait(timeout: .now() + 1)
    self.sources = Mutex(sources)
  }

  /// A watcher plus an `AsyncStream` of the signals it sees.
  static func stream(signals: [Int32] = [SIGINT, SIGTERM]) -> (
    watcher: SignalWatcher, signals: AsyncStream<Int32>
  ) {
    let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
    let watcher = SignalWatcher(signals: signals) { continuation.yield($0) }
    return (watcher, stream)
  }

  /// Stops watching and restores each signal's default action.
  func cancel() {
    sources.withLock { sources in
      for source in sources { source.cancel() }
    }
    for number in signals { signal(number, SIG_DFL) }
  }
}
