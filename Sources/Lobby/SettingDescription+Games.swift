import Model
import Protocol

/// The settings games share, described once (``GameDefinition/settingDescriptions``), with
/// the checks that accept them (`TableOptions+Checks`, `TableOptions+SetFamily`).
extension SettingDescription {
  /// "Cards": the board sizes `sizes` (`defaultSize` unless the table says), each "N cards".
  public static func boardSize(_ sizes: [Int], default defaultSize: Int) -> SettingDescription {
    SettingDescription(
      "boardSize", label: "Cards", default: .int(defaultSize),
      choices: sizes.map { SettingChoice(.int($0), "\($0) cards") })
  }

  /// A match size that is always `size`: said nowhere, since it goes without saying.
  public static func fixedMatchSize(_ size: Int) -> SettingDescription {
    SettingDescription(
      "matchSize", label: "Match", default: .int(size),
      choices: [SettingChoice(.int(size), "\(size) cards", summary: "")])
  }

  /// Set's family: `classic` with others (a match is a point), `course` alone, or `custom`
  /// constants. `match` names what is a point.
  public static func setFamilyScoring(_ match: MatchWords) -> SettingDescription {
    SettingDescription(
      "scoring", label: "Scoring", default: "course", withOthers: "classic",
      choices: [
        SettingChoice(
          "classic", "Classic (\(match.aMatch) is a point)", summary: "Classic scoring"),
        SettingChoice("course", "Course (a choice costs 1, a miss 2)", summary: "Course scoring"),
        customScoring,
      ])
  }

  /// A game with one scoring of its own, `preset` (said nowhere), or `custom` constants.
  public static func presetScoring(_ preset: String, _ text: String) -> SettingDescription {
    SettingDescription(
      "scoring", label: "Scoring", default: .string(preset),
      choices: [SettingChoice(.string(preset), text, summary: ""), customScoring])
  }

  /// `custom` scoring: the constants below, which a small form does not ask for.
  static let customScoring = SettingChoice(
    "custom", "Custom (your own constants)", summary: "Custom scoring", offered: false)

  /// The three constants of `custom` scoring, in the ranges
  /// ``TableOptions/applyCustomScoring(_:to:)`` takes, starting from `preset`'s.
  public static func customConstants(_ preset: GameSettings) -> [SettingDescription] {
    let custom: [String: JSONValue] = ["scoring": "custom"]
    return [
      SettingDescription(
        "costToChoose", label: "Cost to choose", default: .int(preset.costToChoose),
        range: 0...10, requires: custom),
      SettingDescription(
        "mismatchPenalty", label: "Mismatch penalty", default: .int(preset.mismatchPenalty),
        range: 0...20, requires: custom),
      SettingDescription(
        "matchBonus", label: "Match bonus", default: .int(preset.matchBonus), range: 1...20,
        requires: custom),
    ]
  }

  /// Whether players see each other's picks: only with others (spectators always do);
  /// `hidable` false: always shown (a game played in view of all).
  public static func showSelections(hidable: Bool = true) -> SettingDescription {
    let shown = SettingChoice(true, "shown", summary: "")
    let hidden = SettingChoice(false, "hidden", summary: "opponents’ picks hidden")
    return SettingDescription(
      "showSelections", label: "Opponents’ picks", default: true,
      choices: hidable ? [shown, hidden] : [shown], withOthersOnly: true)
  }

  /// The settings of a game of Set's family (``TableOptions/setFamilySettings``): its scoring,
  /// board sizes and fixed match size, the custom constants and the picks shown or hidden.
  public static func setFamily(
    _ match: MatchWords, boardSizes: [Int], preset: GameSettings
  ) -> [SettingDescription] {
    [
      setFamilyScoring(match), boardSize(boardSizes, default: preset.boardSize),
      fixedMatchSize(preset.matchSize),
    ] + customConstants(preset) + [showSelections()]
  }
}
