import Testing

@testable import Server

/// The `matchismo` command refuses option values that make no sense, with a clear message.
@Suite struct CommandLineTests {
  @Test(arguments: [
    (["--rate-limit", "nan"], "--rate-limit"),
    (["--rate-limit", "inf"], "--rate-limit"),
    (["--rate-limit=0"], "--rate-limit"),
    (["--rate-limit=-5"], "--rate-limit"),
    (["--reconnect-grace", "inf"], "--reconnect-grace"),
    (["--reconnect-grace=0"], "--reconnect-grace"),
    (["--countdown=-1"], "--countdown"),
    (["--countdown", "nan"], "--countdown"),
    (["--empty-table-grace=0"], "--empty-table-grace"),
    (["--empty-table-grace", "1e300"], "--empty-table-grace"),
    (["--spectator-limit=0"], "--spectator-limit"),
    (["--bot-pace=0"], "--bot-pace"),
    (["--bot-pace", "nan"], "--bot-pace"),
    (["--bot-pace", "101"], "--bot-pace"),
    (["--computer-tables", "-1"], "--computer-tables"),
    (["--computer-tables", "20001"], "--computer-tables"),
    (["--max-message-bytes=0"], "--max-message-bytes"),
    (["--allowed-origin", "evil.example"], "--allowed-origin"),
    (["--database", "mysql://ada@host/games"], "--database: the scheme"),
    (["--database", "postgres://ada@host"], "--database: no database name"),
    (["--database", "postgres://host/games"], "--database: no user name"),
    (["--database", "postgres://ada@host/games", "--no-journal"], "--database and --no-journal"),
    (["--send-buffer", "100"], "--send-buffer"),
    (["--send-buffer=-1"], "--send-buffer"),
    (["--send-buffer", "99999999"], "--send-buffer"),
    (["--events-per-pass=-1"], "--events-per-pass"),
    (["--events-per-pass", "100000"], "--events-per-pass"),
    (["--pass-budget=-1"], "--pass-budget"),
    (["--pass-budget", "2000000"], "--pass-budget"),
    (["--crowd-share=-1"], "--crowd-share"),
    (["--crowd-share", "101"], "--crowd-share"),
    (["--drain-timeout", "nan"], "--drain-timeout"),
    (["--drain-timeout=-1"], "--drain-timeout"),
    (["--drain-timeout", "0.1"], "--drain-timeout"),
    (["--drain-timeout", "1e300"], "--drain-timeout"),
    (["--max-connections", "0"], "--max-connections"),
    (["--max-connections", "1000001"], "--max-connections"),
    (["--max-connections-per-address=-1"], "--max-connections-per-address"),
  ])
  func refusesNonsense(arguments: [String], option: String) {
    do {
      _ = try Matchismo.parse(arguments)
      Issue.record("\(arguments) was accepted")
    } catch {
      let message = Matchismo.message(for: error)
      #expect(message.contains(option), "\(message)")
    }
  }

  @Test func acceptsSensibleValues() throws {
    let command = try Matchismo.parse([
      "--rate-limit", "5", "--countdown", "0", "--allowed-origin", "https://game.example",
      "--allowed-origin", "*",
    ])
    #expect(command.rateLimit == 5)
    #expect(command.allowedOrigin == ["https://game.example", "*"])
    let database = "postgres://ada:secret@db.example:6543/games"
    #expect(
      try Matchismo.parse(["--database", database]).serverConfiguration.databaseURL == database)
    // A benchmark's closed loop lifts the limit with a huge number.
    #expect(try Matchismo.parse(["--rate-limit", "1000000000"]).rateLimit == 1e9)
  }
}
