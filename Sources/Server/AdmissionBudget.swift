import Synchronization

/// How much one pass decides besides moves (``Admission``): one admission's own, or one shared
/// by the sharded lobby's executors, spent by any of their threads and refilled by the
/// transport's service thread at the end of each of its passes.
///
/// A budget belongs to its pass: what an admission takes is counted against the pass it began
/// in (``Admission/begin()``), and once another pass has begun, nothing more is given to it. So
/// an executor that goes on deciding while the service thread runs pass after pass still
/// decides at most one budget's worth before it looks again (it starts a new run for the new
/// pass), and never a storm's thousands at one go.
final class AdmissionBudget: Sendable {
  /// Messages other than moves decided in one pass.
  static let perPass = 32

  /// The current pass, and what is left of its budget.
  private let state = Mutex<(pass: UInt64, left: Int)>((0, AdmissionBudget.perPass))

  /// The current pass.
  var pass: UInt64 { state.withLock { $0.pass } }

  /// Takes one decision from the budget of `pass`; false when it is spent or another pass has
  /// begun.
  func take(in pass: UInt64) -> Bool {
    state.withLock { state in
      guard state.pass == pass, state.left > 0 else { return false }
      state.left -= 1
      return true
    }
  }

  /// A new pass with the whole budget.
  func refill() {
    state.withLock { state in
      state.pass &+= 1
      state.left = Self.perPass
    }
  }
}
