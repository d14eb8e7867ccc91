import Foundation
import Testing

@testable import Store

/// Values go to PostgreSQL and come back as they were: text of any kind (quotes, backslashes,
/// braces, commas, the word NULL, the empty text, other scripts), numbers at their edges, in
/// arrays as alone; NULL where a type allows it and an error where it does not; notifications.
@Suite(.timeLimit(.minutes(1))) struct PostgresValueTests {
  /// A connection to a fresh database, or to `location`'s.
  private func connection(to location: PostgresLocation? = nil) throws -> PostgresConnection {
    let connector = PostgresConnector(
      location: try location ?? PostgresCluster.shared.get().newDatabase(), startup: [],
      role: "test", logger: PostgresCluster.quiet)
    return try connector.open()
  }

  static let texts = [
    "", "NULL", "null", "plain", "a \"quoted\" word", #"back\slash"#, #"\""#, "{braces}",
    "a,b", " spaced ", "line\nbreak\ttab", "Ünïcødé ∑ 🂡", "'single'", "$1",
  ]

  @Test func textComesBackAsItWentAloneAndInArrays() throws {
    let connection = try connection()
    for text in Self.texts {
      let back = try connection.query("SELECT \(text)::text", within: .seconds(5))
      #expect(try back.first?.decode(String.self) == text)
    }
    let rows = try connection.query(
      "SELECT t, o FROM unnest(\(Self.texts)) WITH ORDINALITY AS u (t, o) ORDER BY o",
      within: .seconds(5))
    #expect(try rows.map { try $0.decode((String, Int).self).0 } == Self.texts)
    #expect(
      try connection.query("SELECT cardinality(\([String]()))", within: .seconds(5)).first?
        .decode(Int.self) == 0)
  }

  @Test func numbersAndTruthComeBackAsTheyWent() throws {
    let connection = try connection()
    let integers = [0, 1, -1, Int.max, Int.min, 1_000_000_000_001]
    let doubles = [0, 0.1, -2.5, 1e-300, 1.7976931348623157e308, 123_456_789.123_456_79, 1.0 / 3]
    let truths = [true, false]
    for value in integers {
      let row = try connection.query("SELECT \(value)", within: .seconds(5)).first
      #expect(try row?.decode(Int.self) == value)
    }
    for value in doubles {
      let row = try connection.query("SELECT \(value)", within: .seconds(5)).first
      #expect(try row?.decode(Double.self) == value)
    }
    let arrays = try connection.query(
      "SELECT \(integers)::bigint[] = ARRAY[0, 1, -1, 9223372036854775807, -9223372036854775808, 1000000000001]::bigint[], (SELECT array_agg(d) FROM unnest(\(doubles)) d) = \(doubles), \(truths)",
      within: .seconds(5)
    ).first
    let (sameIntegers, sameDoubles, truthText) = try #require(arrays).decode(
      (Bool, Bool, String).self)
    #expect(sameIntegers && sameDoubles)
    #expect(truthText == "{t,f}")
  }

  @Test func nullIsNilWhereAllowedAndAnErrorWhereNot() throws {
    let connection = try connection()
    let missing: String? = nil
    let row = try #require(
      try connection.query("SELECT \(missing), \(Optional(3)), NULL::bigint", within: .seconds(5))
        .first)
    let (text, number, none) = try row.decode((String?, Int?, Int?).self)
    #expect(text == nil && number == 3 && none == nil)
    #expect {
      _ = try row.decode((String, Int).self)
    } throws: { error in
      error is PostgresDecodingError && !PostgresJournalStore.losesConnection(error)
        && "\(error)".contains("NULL")
    }
    #expect(throws: PostgresDecodingError.self) {
      _ = try connection.query("SELECT 'x'", within: .seconds(5)).first?.decode(Int.self)
    }
  }

  @Test func aRefusedStatementSaysWhyAndKeepsTheConnection() throws {
    let connection = try connection()
    #expect {
      _ = try connection.query("SELECT 1/0", within: .seconds(5))
    } throws: { error in
      (error as? PostgresServerError)?.sqlState == "22012"
        && !PostgresJournalStore.losesConnection(error)
        && PostgresJournalStore.reason(error) == "division by zero (SQLSTATE 22012)"
    }
    #expect(!connection.isClosed)
    #expect(try connection.query("SELECT 2", within: .seconds(5)).first?.decode(Int.self) == 2)
  }

  @Test func notificationsArriveInOrderAndAWaitIsBoundedAndCanBeCut() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let listener = try connection(to: location)
    let speaker = try connection(to: location)
    _ = try listener.query("LISTEN test_channel", within: .seconds(5))
    #expect(try listener.notifications(within: .milliseconds(20)).isEmpty)
    _ = try speaker.query(
      "SELECT pg_notify('test_channel', p) FROM unnest(\(["one", "two"])) p", within: .seconds(5))
    var heard: [String] = []
    let patience = ContinuousClock.now + .seconds(10)
    while heard.count < 2 && ContinuousClock.now < patience {
      heard += try listener.notifications(within: .seconds(1))
    }
    #expect(heard == ["one", "two"])
    // A wait cut from another thread ends with the connection lost, not with its limit (which
    // would answer no notifications). The wait runs on a thread of its own: on Swift's shared
    // pool it could sit behind other suites' blocking calls, and so could this test's cut.
    let waited = CutWait()
    let waiter = Thread {
      do {
        _ = try listener.notifications(within: .seconds(30))
      } catch {
        waited.lost = PostgresJournalStore.losesConnection(error)
      }
      waited.ended.signal()
    }
    waiter.start()
    usleep(100_000)
    listener.interrupt()
    waited.ended.wait()
    #expect(waited.lost)
    #expect(listener.isClosed)
  }
}

/// What the cut wait of ``PostgresValueTests`` saw, handed from its thread to the test's.
private final class CutWait: @unchecked Sendable {
  /// Set by the waiting thread before it signals `ended`, read after.
  var lost = false
  let ended = DispatchSemaphore(value: 0)
}
