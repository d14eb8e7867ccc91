import Model
import Protocol

/// Set: 81 cards of four features, sets of three found on a face-up board. Scored the course's
/// way alone and the classic way (a set is a point) with others, unless the table says.
public enum SetGame: GameDefinition {
  public typealias Card = SetCard

  public static func setup(seats: Int, options: TableOptions) throws(SettingsProblem)
    -> TableSetup
  {
    let scoring = options.scoring ?? (seats == 1 ? "course" : "classic")
    guard ["classic", "course", "custom"].contains(scoring) else {
      throw SettingsProblem("Setting 'scoring' must be 'classic', 'course' or 'custom'.")
    }
    var settings = GameSettings.set(
      seats: seats, scoring: scoring == "classic" ? .classic : .course)
    if let boardSize = options.boardSize {
      guard [9, 12, 15, 18, 21].contains(boardSize) else {
        throw SettingsProblem("Setting 'boardSize' must be 9, 12, 15, 18 or 21 for Set.")
      }
      settings.boardSize = boardSize
    }
    if options.matchSize.map({ $0 != 3 }) ?? false {
      throw SettingsProblem("A set is always three cards: 'matchSize' must be 3.")
    }
    try options.applyCustomScoring(scoring, to: &settings)
    try options.refuseTurnSeconds()
    try options.refuseTheme()
    return TableSetup(Self.self, settings: settings, showSelections: options.showSelections ?? true)
  }
}
