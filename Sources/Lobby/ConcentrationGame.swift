import Model
import Protocol

/// Concentration: pairs of emoji of one theme face down; seats take turns flipping two, a pair
/// is a point and keeps the turn. 8 pairs of the first theme, 30-second turns with others and
/// no limit alone, unless the table says.
public enum ConcentrationGame: GameDefinition {
  public typealias Card = EmojiCard

  /// The seconds a turn lasts at a multiplayer table unless the table says.
  public static let defaultTurnSeconds = 30

  public static let title = "Concentration"

  public static let rules =
    "Take turns flipping two cards. Find a pair and go again; miss and they turn back over."
    + " Remember where everything is."

  public static let matchWords = MatchWords("pair", "pairs")

  public static var settingDescriptions: [SettingDescription] {
    let turns = [10, 20, 30, 60].map {
      SettingChoice(.int($0), "\($0) s", summary: "\($0) s turns")
    }
    return [
      SettingDescription(
        "boardSize", label: "Pairs", default: 16,
        choices: stride(from: 8, through: 20, by: 2).map {
          SettingChoice(.int($0), "\($0 / 2) pairs")
        }),
      SettingDescription(
        "theme", label: "Theme", default: 0,
        choices: EmojiCard.themes.indices.map {
          SettingChoice(.int($0), EmojiCard.themes[$0].name)
        }),
      SettingDescription(
        "turnSeconds", label: "Turn", default: 0, withOthers: .int(defaultTurnSeconds),
        choices: [SettingChoice(0, "no limit", summary: "no turn limit")] + turns,
        range: 5...300, unit: "s turns", withOthersOnly: true),
      .fixedMatchSize(2),
      SettingDescription(
        "scoring", label: "Scoring", default: "custom",
        choices: [SettingChoice("custom", "A point a pair", summary: "")]),
    ] + SettingDescription.customConstants(.concentration()) + [.showSelections(hidable: false)]
  }

  public static func setup(seats: Int, options: TableOptions) throws(SettingsProblem)
    -> TableSetup
  {
    let boardSize = options.boardSize ?? 16
    guard (8...20).contains(boardSize), boardSize % 2 == 0 else {
      throw SettingsProblem("Setting 'boardSize' must be an even number 8...20 for Concentration.")
    }
    let theme = options.theme ?? 0
    guard EmojiCard.themes.indices.contains(theme) else {
      throw SettingsProblem("Setting 'theme' must be 0...\(EmojiCard.themes.count - 1).")
    }
    if options.matchSize.map({ $0 != 2 }) ?? false {
      throw SettingsProblem("Concentration matches pairs: 'matchSize' must be 2.")
    }
    var settings = GameSettings.concentration(pairs: boardSize / 2, theme: theme, seats: seats)
    let scoring = options.scoring ?? "custom"
    guard scoring == "custom" else {
      throw SettingsProblem("Concentration scores a point a pair; 'scoring' may only be 'custom'.")
    }
    try options.applyCustomScoring(scoring, to: &settings)
    let seconds = options.turnSeconds ?? (seats == 1 ? 0 : defaultTurnSeconds)
    guard seconds == 0 || (5...300).contains(seconds) else {
      throw SettingsProblem("Setting 'turnSeconds' must be 0 (no limit) or 5...300.")
    }
    // Played in turns, in front of everyone: the cards turned up are the game.
    if options.showSelections == false {
      throw SettingsProblem(
        "Concentration is played in turns in view of all: 'showSelections' must be true.")
    }
    return TableSetup(
      Self.self, settings: settings, turnSeconds: seconds == 0 ? nil : seconds,
      showSelections: options.showSelections ?? true)
  }
}
