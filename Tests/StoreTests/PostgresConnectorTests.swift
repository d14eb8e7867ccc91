import Foundation
import Testing

@testable import Store

/// A connection the server closed is a failure at once, never a wait (seen with an earlier
/// client library in a failover: a journal write that waited for over a minute, past its 10 s
/// limit, and a node that refused moves all along); an answer that does not come is a timeout.
@Suite(.timeLimit(.minutes(1))) struct PostgresConnectorTests {
  /// A connector to a fresh database, and a connection of it that the server has ended.
  private func ended() throws -> (PostgresConnector, PostgresConnection) {
    let connector = PostgresConnector(
      location: try PostgresCluster.shared.get().newDatabase(), startup: [], role: "test",
      logger: PostgresCluster.quiet)
    let connection = try connector.open()
    #expect(throws: (any Error).self) {
      _ = try connector.run("SELECT pg_terminate_backend(pg_backend_pid())", on: connection)
    }
    #expect(connection.isClosed)
    return (connector, connection)
  }

  @Test func aQueryOnAConnectionTheServerEndedFailsAtOnce() throws {
    let (connector, connection) = try ended()
    // Lost at once: a wait for the answer would end as a timeout instead.
    #expect {
      _ = try connector.run("SELECT 1", on: connection)
    } throws: { PostgresJournalStore.losesConnection($0) && !($0 is QueryTimedOut) }
    #expect {
      _ = try connector.runCommitted("SELECT 1", on: connection)
    } throws: { PostgresJournalStore.losesConnection($0) && !($0 is QueryTimedOut) }
  }

  /// A transaction whose connection ends in the middle: nothing to roll back (the server
  /// did), and no wait for an answer that cannot come.
  @Test func aTransactionWhoseConnectionEndsFailsWithoutWaiting() throws {
    let connector = PostgresConnector(
      location: try PostgresCluster.shared.get().newDatabase(), startup: [], role: "test",
      logger: PostgresCluster.quiet)
    let connection = try connector.open()
    #expect {
      try connector.transaction(on: connection) {
        _ = try connector.run("SELECT pg_terminate_backend(pg_backend_pid())", on: connection)
      }
    } throws: { PostgresJournalStore.losesConnection($0) && !($0 is QueryTimedOut) }
  }

  /// The wait for an answer is bounded: past the limit it says so, the connection is closed,
  /// and the error counts as a lost connection.
  @Test func anAnswerThatDoesNotComeInTimeIsATimeoutNotAHang() throws {
    let connector = PostgresConnector(
      location: try PostgresCluster.shared.get().newDatabase(), startup: [], role: "test",
      logger: PostgresCluster.quiet)
    let connection = try connector.open()
    #expect(try connection.query("SELECT 7", within: .seconds(5)).first?.decode(Int.self) == 7)
    // The error names the 50 ms limit: the query did not run its 30 s.
    #expect {
      _ = try connection.query("SELECT pg_sleep(30)", within: .milliseconds(50))
    } throws: { error in
      "\(error)" == "no answer within 50 ms" && PostgresJournalStore.losesConnection(error)
    }
    #expect(connection.isClosed)
    #expect(throws: ConnectionClosed.self) {
      _ = try connection.query("SELECT 1", within: .seconds(1))
    }
  }

  /// A server that does not answer at all (a port that accepts and says nothing, as a frozen
  /// server's does): the connection's start is bounded by the location's connect timeout.
  @Test func aServerThatSaysNothingIsATimeoutAtConnect() throws {
    let silent = try SilentListener()
    #expect {
      _ = try PostgresConnection.connect(
        host: "127.0.0.1", port: silent.port, user: "nobody", password: nil, database: "none",
        applicationName: "test", settings: [], within: .milliseconds(300))
    } throws: { error in
      "\(error)" == "Connect timeout (300 ms)" && PostgresJournalStore.losesConnection(error)
    }
  }
}
