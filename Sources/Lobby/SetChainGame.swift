import Model
import Protocol

/// Set-Chain: Set's 81 cards on a face-up board of 12; the first set is any set, and every set
/// after it takes exactly one card of the one before (the chain, beside the board) and two of the
/// board. Scored like Set: the course's way alone and the classic way (a set is a point) with
/// others, unless the table says.
public enum SetChainGame: GameDefinition {
  public typealias Card = SetChainCard

  /// The board sizes a table may choose (12 unless it says): Set's.
  public static let boardSizes = [9, 12, 15, 18, 21]

  public static let title = "Set-Chain"

  public static let rules =
    "Set, chained: the first set is any set; after it, every set takes exactly one card of the"
    + " set before (the chain, shown above the board) and two cards of the table, and becomes"
    + " the next chain."

  public static let matchWords = MatchWords("set", "sets")

  public static var settingDescriptions: [SettingDescription] {
    SettingDescription.setFamily(matchWords, boardSizes: boardSizes, preset: .setChain())
  }

  public static func setup(seats: Int, options: TableOptions) throws(SettingsProblem)
    -> TableSetup
  {
    let settings = try options.setFamilySettings(
      seats: seats, title: "Set-Chain", boardSizes: boardSizes,
      matchSizeRule: "A chain set is always three cards: 'matchSize' must be 3."
    ) { .setChain(seats: seats, scoring: $0) }
    return TableSetup(Self.self, settings: settings, showSelections: options.showSelections ?? true)
  }
}
