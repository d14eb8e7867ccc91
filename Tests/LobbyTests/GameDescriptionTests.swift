import Foundation
import Model
import Protocol
import TestSupport
import Testing

@testable import Lobby

/// Every game the server deals is described in `welcome` (`games`), from its definition: the
/// client keeps no rule of its own. ``TwinsGame``, defined only in the tests, is described as
/// well as the six games served, and each description holds to what its `setup` accepts.
@Suite struct GameDescriptionTests {
  let c1 = ConnectionID(1)

  /// The games of `welcome` for a hello to a lobby serving `registry`.
  func welcomedGames(_ registry: GameRegistry) async throws -> [JSONValue] {
    try await GameCatalog.$registry.withValue(registry) {
      let harness = LobbyHarness()
      let welcome = try only(
        await harness.send(#"{"type":"hello","id":1,"name":"Ada","games":true}"#, from: c1), to: c1)
      #expect(welcome["type"] == "welcome")
      return try #require(welcome["games"]?.elements)
    }
  }

  @Test func welcomeListsEveryGameServedWithItsTexts() async throws {
    for registry in [GameRegistry.standard, TwinsGame.registry] {
      let games = try await welcomedGames(registry)
      let names = games.compactMap { $0["name"]?.stringValue }
      #expect(Set(names) == registry.names)
      #expect(names.count == registry.names.count)
      #expect(games == registry.descriptions.map(\.json))
      for game in games {
        let name = game["name"]?.stringValue ?? "?"
        let title = game["title"]?.stringValue ?? ""
        let one = try #require(game["match"]?["one"]?.stringValue, "\(name)")
        let many = try #require(game["match"]?["many"]?.stringValue, "\(name)")
        #expect(!title.isEmpty && !one.isEmpty && many.count > one.count, "\(name)")
        #expect((game["rules"]?.stringValue?.count ?? 0) > 20, "\(name)")
        let size = try #require(game["matchSize"]?.intValue)
        #expect(size >= 2)
        #expect((game["board"]?["base"]?.intValue ?? 0) >= size)
        let texts = try #require(game["texts"])
        for key in ["hintOne", "hintTwo", "hintNone"] {
          #expect(texts[key]?.stringValue?.contains(one) == true, "\(name) \(key)")
        }
        #expect(texts["kept"]?[String(size)]?.stringValue?.hasPrefix("No \(one).") == true)
        let chain = game["chain"]?.boolValue == true
        #expect((texts["chainStart"] != nil) == chain && (texts["chainRule"] != nil) == chain)
        #expect(game["settings"]?.elements?.isEmpty == false, "\(name)")
      }
    }
  }

  /// The descriptions come only when `hello` asks (`games`): true, or a version other than the
  /// server's. Without them `welcome` names their version, which differs between servers of
  /// different games.
  @Test func theGamesComeOnlyWhenAskedFor() async throws {
    let standard = GameRegistry.standard.descriptionsVersion
    #expect(standard.utf8.count == 16 && standard.allSatisfy(\.isHexDigit))
    #expect(standard != TwinsGame.registry.descriptionsVersion)
    #expect(standard != GameRegistry().adding(SetGame.self).descriptionsVersion)
    let asked: [(games: String, sent: Bool)] = [
      ("", false), (#","games":false"#, false), (#","games":null"#, false),
      (#","games":true"#, true), (#","games":"\#(standard)""#, false),
      (#","games":"0123456789abcdef""#, true), (#","games":"""#, true),
    ]
    for (index, ask) in asked.enumerated() {
      let harness = LobbyHarness()
      let connection = ConnectionID(UInt64(index + 1))
      let welcome = try only(
        await harness.send(#"{"type":"hello","id":1\#(ask.games)}"#, from: connection),
        to: connection)
      #expect(welcome["type"] == "welcome", "\(ask.games)")
      #expect(welcome["gamesVersion"]?.stringValue == standard, "\(ask.games)")
      #expect(
        welcome["games"] == (ask.sent ? GameRegistry.standard.descriptionsJSON : nil),
        "\(ask.games)")
    }
  }

  @Test func theTestGameIsDescribedFromItsDefinitionAlone() async throws {
    let games = try await welcomedGames(TwinsGame.registry)
    let twins = try #require(games.first { $0["name"] == "twins" })
    #expect(twins["title"] == "Twins")
    #expect(twins["match"]?["many"] == "twin pairs")
    #expect(twins["matchSize"] == 2 && twins["board"]?["base"] == 8)
    #expect(twins["board"]?["step"] == 0, "nothing is dealt while no pair shows")
    #expect(twins["hints"] == true && twins["faceDown"] == false && twins["chain"] == false)
    #expect(
      twins["texts"]?["hintTwo"] == "Hint: the two outlined cards are a twin pair. Hints are free.")
    #expect(twins["texts"]?["hintNone"] == "No twin pair on this board.")
  }

  @Test func whatEachGameOffersFollowsItsRules() throws {
    let games = Dictionary(
      uniqueKeysWithValues: GameRegistry.standard.descriptions.map { ($0.name, $0) })
    let set = try #require(games["set"])
    #expect((set.matchSize, set.boardSize, set.growth) == (3, 12, 3))
    #expect(set.hints && !set.chain && !set.faceDown && !set.turnBased)
    #expect(set.texts.hintTwo.hasSuffix("part of a set; find the third. Hints are free."))
    #expect(set.texts.kept[3]?.contains("pick two more") == true)
    let ultra = try #require(games["ultraSet"])
    #expect(ultra.matchSize == 4 && ultra.match.aMatch == "an UltraSet")
    #expect(ultra.texts.hintTwo.contains("part of an UltraSet; find the other two."))
    #expect(ultra.texts.hintNone == "No UltraSet on this board.")
    #expect(ultra.setting("scoring")?.choices.first?.text == "Classic (an UltraSet is a point)")
    let chain = try #require(games["setChain"])
    #expect(chain.chain && chain.texts.hintNone == "No chain set on this board.")
    #expect(chain.texts.chainRule == "Each set: one card of the chain and two of the table.")
    let junior = try #require(games["setJunior"])
    #expect((junior.boardSize, junior.growth) == (9, 3))
    let matchismo = try #require(games["matchismo"])
    #expect(matchismo.faceDown && !matchismo.hints && matchismo.growth == 0)
    #expect(matchismo.texts.kept[2]?.contains("pick one more") == true)
    #expect(matchismo.texts.kept[3]?.contains("pick two more") == true)
    let concentration = try #require(games["concentration"])
    #expect(concentration.turnBased && concentration.faceDown && !concentration.hints)
    #expect(concentration.setting("boardSize")?.choices.map(\.text).first == "4 pairs")
    #expect(
      GameRegistry.standard.descriptions.map(\.name) == [
        "set", "setJunior", "ultraSet", "setChain", "matchismo", "concentration",
      ], "the order a lobby offers them")
  }

  @Test func everyDescribedSettingIsWhatSetupAccepts() throws {
    for description in TwinsGame.registry.descriptions {
      let game = description.name
      func setup(_ seats: Int, _ fields: [(String, JSONValue)]) -> Result<TableSetup, ProtocolError>
      {
        GameCatalog.$registry.withValue(TwinsGame.registry) {
          GameCatalog.setup(
            game: game, seats: seats, options: Self.options(fields), replyTo: nil)
        }
      }
      for seats in [1, 4] {
        for setting in description.settings {
          // The default is what a table that does not say gets (with what the setting needs:
          // the scoring constants start from the scoring `custom` starts from).
          let needed = setting.requires.map { ($0.key, $0.value) }
          let plain = try setup(seats, needed).get()
          #expect(
            Self.value(of: setting.name, in: plain) == setting.defaultValue(seats: seats),
            "\(game) \(setting.name) with \(seats) seats")
          for choice in setting.choices {
            let accepted = setup(seats, needed + [(setting.name, choice.value)])
            #expect((try? accepted.get()) != nil, "\(game) \(setting.name) \(choice.value.text)")
            // (`custom` scoring without constants scores like its preset, and says so.)
            if setting.name == "scoring" && choice.value == "custom" { continue }
            #expect(
              (try? accepted.get()).map { Self.value(of: setting.name, in: $0) } == choice.value,
              "\(game) \(setting.name) \(choice.value.text) with \(seats) seats: \(accepted)")
          }
          if let range = setting.range {
            for inside in [range.lowerBound, range.upperBound] {
              #expect((try? setup(seats, needed + [(setting.name, .int(inside))]).get()) != nil)
            }
            for outside in [range.lowerBound - 1, range.upperBound + 1]
            where !setting.choices.contains(where: { $0.value == .int(outside) }) {
              #expect(
                (try? setup(seats, needed + [(setting.name, .int(outside))]).get()) == nil,
                "\(game) \(setting.name) \(outside) is out of range")
            }
          } else if case .int(let last)? = setting.choices.last?.value {
            // A list: the next value past it is refused.
            #expect(
              (try? setup(seats, needed + [(setting.name, .int(last + 1))]).get()) == nil,
              "\(game) \(setting.name) \(last + 1) is no choice")
          }
        }
      }
    }
  }

  @Test func theWelcomeExampleOfTheProtocolListsSetAsItIsDescribed() throws {
    let fixture = URL(filePath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .appending(path: "ProtocolTests/Fixtures/server/welcome.json")
    let documented = String(decoding: try Data(contentsOf: fixture), as: UTF8.self)
    let onlySet = GameRegistry().adding(SetGame.self)
    let welcome = ServerMessage.welcome(
      replyTo: .int(1), session: "q3J1bHqk1n7wWm7v0k3t8A", name: "Ada", resumed: false,
      maxMessageBytes: 8192, node: "play1:8080", gamesVersion: onlySet.descriptionsVersion,
      games: onlySet.descriptionsJSON)
    // Byte for byte, members in the order the server writes them (a server of Set alone).
    #expect(welcome.text == compacted(documented))
  }

  /// The options of a message whose settings are `fields`.
  static func options(_ fields: [(String, JSONValue)]) -> TableOptions {
    var options = TableOptions()
    for (name, value) in fields {
      switch (name, value) {
      case ("boardSize", .int(let n)): options.boardSize = n
      case ("matchSize", .int(let n)): options.matchSize = n
      case ("scoring", .string(let s)): options.scoring = s
      case ("costToChoose", .int(let n)): options.costToChoose = n
      case ("mismatchPenalty", .int(let n)): options.mismatchPenalty = n
      case ("matchBonus", .int(let n)): options.matchBonus = n
      case ("turnSeconds", .int(let n)): options.turnSeconds = n
      case ("theme", .int(let n)): options.theme = n
      case ("showSelections", .bool(let b)): options.showSelections = b
      default: Issue.record("no such setting \(name): \(value.text)")
      }
    }
    return options
  }

  /// What `setup` made of the setting `name`.
  static func value(of name: String, in setup: TableSetup) -> JSONValue? {
    let settings = setup.settings
    switch name {
    case "boardSize": return .int(settings.boardSize)
    case "matchSize": return .int(settings.matchSize)
    case "scoring": return .string(settings.scoring?.rawValue ?? "custom")
    case "costToChoose": return .int(settings.costToChoose)
    case "mismatchPenalty": return .int(settings.mismatchPenalty)
    case "matchBonus": return .int(settings.matchBonus)
    case "turnSeconds": return .int(setup.turnSeconds ?? 0)
    case "theme": return .int(settings.theme)
    case "showSelections": return .bool(setup.showSelections)
    default: return nil
    }
  }
}
