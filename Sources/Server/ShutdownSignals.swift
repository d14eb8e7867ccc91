import Dispatch
import Foundation

/// SIGTERM and SIGINT, trapped from ``trap(_:)`` on: each one that comes is kept until
/// ``next()`` reads it, so a signal sent before the server is ready to stop is not lost.
///
/// Dispatch's signal sources catch them (libwebsockets leaves signals alone, see
/// `LWSCallbacks`); ``trap(_:)`` returns once every source is registered with the kernel.
final class ShutdownSignals: @unchecked Sendable {
  /// The signals' sources, kept for as long as the trap is.
  private let sources: [any DispatchSourceSignal]
  private let caught: AsyncStream<Int32>
  private var iterator: AsyncStream<Int32>.Iterator

  private init(sources: [any DispatchSourceSignal], caught: AsyncStream<Int32>) {
    self.sources = sources
    self.caught = caught
    iterator = caught.makeAsyncIterator()
  }

  deinit {
    for source in sources { source.cancel() }
  }

  /// Traps `signals` (their default action, ending the process, no longer applies).
  static func trap(_ signals: [Int32]) async -> ShutdownSignals {
    let queue = DispatchQueue(label: "shutdown-signals")
    let (caught, continuation) = AsyncStream.makeStream(of: Int32.self)
    let sources = signals.map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
    for (source, signal) in zip(sources, signals) {
      source.setEventHandler { continuation.yield(signal) }
      await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
        source.setRegistrationHandler { registered.resume() }
        source.resume()
      }
    }
    return ShutdownSignals(sources: sources, caught: caught)
  }

  /// The next signal caught (waiting for one), or nil when the task is cancelled. One reader.
  func next() async -> Int32? {
    await iterator.next()
  }

  /// A signal's name: "SIGTERM", "SIGINT", else "signal N".
  static func name(of signal: Int32) -> String {
    switch signal {
    case SIGTERM: "SIGTERM"
    case SIGINT: "SIGINT"
    default: "signal \(signal)"
    }
  }
}
