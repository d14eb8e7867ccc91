import Model
import Protocol

/// The games a server deals, by wire name: one ``GameDefinition`` each. Asked when a table
/// opens, is restored or is replayed, never per move: a table, once made, is a ``TableState``
/// of its game's cards behind ``TableArbiter``.
public struct GameRegistry: Sendable {
  /// The games this server deals.
  public static let standard = GameRegistry()
    .adding(SetGame.self)
    .adding(MatchismoGame.self)
    .adding(ConcentrationGame.self)
    .adding(SetJuniorGame.self)
    .adding(UltraSetGame.self)
    .adding(SetChainGame.self)

  private var games: [String: any GameDefinition.Type] = [:]

  /// A registry of no games.
  public init() {}

  /// The wire names of the games.
  public var names: Set<String> { Set(games.keys) }

  /// This registry with `game` added (in place of a game of the same name).
  public func adding<Game: GameDefinition>(_ game: Game.Type) -> GameRegistry {
    var registry = self
    registry.games[Game.name] = game
    return registry
  }

  /// The definition of the game named `name` on the wire, if it is one of these.
  public func game(named name: String) -> (any GameDefinition.Type)? {
    games[name]
  }
}
