import Model
import Protocol

/// Set Junior: Set for beginners, on 27 cards of three features (every symbol solid), sets of
/// three found on a face-up board of 9. Scored like Set: the course's way alone and the
/// classic way (a set is a point) with others, unless the table says.
public enum SetJuniorGame: GameDefinition {
  public typealias Card = JuniorSetCard

  /// The board sizes a table may choose (9 unless it says). Any ten of the 27 cards hold a set,
  /// so 12 never needs more cards; 6 often does.
  public static let boardSizes = [6, 9, 12]

  public static let title = "Set Junior"

  public static let rules =
    "Set with three features — number, symbol, colour — and 27 cards, all solid: three cards"
    + " are a set when each feature is all the same or all different."

  public static let matchWords = MatchWords("set", "sets")

  public static var settingDescriptions: [SettingDescription] {
    SettingDescription.setFamily(matchWords, boardSizes: boardSizes, preset: .setJunior())
  }

  public static func setup(seats: Int, options: TableOptions) throws(SettingsProblem)
    -> TableSetup
  {
    let settings = try options.setFamilySettings(
      seats: seats, title: "Set Junior", boardSizes: boardSizes,
      matchSizeRule: "A set is always three cards: 'matchSize' must be 3."
    ) { .setJunior(seats: seats, scoring: $0) }
    return TableSetup(Self.self, settings: settings, showSelections: options.showSelections ?? true)
  }
}
