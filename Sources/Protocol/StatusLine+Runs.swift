extension StatusLine {
  /// The runs of fixed text that status lines and history entries say again and again, each
  /// made once: a run's fields live in an object its copies share (``StyledRun``), and a run
  /// made afresh for every move allocated one and let it go again (callgrind,
  /// docs/BENCHMARKS.md).
  enum Runs {
    static let space = StyledRun.text(" ")
    static let fullStop = StyledRun.text(".")
    static let comma = StyledRun.text(", ")
    static let colon = StyledRun.text(": ")
    static let and = StyledRun.text(" and ")
    static let chose = StyledRun.text(" chose ")
    static let letGoOf = StyledRun.text(" let go of ")
    static let matched = StyledRun.text(" matched ")
    static let missedWith = StyledRun.text(" missed with ")
    static let forPoints = StyledRun.text(" for ")
    static let dontMatch = StyledRun.text(" don't match")
    static let dontMatchFullStop = StyledRun.text(" don't match.")
    static let dontMatchColon = StyledRun.text(" don't match: ")
    static let turn = StyledRun.text(" turn.")
    static let forAChoice = StyledRun.text(" for a choice")
    static let forTheChoices = StyledRun.text(" for the choices")
    static let gameOverColon = StyledRun.text("Game over: ")
    /// A possessive ending after an s ("Gus'"), and after anything else ("Ada's").
    static let apostrophe = StyledRun.text("'")
    static let apostropheS = StyledRun.text("'s")
  }
}
