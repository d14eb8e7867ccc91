import Model
import Protocol

/// UltraSet: Set's 81 cards on a face-up board of 12; a match is four cards that split into two
/// pairs needing the same third card (which need not be on the board). Scored like Set: the
/// course's way alone and the classic way (an UltraSet is a point) with others, unless the
/// table says.
public enum UltraSetGame: GameDefinition {
  public typealias Card = UltraSetCard

  /// The board sizes a table may choose (12 unless it says): Set's. Any ten cards hold an
  /// UltraSet, so only a board of 9 can need 3 more.
  public static let boardSizes = [9, 12, 15, 18, 21]

  public static let title = "UltraSet"

  public static let rules =
    "Find four cards that make two pairs needing the same third card to be a set (that card"
    + " need not be on the table). Race others to it, or play alone."

  public static let matchWords = MatchWords("UltraSet", "UltraSets", article: "an")

  public static var settingDescriptions: [SettingDescription] {
    SettingDescription.setFamily(matchWords, boardSizes: boardSizes, preset: .ultraSet())
  }

  public static func setup(seats: Int, options: TableOptions) throws(SettingsProblem)
    -> TableSetup
  {
    let settings = try options.setFamilySettings(
      seats: seats, title: "UltraSet", boardSizes: boardSizes,
      matchSizeRule: "An UltraSet is always four cards: 'matchSize' must be 4."
    ) { .ultraSet(seats: seats, scoring: $0) }
    return TableSetup(Self.self, settings: settings, showSelections: options.showSelections ?? true)
  }
}
