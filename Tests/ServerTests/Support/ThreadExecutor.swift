import Foundation

/// An executor with a thread of its own, for tests that wait on round trips through a real
/// transport (`.ownThread`).
///
/// Swift Testing starts every test of the run at once, so the task pool's queue (two threads on
/// two cores) holds hundreds of tests still to start. A test's task that resumes after a round
/// trip goes to the back of that queue, behind all of them: in a full run on a busy machine it
/// waited there for over two minutes, past the clients' read timeouts and the server's
/// keepalive. A task that prefers this executor resumes on its thread at once.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
  /// The executor of the test running now (`.ownThread`), for the unstructured tasks it starts
  /// (`Task(executorPreference:)`), which do not inherit its preference.
  @TaskLocal static var current: ThreadExecutor?

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var stopped = false
  private var running = false

  init() {
    running = true
    let thread = Thread { [self] in runJobs() }
    thread.name = "test executor"
    thread.start()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    if running {
      jobs.append(job)
      condition.signal()
      condition.unlock()
      return
    }
    condition.unlock()
    // A task that outlived its test: it runs on a thread of its own.
    let executor = asUnownedTaskExecutor()
    Thread { job.runSynchronously(on: executor) }.start()
  }

  /// Lets the thread end once it has run every job queued so far.
  func stop() {
    condition.lock()
    stopped = true
    condition.signal()
    condition.unlock()
  }

  private func runJobs() {
    let executor = asUnownedTaskExecutor()
    while true {
      condition.lock()
      while jobs.isEmpty && !stopped { condition.wait() }
      if jobs.isEmpty {
        running = false
        condition.unlock()
        return
      }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: executor)
    }
  }
}
