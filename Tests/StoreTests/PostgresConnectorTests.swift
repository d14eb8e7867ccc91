import Foundation
import NIOCore
import PostgresNIO
import Testing

@testable import Store

/// A connection the server closed is a failure at once, never a wait: postgres-nio does not
/// answer a query written to a channel that has closed (seen in a failover: a journal write
/// that waited for over a minute, past its 10 s limit, and a node that refused moves all along).
@Suite(.timeLimit(.minutes(1))) struct PostgresConnectorTests {
  /// A connector to a fresh database, and a connection of it that the server has ended (and
  /// whose close postgres-nio has finished).
  private func ended() throws -> (PostgresConnector, PostgresConnection) {
    let connector = PostgresConnector(
      location: try PostgresCluster.shared.get().newDatabase(), startup: [], role: "test",
      logger: PostgresCluster.quiet)
    let connection = try connector.open()
    #expect(throws: (any Error).self) {
      _ = try connector.run("SELECT pg_terminate_backend(pg_backend_pid())", on: connection)
    }
    try connection.closeFuture.wait()
    return (connector, connection)
  }

  @Test func aQueryOnAConnectionTheServerEndedFailsAtOnce() throws {
    let (connector, connection) = try ended()
    let started = ContinuousClock.now
    #expect {
      _ = try connector.run("SELECT 1", on: connection)
    } throws: { PostgresJournalStore.losesConnection($0) }
    #expect {
      _ = try connector.runCommitted("SELECT 1", on: connection)
    } throws: { PostgresJournalStore.losesConnection($0) }
    #expect(ContinuousClock.now - started < .seconds(PostgresConnector.queryTimeout.seconds))
  }

  /// A transaction whose connection ends in the middle: nothing to roll back (the server
  /// did), and no wait for an answer that cannot come.
  @Test func aTransactionWhoseConnectionEndsFailsWithoutWaiting() throws {
    let connector = PostgresConnector(
      location: try PostgresCluster.shared.get().newDatabase(), startup: [], role: "test",
      logger: PostgresCluster.quiet)
    let connection = try connector.open()
    let started = ContinuousClock.now
    #expect {
      try connector.transaction(on: connection) {
        _ = try connector.run("SELECT pg_terminate_backend(pg_backend_pid())", on: connection)
      }
    } throws: { PostgresJournalStore.losesConnection($0) }
    #expect(ContinuousClock.now - started < .seconds(PostgresConnector.queryTimeout.seconds))
  }

  /// The wait for an answer is bounded on the waiting thread, whether or not the answer ever
  /// comes: past the limit it says so, and the connection counts as lost.
  @Test func anAnswerThatNeverComesIsATimeoutNotAHang() throws {
    let loop = PostgresConnection.defaultEventLoopGroup.next()
    let never = loop.makePromise(of: Int.self)
    defer { never.succeed(0) }
    var expired = false
    #expect {
      _ = try PostgresConnector.answer(of: never.futureResult, within: .milliseconds(50)) {
        expired = true
      }
    } throws: { error in
      "\(error)" == "no answer within 50 ms" && PostgresJournalStore.losesConnection(error)
    }
    #expect(expired)
    let answered = loop.makeSucceededFuture(7)
    #expect(try PostgresConnector.answer(of: answered, within: .seconds(1)) {} == 7)
  }
}

extension TimeAmount {
  /// Whole seconds.
  fileprivate var seconds: Int64 { nanoseconds / 1_000_000_000 }
}
