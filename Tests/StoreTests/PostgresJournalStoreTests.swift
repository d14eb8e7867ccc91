import Foundation
import Lobby
import Model
import Protocol
import Synchronization
import Testing

@testable import Store

/// What only the PostgreSQL store has: URLs, a server that goes away and comes back, leases
/// between servers that share a database, table numbers that never meet, durability settings,
/// the schema's version. (Everything the stores share is in ``JournalStoreTests``.)
@Suite struct PostgresJournalStoreTests {
  @Test func aURLNamesTheServerTheUserAndTheDatabase() throws {
    let location = try PostgresLocation(url: "postgres://ada:s%40cret@db.example:6543/games")
    #expect(location.host == "db.example" && location.port == 6543)
    #expect(location.username == "ada" && location.password == "s@cret")
    #expect(location.database == "games")
    // Logs never show the password.
    #expect("\(location)" == "postgres://ada@db.example:6543/games")
    let plain = try PostgresLocation(url: "postgresql://ada@127.0.0.1/games")
    #expect(plain.port == 5432 && plain.password == nil)
  }

  /// A highly available database's URL, as libpq reads it: several servers, the one that
  /// accepts writes kept.
  @Test func aURLNamesSeveralServersAndWhichToKeep() throws {
    let location = try PostgresLocation(
      url:
        "postgres://ada@10.0.0.1:5433,[::1]:5434,db.example/games?target_session_attrs=read-write&sslmode=prefer&connect_timeout=2"
    )
    #expect(
      location.servers.map(\.description) == ["10.0.0.1:5433", "[::1]:5434", "db.example:5432"])
    #expect(location.target == .readWrite && location.connectTimeout == 2)
    #expect(
      "\(location)"
        == "postgres://ada@10.0.0.1:5433,[::1]:5434,db.example:5432/games?target_session_attrs=read-write"
    )
    // With several servers a connection keeps a writable one unless told otherwise.
    let list = try PostgresLocation(url: "postgres://ada@h1:1,h2:2/games")
    #expect(list.target == .readWrite)
    let any = try PostgresLocation(url: "postgres://ada@h1:1,h2:2/games?target_session_attrs=any")
    #expect(any.target == .any && any.connectTimeout == 5)
    #expect(try PostgresLocation(url: "postgres://ada@h1/games").target == .any)
  }

  @Test(arguments: [
    ("postgres://ada@h1:5432,,h2:5432/games", "an empty host in the list"),
    ("postgres://ada@h1:5432,h2:port/games", "'h2:port': the port must be"),
    ("postgres://ada@h1:5432,[::1/games", "closing ']'"),
    ("postgres://ada@h1,h2/games?target_session_attrs=primary", "unknown target_session_attrs"),
    ("postgres://ada@h1,h2/games?target_session_attrs=", "unknown target_session_attrs"),
    ("postgres://ada@h1/games?connect_timeout=0", "connect_timeout"),
    ("postgres://ada@h1/games?application_name=x", "'application_name' is not supported"),
  ])
  func aBadServerListIsRefusedNamingThePart(url: String, problem: String) {
    #expect {
      _ = try PostgresLocation(url: url)
    } throws: { error in
      "\(error)".contains(problem)
    }
  }

  @Test(arguments: [
    ("mysql://ada@host/games", "scheme"),
    ("postgres:///games", "host"),
    ("postgres://host/games", "user"),
    ("postgres://ada@host", "database"),
    ("postgres://ada@host/", "database"),
    ("postgres://ada@host:0/games", "port"),
    ("postgres://ada@host/games?sslmode=require", "not supported"),
    ("not a url at all", "postgres://"),
  ])
  func aBadURLIsRefusedSayingWhy(url: String, problem: String) {
    #expect {
      _ = try PostgresLocation(url: url)
    } throws: { error in
      "\(error)".contains(problem)
    }
  }

  @Test func aServerThatIsNotThereIsAClearErrorNotAWait() throws {
    let port = try PostgresCluster.freePort()
    let location = try PostgresLocation(url: "postgres://nobody@127.0.0.1:\(port)/none")
    let started = Date()
    #expect {
      _ = try PostgresJournalStore(location: location, owner: "test", logger: PostgresCluster.quiet)
    } throws: { error in
      let message = "\(error)"
      return error is StoreError && message.contains("\(location)")
        && message.localizedCaseInsensitiveContains("refused")
    }
    #expect(Date().timeIntervalSince(started) < 5)
  }

  /// The server stops: a write throws (soon, and without crashing); it starts again: the next
  /// write works, and everything written before and after is there.
  @Test func aWriteWhileTheServerIsDownThrowsAndOneAfterItIsBackWorks() throws {
    let cluster = try PostgresCluster()
    defer { cluster.destroy() }
    let store = try PostgresJournalStore(
      location: try cluster.newDatabase(), owner: "test", logger: PostgresCluster.quiet)
    try store.write([
      .table(JournalStoreTests.record("t1")), .move(JournalStoreTests.move("t1", 0, card: 1)),
    ])
    try cluster.stop()
    let started = Date()
    #expect(throws: StoreError.self) {
      try store.write([.move(JournalStoreTests.move("t1", 1, card: 2))])
    }
    // Connecting again while it is down fails too.
    #expect(throws: StoreError.self) {
      try store.write([.move(JournalStoreTests.move("t1", 1, card: 2))])
    }
    #expect(Date().timeIntervalSince(started) < 10)
    try cluster.start()
    try store.write([
      .move(JournalStoreTests.move("t1", 1, card: 2)),
      .move(JournalStoreTests.move("t1", 2, card: 3)),
    ])
    let moves = try store.load().tables.first?.moves.map(\.move)
    #expect(moves == [1, 2, 3].map { .choose(seat: 0, card: $0) })
  }

  /// Several servers: the store keeps the one that accepts writes (a dead one listed first is
  /// passed over). When that one stops taking writes (a primary demoted: its connections end,
  /// new ones are read-only), a write fails saying what each server answered; once a server
  /// takes writes again, the next write works and nothing is missing.
  @Test func aStoreKeepsTheServerThatAcceptsWrites() throws {
    let single = try PostgresCluster.shared.get().newDatabase()
    let dead = try PostgresCluster.freePort()
    let location = try PostgresLocation(
      url:
        "postgres://\(single.username)@127.0.0.1:\(dead),127.0.0.1:\(single.port)/\(single.database)"
    )
    let store = try PostgresJournalStore(
      location: location, owner: "test", logger: PostgresCluster.quiet)
    _ = try store.load()
    try store.write([
      .table(JournalStoreTests.record("t1")), .move(JournalStoreTests.move("t1", 0, card: 1)),
    ])
    let admin = try PostgresJournalStore(
      location: single, owner: "admin", logger: PostgresCluster.quiet)
    try admin.execute(
      "ALTER DATABASE \(single.database) SET default_transaction_read_only = on")
    try admin.execute(
      """
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()
      """)
    #expect {
      try store.write([.move(JournalStoreTests.move("t1", 1, card: 2))])
    } throws: { error in
      let message = "\(error)"
      return message.contains("no server accepts writes")
        && message.contains("127.0.0.1:\(single.port): read-only")
        && message.contains("127.0.0.1:\(dead): ")
    }
    try admin.execute("ALTER DATABASE \(single.database) RESET default_transaction_read_only")
    try store.write([.move(JournalStoreTests.move("t1", 1, card: 2))])
    let moves = try store.load().tables.first?.moves.map(\.move)
    #expect(moves == [1, 2].map { .choose(seat: 0, card: $0) })
  }

  /// PostgreSQL answers a statement of the extended protocol before it commits it (at the
  /// `Sync` after it): a commit that then fails (here a deferred trigger; in a failover, a
  /// primary stopped while it waits for its standby) must not pass for written.
  @Test func aWriteCountsOnlyOnceItIsCommitted() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let store = try PostgresJournalStore(
      location: location, owner: "test", logger: PostgresCluster.quiet)
    try store.execute("CREATE TABLE fails_at_commit (x int)")
    try store.execute(
      """
      CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql
      AS $$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$
      """)
    try store.execute(
      """
      CREATE CONSTRAINT TRIGGER at_commit AFTER INSERT ON fails_at_commit
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse()
      """)
    let connector = store.connector
    // Waited for past its commit (libpq's answer is whole at the `ReadyForQuery` after it),
    // the write fails, whichever way it is run.
    #expect {
      try connector.perform("cannot insert") { connection in
        _ = try connector.runCommitted("INSERT INTO fails_at_commit VALUES (1)", on: connection)
      }
    } throws: { error in
      error is StoreError && "\(error)".contains("refused at commit")
    }
    #expect(throws: StoreError.self) {
      try connector.perform("cannot insert") { connection in
        _ = try connector.run("INSERT INTO fails_at_commit VALUES (2)", on: connection)
      }
    }
    connector.close()
    try store.execute("DROP TRIGGER at_commit ON fails_at_commit")
    #expect(
      try store.perform("cannot count") { connection in
        try connector.run("SELECT count(*) FROM fails_at_commit", on: connection).first?.decode(
          Int.self)
      } == 0)
  }

  /// A second server does not take the tables of a live first one, nor write to them; once the
  /// first one's lease has run out, it takes them (with their moves), and then the first one
  /// can no longer write to them. Both decide leases on one ``LeaseClock`` the test moves on.
  @Test func aTableIsOneServersUntilItsLeaseRunsOut() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let clock = LeaseClock.manual(at: TakeoverTests.start)
    let first = try PostgresJournalStore(
      location: location, owner: "first", lease: 2, clock: clock, logger: PostgresCluster.quiet)
    _ = try first.load()
    try first.write([
      .table(JournalStoreTests.record("t1")), .move(JournalStoreTests.move("t1", 0, card: 7)),
      .session(SessionRecord(token: "hash-ada", name: "Ada", tableID: "t1", seat: 0)),
    ])
    let second = try PostgresJournalStore(
      location: location, owner: "second", lease: 2, clock: clock, logger: PostgresCluster.quiet)
    let early = try second.load()
    #expect(early.tables.isEmpty)
    #expect(early.sessions.isEmpty)
    #expect {
      try second.write([.move(JournalStoreTests.move("t1", 1, card: 8))])
    } throws: { error in
      (error as? FencedTables)?.tables == ["t1"]
    }
    // Still the first one's a moment before its lease runs out.
    clock.advance(by: 1.9)
    #expect(try second.load().tables.isEmpty)

    clock.advance(by: 0.6)
    let late = try second.load()
    #expect(late.tables.map(\.record.id) == ["t1"])
    #expect(late.tables.first?.moves.map(\.move) == [.choose(seat: 0, card: 7)])
    #expect(late.sessions.map(\.token) == ["hash-ada"])
    #expect(throws: FencedTables.self) {
      try first.write([.move(JournalStoreTests.move("t1", 1, card: 9))])
    }
    try second.write([.move(JournalStoreTests.move("t1", 1, card: 8))])
  }

  /// Renewals keep a lease past its first term; a clean close frees it at once; the same owner
  /// takes its own tables back without waiting.
  @Test func renewedLeasesHoldAndClosedOnesAreFree() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let clock = LeaseClock.manual(at: TakeoverTests.start)
    let first = try PostgresJournalStore(
      location: location, owner: "first", lease: 3, clock: clock, logger: PostgresCluster.quiet)
    _ = try first.load()
    try first.write([
      .table(JournalStoreTests.record("t1")), .table(JournalStoreTests.record("t2")),
    ])
    let other = try PostgresJournalStore(
      location: location, owner: "other", lease: 3, clock: clock, logger: PostgresCluster.quiet)
    // Renewed every second for 4 s: past the 3 s its first term lasted, the tables stay.
    for _ in 0..<4 {
      clock.advance(by: 1)
      try first.renewLeases()
    }
    #expect(try other.load().tables.isEmpty)
    // The same owner (a restarted server) takes its tables back at once.
    let restarted = try PostgresJournalStore(
      location: location, owner: "first", lease: 3, clock: clock, logger: PostgresCluster.quiet)
    #expect(try restarted.load().tables.map(\.record.id) == ["t1", "t2"])
    restarted.close()
    #expect(try other.load().tables.map(\.record.id) == ["t1", "t2"])
  }

  /// Every start numbers its tables in a range of its own, above every number used.
  @Test func twoStartsNeverNumberTablesAlike() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let first = try PostgresJournalStore(
      location: location, owner: "first", logger: PostgresCluster.quiet)
    let second = try PostgresJournalStore(
      location: location, owner: "second", logger: PostgresCluster.quiet)
    let a = try first.load().lastTableNumber
    try first.write([.table(JournalStoreTests.record("t\(a + 1)"))])
    let b = try second.load().lastTableNumber
    #expect(a >= PostgresJournalStore.tableBlock)
    #expect(b >= a + PostgresJournalStore.tableBlock)
    // A restart of the first takes a new range too.
    #expect(try first.load().lastTableNumber >= b + PostgresJournalStore.tableBlock)
  }

  @Test(arguments: [(Durability.process, "off"), (.full, "on"), (.replica, "remote_write")])
  func durabilityIsSynchronousCommit(_ durability: Durability, setting: String) throws {
    let store = try PostgresJournalStore(
      location: try PostgresCluster.shared.get().newDatabase(), owner: "test",
      durability: durability, logger: PostgresCluster.quiet)
    #expect(try store.setting("synchronous_commit") == setting)
  }

  /// A database of a newer schema is refused, naming the versions; one already up to date is
  /// opened again without change.
  @Test func aNewerSchemaIsRefused() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let store = try PostgresJournalStore(
      location: location, owner: "test", logger: PostgresCluster.quiet)
    _ = try PostgresJournalStore(location: location, owner: "test", logger: PostgresCluster.quiet)
    try store.write([.table(JournalStoreTests.record("t1"))])
    try store.execute("INSERT INTO schema_version (version, name) VALUES (99, 'the future')")
    #expect {
      _ = try PostgresJournalStore(location: location, owner: "test", logger: PostgresCluster.quiet)
    } throws: { error in
      "\(error)".contains(
        "version 99, newer than this server's (\(PostgresJournalStore.migrations.count))")
    }
  }

  /// The journal's write is one function, not a chain of versions each calling the one before
  /// (every batch used to run seven): `journal_write` calls no other write, and the only other
  /// is version 8's name, kept for nodes of the version before during a rolling upgrade, which
  /// still writes.
  @Test func theWriteIsOneFunctionAndAnOlderNodesStillWrites() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let store = try PostgresJournalStore(
      location: location, owner: "test", logger: PostgresCluster.quiet)
    _ = try store.load()
    let functions = try store.perform("cannot read the functions") { connection in
      try store.run(
        "SELECT proname, prosrc FROM pg_proc WHERE proname LIKE 'journal_write%' ORDER BY 1",
        on: connection
      ).map { try $0.decode((String, String).self) }
    }
    #expect(functions.map(\.0) == ["journal_write", "journal_write_v8"])
    #expect(functions.first.map { !$0.1.contains("journal_write") } == true)
    #expect(functions.last.map { $0.1.contains("SELECT journal_write(") } == true)
    try store.write([.table(JournalStoreTests.record("t1"))])
    // A batch as a node of version 12 sends it: one move at t1 (held at epoch 1).
    try store.execute(
      """
      SELECT journal_write_v8('test', 30, '{t1}', '{1}', '{}', '{}', '{}', '{}', '{}', '{}',
        '{}', '{}', '{t1}', '{1}', '{0}', '{0}', '{0}', '{7}', '{0.5}', '{8}',
        '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}',
        '{}', '{}')
      """)
    store.close()
    let reopened = try PostgresJournalStore(
      location: location, owner: "test", logger: PostgresCluster.quiet)
    #expect(
      try reopened.load().tables.first?.moves.map(\.move) == [.choose(seat: 0, card: 7)])
  }
}

/// A database of schema version 12, holding what a node of that version wrote through
/// `journal_write_v8` (an open table with moves, a session, a rated game that version 12 rated
/// in PL/pgSQL), brought up to date by a server of today: everything reads back, and the
/// server writes on from there (the same table dealt again, another rated game, by today's rule).
@Suite struct PostgresWriteMigrationTests {
  @Test func aVersionTwelveDatabaseWithGamesIsBroughtUpToDateAndPlaysOn() throws {
    let location = try PostgresCluster.shared.get().newDatabase()
    let old = try PostgresJournalStore(
      location: location, owner: "node", logger: PostgresCluster.quiet, schema: 12)
    let encoder = JSONEncoder()
    let record = String(decoding: try encoder.encode(JournalStoreTests.record("t1")), as: UTF8.self)
    let game = RatingStoreTests.game(["ada", "bob"], endedAt: 1000)
    let stored = try game.storedJSON(encoder: encoder)
    let none: [String] = []
    let noNumbers: [Int] = []
    try old.perform("cannot write as version 12") { connection in
      _ = try old.run(
        """
        SELECT journal_write_v8('node', 30, \(none), \(noNumbers),
          \(["t1"]), \([JournalEntry.number(of: "t1")]), \([true]), \([1]), \([record]),
          \(none), \(none), \(noNumbers),
          \(["t1", "t1"]), \([1, 1]), \([0, 1]), \([0, 0]), \([0, 0]), \([7, 8]), \([0.5, 1.5]),
          \([8, 9]),
          \(["hash-ada"]), \(["Ada"]), \(["t1"]), \([0]), \(["ada"]), \(none), \(none),
          \([game.source]), \([game.game]), \([game.endedAt]), \([game.seconds]), \([game.score]),
          \([stored]), \(["ada bob"]), \([ScoreList(of: game).id]), \(["ada bob"]), \(["1 2"]))
        """, on: connection)
    }
    #expect(try RatingStoreTests.rating(old, "ada")?.rating == 1532)
    old.close()

    let store = try PostgresJournalStore(
      location: location, owner: "node", logger: PostgresCluster.quiet)
    let contents = try store.load()
    #expect(contents.tables.map(\.record.id) == ["t1"])
    #expect(
      contents.tables.first?.moves.map(\.move)
        == [.choose(seat: 0, card: 7), .choose(seat: 0, card: 8)])
    #expect(contents.sessions.map(\.token) == ["hash-ada"])
    #expect(try store.scores(ScoresQuery(game: "set")).games.map(\.source) == [game.source])
    #expect(try RatingStoreTests.rating(store, "bob")?.rating == 1468)
    // On from there: t1 dealt again (its first deal's moves go), and a second rated game.
    try store.write([
      .table(JournalStoreTests.record("t1", deal: 2)),
      .move(JournalStoreTests.move("t1", deal: 2, 0, card: 5)),
      .finished(RatingStoreTests.game(["bob", "ada"], endedAt: 1100)),
    ])
    #expect(try store.rowCounts().moves == 1)
    let ada = try #require(try RatingStoreTests.rating(store, "ada"))
    let expected = Rating.changes([
      Rating.Entry(rating: 1468, games: 1, rank: 1), Rating.Entry(rating: 1532, games: 1, rank: 2),
    ])
    #expect(ada.games == 2 && abs(ada.rating - (1532 + expected[1])) < 1e-9)
  }
}

/// Nodes of a cluster started at once on a new database all migrate it: one at a time, the
/// others finding the work done (PostgreSQL's `CREATE TABLE IF NOT EXISTS` alone lets two
/// creators collide on the new table's type).
@Suite struct PostgresMigrationRaceTests {
  @Test func serversStartingAtOnceOnANewDatabaseAllStart() throws {
    for _ in 0..<3 {
      let location = try PostgresCluster.shared.get().newDatabase()
      let failures = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 6) { index in
        do {
          _ = try PostgresJournalStore(
            location: location, owner: "n\(index)", logger: PostgresCluster.quiet)
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      #expect(failures.withLock { $0 } == [])
    }
  }
}
