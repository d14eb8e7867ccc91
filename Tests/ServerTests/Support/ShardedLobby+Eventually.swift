import Foundation
import Testing

@testable import Server

extension ShardedLobby {
  /// Waits (bounded) until `done` holds, ending a pass of the transport's loop every 20 ms as
  /// the service thread would (what waits in the executors' admissions goes on), without
  /// holding a thread of the test pool (two on this machine, which the transport tests'
  /// consumers need too).
  func eventually(_ what: Comment, _ done: () -> Bool) async throws {
    let limit = Date(timeIntervalSinceNow: 60)
    while !done() {
      try #require(Date() < limit, what)
      passEnded()
      try await Task.sleep(for: .milliseconds(20))
    }
  }
}
