import Model
import Protocol

/// The games this server deals, by wire name, and how a table of each is opened. Adding a game
/// means one more entry here: the lobby and the table only see ``TableArbiter``.
public enum GameCatalog {
  /// The wire names of the games served.
  public static let games: Set<String> = [SetCard.gameName]

  /// A new table of `game` (which must be one of ``games``). With `soloName`, a one-seat table
  /// already dealt and playing for that player; otherwise an empty table waiting for players.
  static func table(
    game: String, id: String, code: String, isPrivate: Bool, seats: Int,
    solo: (name: String, token: String)?, seed: UInt64, rules: TableRules, now: Double
  ) -> any TableArbiter {
    precondition(games.contains(game), "unknown game \(game)")
    if let solo {
      return TableState<SetCard>(
        id: id, settings: .set(seats: 1), seed: seed, names: [solo.name], tokens: [solo.token],
        code: code, rules: rules)
    }
    return TableState<SetCard>(
      id: id, code: code, isPrivate: isPrivate, settings: .set(seats: seats), seed: seed,
      rules: rules, now: now)
  }
}
