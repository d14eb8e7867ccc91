import CWebSockets
import Logging
import Synchronization

/// Routes libwebsockets' own log lines into swift-log.
///
/// lws has one process-wide log setting; the last transport to call `install` receives the
/// lines. Errors and warnings are always on; lws "notice" lines (chatty: with libev it logs
/// every socket watcher change) are only enabled when the logger is at `.debug` or finer.
/// Clients can make lws log (a refused upgrade is an lws warning, a malformed one an error), so
/// lines pass a token bucket; what it holds back is counted in the next line that passes.
enum LWSLogBridge {
  private struct Target {
    var logger: Logger?
    var lastError = ""
    var budget = TokenBucket(capacity: 50, refillPerSecond: 2, now: MonotonicClock.now())
    var suppressed = 0
  }

  private static let target = Mutex(Target())

  /// Sends lws log lines to `logger` from now on.
  static func install(_ logger: Logger) {
    target.withLock { $0.logger = logger }
    var levels = LLL_ERR | LLL_WARN
    if logger.logLevel <= .debug { levels |= LLL_NOTICE }
    lws_set_log_level(levels, lwsLogEmit)
  }

  /// The most recent lws error line (used to explain a failed context creation).
  static var lastError: String { target.withLock { $0.lastError } }

  /// Forgets the most recent error line.
  static func clearLastError() {
    target.withLock { $0.lastError = "" }
  }

  fileprivate static func emit(level: Int32, line: String) {
    let (logger, suppressed): (Logger?, Int) = target.withLock { target in
      if level & LLL_ERR != 0 { target.lastError = line }
      guard target.budget.take(now: MonotonicClock.now()) else {
        target.suppressed += 1
        return (nil, 0)
      }
      defer { target.suppressed = 0 }
      return (target.logger, target.suppressed)
    }
    guard let logger else { return }
    let swiftLevel: Logger.Level
    if level & LLL_ERR != 0 {
      swiftLevel = .error
    } else if level & LLL_WARN != 0 {
      swiftLevel = .warning
    } else {
      swiftLevel = .debug
    }
    var metadata: Logger.Metadata = ["source": "libwebsockets"]
    if suppressed > 0 { metadata["suppressedLines"] = "\(suppressed)" }
    logger.log(level: swiftLevel, "\(line)", metadata: metadata)
  }
}

/// lws log sink (C calling convention). `line` ends with a newline.
private func lwsLogEmit(_ level: Int32, _ line: UnsafePointer<CChar>?) {
  guard let line else { return }
  var text = String(cString: line)
  while let last = text.last, last.isNewline || last == " " { text.removeLast() }
  LWSLogBridge.emit(level: level, line: text)
}
