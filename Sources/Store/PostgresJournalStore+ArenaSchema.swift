extension PostgresJournalStore {
  /// Version 10 of the schema: arenas (``Arena``), each one row holding it whole as JSON,
  /// replaced at each change, with the node that holds it (`owner`). One that is over keeps its
  /// final standings; a node reads back its own arenas not over and the latest over.
  static let arenaMigration = Migration(
    version: 10, name: "arenas",
    statements: [
      """
      CREATE TABLE arena (
        id TEXT PRIMARY KEY,
        owner TEXT,
        closed BOOLEAN NOT NULL,
        ends DOUBLE PRECISION NOT NULL,
        record TEXT NOT NULL
      )
      """,
      "CREATE INDEX arena_by_end ON arena (closed, ends)",
    ])
}
