import Model
import Protocol

/// The settings Set and its variants (Set Junior, UltraSet, Set-Chain) share: the scoring chosen (`classic`
/// with others and `course` alone unless the table says, or `custom` constants), a board size
/// from the game's list, the game's match size and nothing else.
extension TableOptions {
  /// The settings of a game of Set's family named `title` for `seats` seats: `preset` with the
  /// scoring chosen, changed by these options. `boardSizes` are the board sizes the game takes,
  /// `matchSizeRule` the refusal of any match size but the preset's.
  public func setFamilySettings(
    seats: Int, title: String, boardSizes: [Int], matchSizeRule: String,
    preset: (GameSettings.Scoring) -> GameSettings
  ) throws(SettingsProblem) -> GameSettings {
    let scoring = self.scoring ?? (seats == 1 ? "course" : "classic")
    guard ["classic", "course", "custom"].contains(scoring) else {
      throw SettingsProblem("Setting 'scoring' must be 'classic', 'course' or 'custom'.")
    }
    var settings = preset(scoring == "classic" ? .classic : .course)
    if let boardSize {
      guard boardSizes.contains(boardSize) else {
        throw SettingsProblem(
          "Setting 'boardSize' must be \(Self.alternatives(boardSizes)) for \(title).")
      }
      settings.boardSize = boardSize
    }
    if matchSize.map({ $0 != settings.matchSize }) ?? false {
      throw SettingsProblem(matchSizeRule)
    }
    try applyCustomScoring(scoring, to: &settings)
    try refuseTurnSeconds()
    try refuseTheme()
    return settings
  }

  /// "9, 12 or 15".
  static func alternatives(_ values: [Int]) -> String {
    let words = values.map(String.init)
    guard let last = words.last, words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " or " + last
  }
}
