import Model
import Protocol

/// A game's description for clients (`welcome`'s `games`), made from its definition: the
/// words and settings it states, and what its default table shows (match size, board, growth,
/// face down, turns, a chain).
extension GameDefinition {
  /// The game as `welcome` describes it. Hints are offered where its default table offers them
  /// (``GameSettings/offersHints``: face-up boards); computers play every game
  /// (``TableState/planBots(now:)``).
  public static var gameDescription: GameDescription {
    let settings: GameSettings
    do {
      settings = try setup(seats: 1, options: TableOptions()).settings
    } catch {
      preconditionFailure("\(name): a table with the defaults is refused: \(error.message)")
    }
    let matchSizes = settingDescriptions.first { $0.name == "matchSize" }?.choices.compactMap {
      if case .int(let size) = $0.value { size } else { nil }
    }
    return GameDescription(
      name: name, title: title, rules: rules, match: matchWords, matchSize: settings.matchSize,
      boardSize: settings.boardSize,
      growth: settings.dealsMoreWhenNoMatch ? settings.extraDealSize : 0,
      hints: settings.offersHints, chain: Card.chainsMatches, faceDown: settings.faceDown,
      turnBased: settings.turnBased,
      computers: true, settings: settingDescriptions,
      texts: GameTexts(
        match: matchWords, matchSize: settings.matchSize, matchSizes: matchSizes ?? [],
        chain: Card.chainsMatches))
  }
}
