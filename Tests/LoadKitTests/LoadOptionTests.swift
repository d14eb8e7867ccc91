import Foundation
import LoadKit
import Testing

@testable import LoadGenerator

/// The `matchismo-load` command's defaults are ``LoadConfiguration/defaults``, written once.
@Suite struct LoadOptionTests {
  @Test func theCommandsDefaultsAreTheConfigurationsDefaults() throws {
    #expect(try MatchismoLoad.parse([]).loadConfiguration == LoadConfiguration.defaults)
  }

  /// Every option's default is read from `LoadConfiguration.defaults` (an optional one has none,
  /// a flag is off): none is written a second time in the command, where it could differ.
  @Test func theCommandWritesNoDefaultOfItsOwn() throws {
    let source = try String(
      contentsOf: URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Sources/LoadGenerator/MatchismoLoad.swift"), encoding: .utf8)
    var options = 0
    var inOption = false
    var isFlag = false
    for line in source.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      if line.hasPrefix("@Option") || line.hasPrefix("@Flag") {
        inOption = true
        isFlag = line.hasPrefix("@Flag")
      }
      guard inOption, line.hasPrefix("var ") else { continue }
      inOption = false
      options += 1
      let parts = line.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let value = parts[1].trimmingCharacters(in: .whitespaces)
      #expect(
        value.contains("LoadConfiguration.defaults.") || (isFlag && value == "false"),
        "\(line) writes its default")
    }
    #expect(options > 20)
  }
}
