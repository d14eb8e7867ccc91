import Model
import Testing

@testable import Protocol

/// A snapshot's `settings`: what each game's table says about itself.
@Suite struct SettingsMessageTests {
  private static func members(_ value: JSONValue) -> [String: JSONValue] {
    guard case .object(let members) = value else { return [:] }
    return Dictionary(members, uniquingKeysWith: { first, _ in first })
  }

  @Test func aConcentrationTableNamesItsTheme() {
    let settings = Self.members(
      ServerMessage.settings(GameSettings.concentration(pairs: 6, theme: 3, seats: 2)))
    #expect(settings["theme"] == .int(3))
    #expect(settings["faceDown"] == .bool(true) && settings["turnBased"] == .bool(true))
  }

  @Test func gamesWithoutThemesSayNone() {
    for game in [GameSettings.set(), GameSettings.matchismo(), GameSettings.set(seats: 3)] {
      #expect(Self.members(ServerMessage.settings(game))["theme"] == nil)
    }
  }
}
