import Synchronization

extension PostgresJournalStore {
  /// Runs `body` on the journal's connection (``PostgresConnector/perform(_:_:)``).
  func perform<T>(_ failure: String, _ body: (PostgresConnection) throws -> T) throws -> T {
    try connector.perform(failure, body)
  }

  /// Runs `query` and waits for all its rows (``PostgresConnector/run(_:on:)``).
  func run(_ query: PostgresQuery, on connection: PostgresConnection) throws
    -> [PostgresRow]
  {
    try connector.run(query, on: connection)
  }

  /// Runs `body` in a transaction (``PostgresConnector/transaction(on:_:)``).
  func transaction<T>(
    on connection: PostgresConnection, synchronous: Bool = true, _ body: () throws -> T
  ) throws -> T {
    try connector.transaction(on: connection, synchronous: synchronous, body)
  }

  /// After each write: how many times the journal's connection went to another server.
  public func upkeep() throws -> JournalUpkeep {
    JournalUpkeep(serverSwitches: connector.switches.load(ordering: .relaxed))
  }

  // MARK: - For tests

  /// The value of the setting `name` on the store's connection (for tests).
  func setting(_ name: String) throws -> String {
    try perform("cannot read \(name)") { connection in
      try run("SELECT current_setting(\(name))", on: connection).first?.decode(String.self) ?? ""
    }
  }

  /// How many table rows and move rows the database holds (for tests).
  func rowCounts() throws -> (tables: Int, moves: Int) {
    try perform("cannot count rows") { connection in
      try run(
        "SELECT (SELECT COUNT(*) FROM game_table), (SELECT COUNT(*) FROM move)", on: connection
      ).first?.decode((Int, Int).self) ?? (0, 0)
    }
  }

  /// Runs `sql` as it is (for tests).
  func execute(_ sql: String) throws {
    try perform("cannot run \(sql)") { connection in
      _ = try run(PostgresQuery(unsafeSQL: sql), on: connection)
    }
  }
}
