import Model
import Protocol

/// Checks of the options a client chose that several games share (see ``GameDefinition``).
extension TableOptions {
  /// Refuses a turn length: for games that are not played in turns.
  public func refuseTurnSeconds() throws(SettingsProblem) {
    if turnSeconds != nil {
      throw SettingsProblem("Only Concentration has turns: 'turnSeconds' does not apply.")
    }
  }

  /// Refuses a theme: for games whose cards have no themes.
  public func refuseTheme() throws(SettingsProblem) {
    if theme != nil {
      throw SettingsProblem("Only Concentration has themes: 'theme' does not apply.")
    }
  }

  /// Applies the custom scoring constants chosen (allowed only when `scoring` is `custom`) to
  /// `settings`.
  public func applyCustomScoring(_ scoring: String, to settings: inout GameSettings)
    throws(SettingsProblem)
  {
    let given = [costToChoose, mismatchPenalty, matchBonus]
    guard scoring == "custom" else {
      if given.contains(where: { $0 != nil }) {
        throw SettingsProblem("Scoring constants need 'scoring': 'custom'.")
      }
      return
    }
    if let cost = costToChoose {
      guard (0...10).contains(cost) else {
        throw SettingsProblem("Setting 'costToChoose' must be 0...10.")
      }
      settings.costToChoose = cost
    }
    if let penalty = mismatchPenalty {
      guard (0...20).contains(penalty) else {
        throw SettingsProblem("Setting 'mismatchPenalty' must be 0...20.")
      }
      settings.mismatchPenalty = penalty
    }
    if let bonus = matchBonus {
      guard (1...20).contains(bonus) else {
        throw SettingsProblem("Setting 'matchBonus' must be 1...20.")
      }
      settings.matchBonus = bonus
    }
  }
}
