import Model
import Protocol

/// Matchismo: playing cards dealt face down, 2-card (or 3-card) matches by rank or suit that
/// stay on the board; 24 cards and the course's scoring unless the table says.
public enum MatchismoGame: GameDefinition {
  public typealias Card = PlayingCard

  public static let title = "Matchismo"

  public static let rules =
    "Turn up playing cards two at a time: the same suit scores, the same rank scores four times"
    + " as much. A miss costs you."

  public static let matchWords = MatchWords("match", "matches")

  public static var settingDescriptions: [SettingDescription] {
    [
      SettingDescription(
        "matchSize", label: "Match", default: 2,
        choices: [2, 3].map {
          SettingChoice(.int($0), "\($0) cards", summary: "\($0)-card matches")
        }),
      SettingDescription(
        "boardSize", label: "Cards", default: 24,
        choices: [12, 16, 20, 24, 30, 36].map { SettingChoice(.int($0), "\($0) cards") },
        range: 12...40, unit: "cards"),
      .presetScoring("course", "Course (a choice costs 1, a miss 2)"),
    ] + SettingDescription.customConstants(.matchismo()) + [.showSelections()]
  }

  public static func setup(seats: Int, options: TableOptions) throws(SettingsProblem)
    -> TableSetup
  {
    let matchSize = options.matchSize ?? 2
    guard [2, 3].contains(matchSize) else {
      throw SettingsProblem("Setting 'matchSize' must be 2 or 3 for Matchismo.")
    }
    let boardSize = options.boardSize ?? 24
    guard (12...40).contains(boardSize) else {
      throw SettingsProblem("Setting 'boardSize' must be 12...40 for Matchismo.")
    }
    var settings = GameSettings.matchismo(matchSize: matchSize, seats: seats, boardSize: boardSize)
    let scoring = options.scoring ?? "course"
    guard ["course", "custom"].contains(scoring) else {
      throw SettingsProblem("Setting 'scoring' must be 'course' or 'custom' for Matchismo.")
    }
    try options.applyCustomScoring(scoring, to: &settings)
    try options.refuseTurnSeconds()
    try options.refuseTheme()
    return TableSetup(Self.self, settings: settings, showSelections: options.showSelections ?? true)
  }
}
