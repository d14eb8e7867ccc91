import Lobby
import Model
import Protocol

/// A game defined only in the tests, to show that a game is one type and one
/// registration (`GameRegistry.standard.adding(TwinsGame.self)`): eight cards face up, the
/// numbers 1 to 4 twice; two cards match when they carry the same number.
enum TwinsGame: GameDefinition {
  /// A card of the game: its number is its id halved, plus one.
  struct Card: WireCard {
    let id: Int

    var number: Int { id / 2 + 1 }

    static let fullDeck = (0..<8).map(Card.init)

    static func matchScore(_ cards: [Card]) -> Int {
      Set(cards.map(\.number)).count == 1 ? 1 : 0
    }

    static var gameName: String { "twins" }

    static var newGameLine: [StyledRun] { [.text("Find the twins!")] }

    var wireObject: JSONValue { .object([("id", .int(id)), ("number", .int(number))]) }

    var statusRun: StyledRun { StyledRun(text: "\(number)", card: id, label: spokenName) }

    var faceMembers: [(String, JSONValue)] { [("number", .int(number))] }

    var spokenName: String { "a \(number)" }
  }

  /// The registry of the standard games and this one.
  static let registry = GameRegistry.standard.adding(TwinsGame.self)

  static let title = "Twins"

  static let rules = "Eight cards face up, the numbers 1 to 4 twice: take the two of a number."

  static let matchWords = MatchWords("twin pair", "twin pairs")

  static var settingDescriptions: [SettingDescription] {
    [.boardSize([8], default: 8), .fixedMatchSize(2), .showSelections()]
  }

  static func setup(seats: Int, options: TableOptions) throws(SettingsProblem) -> TableSetup {
    try options.refuseTurnSeconds()
    try options.refuseTheme()
    if options.boardSize.map({ $0 != 8 }) ?? false {
      throw SettingsProblem("Twins is played with all eight cards: 'boardSize' must be 8.")
    }
    if options.matchSize.map({ $0 != 2 }) ?? false {
      throw SettingsProblem("Twins are two: 'matchSize' must be 2.")
    }
    let settings = GameSettings(
      boardSize: 8, matchSize: 2, costToChoose: 0, mismatchPenalty: 0, matchBonus: 1,
      matchedCards: .replace, dealsMoreWhenNoMatch: false, seats: seats)
    return TableSetup(Self.self, settings: settings, showSelections: options.showSelections ?? true)
  }
}
