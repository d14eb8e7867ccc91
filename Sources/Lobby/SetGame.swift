import Model
import Protocol

/// Set: 81 cards of four features, sets of three found on a face-up board. Scored the course's
/// way alone and the classic way (a set is a point) with others, unless the table says.
public enum SetGame: GameDefinition {
  public typealias Card = SetCard

  /// The board sizes a table may choose (12 unless it says).
  public static let boardSizes = [9, 12, 15, 18, 21]

  public static let title = "Set"

  public static let rules =
    "Find three cards where every feature — number, symbol, shading, colour — is all the same"
    + " or all different on each card. Race others to it, or play alone."

  public static let matchWords = MatchWords("set", "sets")

  public static var settingDescriptions: [SettingDescription] {
    SettingDescription.setFamily(matchWords, boardSizes: boardSizes, preset: .set())
  }

  public static func setup(seats: Int, options: TableOptions) throws(SettingsProblem)
    -> TableSetup
  {
    let settings = try options.setFamilySettings(
      seats: seats, title: "Set", boardSizes: boardSizes,
      matchSizeRule: "A set is always three cards: 'matchSize' must be 3."
    ) { .set(seats: seats, scoring: $0) }
    return TableSetup(Self.self, settings: settings, showSelections: options.showSelections ?? true)
  }
}
