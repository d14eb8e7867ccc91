import Synchronization

/// How many session tokens a run's entropy handed out (shared with its `token` closure).
final class Counter: Sendable {
  let count = Mutex(0)
}
