import Testing

/// Runs each test on a thread of its own (``ThreadExecutor``) rather than in the task pool, so
/// that what it awaits resumes at once however many tests wait in the pool's queue; and fails a
/// test whose body takes more than `limitSeconds` there (a hang guard: unlike `.timeLimit`, the
/// wait in the pool's queue before the body starts does not count).
struct OwnThread: TestTrait, SuiteTrait, TestScoping {
  var limitSeconds: Double = 120

  var isRecursive: Bool { true }

  func provideScope(
    for test: Test, testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite's own scope holds nothing: each of its tests gets a thread.
    guard testCase != nil else { return try await function() }
    let executor = ThreadExecutor()
    defer { executor.stop() }
    let limit = limitSeconds
    try await ThreadExecutor.$current.withValue(executor) {
      try await withTaskExecutorPreference(executor) {
        // The body ends before the group does: it does not really escape.
        try await withoutActuallyEscaping(function) { body in
          try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
              try await body()
              return true
            }
            group.addTask {
              try await Task.sleep(for: .seconds(limit))
              return false
            }
            let finished = try await group.next() ?? true
            group.cancelAll()
            if !finished { Issue.record("the test ran for over \(limit) s on its thread") }
          }
        }
      }
    }
  }
}

extension Trait where Self == OwnThread {
  /// Each test on a thread of its own (``ThreadExecutor``), for at most two minutes.
  static var ownThread: Self { OwnThread() }
}
