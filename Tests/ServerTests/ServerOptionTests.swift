import Foundation
import LoadKit
import Testing

@testable import Server

/// Each option of the `matchismo` command is described once: its name and help in
/// ``ServerOption``, its default in ``ServerConfiguration/defaults``. The command writes no
/// default of its own, every option reaches its field of the configuration, and the load
/// generator aims at the server's own defaults.
@Suite struct ServerOptionTests {
  /// The command's help, unwrapped.
  static let help = Matchismo.helpMessage(includeHidden: false, columns: 100_000)

  @Test func everyOptionIsDescribedOnceAndTheCommandHasEachOne() {
    let names = ServerOption.all.map(\.name)
    #expect(Set(names).count == names.count, "an option described twice: \(names)")
    for option in ServerOption.all {
      #expect(Self.help.contains(option.flag), "the command has no \(option.flag)")
      #expect(Self.help.contains(option.help.abstract), "\(option.flag)'s help is not its own")
    }
    // And the command has no option that is not described.
    let flags = Self.help.matches(of: /--[a-z][a-z-]*[a-z]/).map { String($0.output) }
    #expect(Set(flags).subtracting(["--help"]) == Set(ServerOption.all.map(\.flag)))
  }

  /// Every option's default is read from `ServerConfiguration.defaults` (or, for an optional
  /// one, is nil): none is written a second time in the command, where it could differ.
  @Test func theCommandWritesNoDefaultOfItsOwn() throws {
    let source = try String(
      contentsOf: URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Sources/Server/Matchismo.swift"), encoding: .utf8)
    let defaults = Self.optionDefaults(in: source)
    #expect(defaults.count == ServerOption.all.count, "\(defaults)")
    for (name, value) in defaults where value != nil {
      #expect(
        value!.contains("ServerConfiguration.defaults."), "\(name) writes its default: \(value!)")
    }
  }

  /// The default of each option property in `source` (an `@Option` or `@Flag`): the expression
  /// after `=`, nil when it has none.
  static func optionDefaults(in source: String) -> [(String, String?)] {
    var found: [(String, String?)] = []
    var inOption = false
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("@Option") || trimmed.hasPrefix("@Flag") { inOption = true }
      guard inOption, trimmed.hasPrefix("var ") else { continue }
      inOption = false
      let parts = trimmed.dropFirst(4).split(separator: "=", maxSplits: 1)
      let name = String(parts[0].split(separator: ":")[0]).trimmingCharacters(in: .whitespaces)
      found.append(
        (name, parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : nil))
    }
    return found
  }

  /// Every field of the configuration is some option's: given every option at a value other
  /// than its default, no field keeps its default.
  @Test func everyOptionReachesItsField() throws {
    let given = try Matchismo.parse([
      "--host", "0.0.0.0", "--port", "9000", "--web-root", "/srv/web", "--log-level", "debug",
      "--tls-cert", "/c.pem", "--tls-key", "/k.pem", "--max-message-bytes", "4096",
      "--reconnect-grace", "30", "--countdown", "0", "--empty-table-grace", "5",
      "--spectator-limit", "7", "--bot-pace", "0.5", "--computer-tables", "3", "--arena-schedule",
      "30/5/set", "--executors", "5",
      "--data-dir", "/d",
      "--database", "postgres://ada@db/games", "--sync", "full", "--commit-interval", "5",
      "--journal-stall-limit", "2000", "--wal-checkpoint-mib", "64", "--keep-finished-days", "30",
      "--rate-limit", "5",
      "--send-buffer", "32768", "--events-per-pass", "16", "--pass-budget", "250",
      "--crowd-share", "30", "--drain-timeout", "2.5",
      "--max-connections", "500", "--max-connections-per-address", "40",
      "--trusted-proxy", "10.0.0.1",
      "--allowed-origin", "https://a.example", "--node-id", "n9",
      "--advertise-url", "ws://n9:1/ws", "--lease", "4000", "--lease-renewal", "500",
      "--metrics-port", "9100", "--metrics-host", "10.0.0.9",
    ]).serverConfiguration
    // --no-journal goes with no --database: on its own.
    let memoryOnly = try Matchismo.parse(["--no-journal"]).serverConfiguration
    let defaults = Mirror(reflecting: ServerConfiguration.defaults).children
    let changed = zip(
      defaults, zip(Mirror(reflecting: given).children, Mirror(reflecting: memoryOnly).children))
    #expect(defaults.count > 20)
    for (field, (value, memoryOnlyValue)) in changed {
      let before = String(describing: field.value)
      #expect(
        String(describing: value.value) != before
          || String(describing: memoryOnlyValue.value) != before,
        "no option changes \(field.label ?? "?")")
    }
  }

  /// `matchismo-load` aims at a server started with its defaults, speaking its subprotocol.
  @Test func theLoadGeneratorAimsAtTheServersDefaults() {
    let load = LoadConfiguration.defaults
    #expect(load.host == ServerConfiguration.defaults.host)
    #expect(load.port == ServerConfiguration.defaults.port)
    #expect(load.subprotocol == TransportConfiguration().subprotocol)
  }
}
