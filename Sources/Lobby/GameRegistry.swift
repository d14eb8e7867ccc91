import Crypto
import Model
import Protocol

/// The games a server deals, by wire name: one ``GameDefinition`` each. Asked when a table
/// opens, is restored or is replayed, never per move: a table, once made, is a ``TableState``
/// of its game's cards behind ``TableArbiter``.
public struct GameRegistry: Sendable {
  /// The games this server deals, in the order a lobby offers them (Set and its variants, then
  /// the course's other two).
  public static let standard = GameRegistry()
    .adding(SetGame.self)
    .adding(SetJuniorGame.self)
    .adding(UltraSetGame.self)
    .adding(SetChainGame.self)
    .adding(MatchismoGame.self)
    .adding(ConcentrationGame.self)

  private var games: [String: any GameDefinition.Type] = [:]
  /// The games' descriptions, in the order they were added (a lobby offers them so).
  public private(set) var descriptions: [GameDescription] = []
  /// ``descriptions`` as `welcome` sends them, made once when a game is added, not per hello.
  public private(set) var descriptionsJSON: JSONValue = .array([])
  /// Names ``descriptionsJSON`` (`welcome`'s `gamesVersion`): the first 16 hex digits of the
  /// SHA-256 of its bytes, so that a client holding these descriptions need not get them again.
  public private(set) var descriptionsVersion = GameRegistry.version(of: .array([]))

  /// A registry of no games.
  public init() {}

  /// The wire names of the games.
  public var names: Set<String> { Set(games.keys) }

  /// This registry with `game` added (in place of a game of the same name, whose place in the
  /// order it takes).
  public func adding<Game: GameDefinition>(_ game: Game.Type) -> GameRegistry {
    var registry = self
    registry.games[Game.name] = game
    let description = Game.gameDescription
    if let index = registry.descriptions.firstIndex(where: { $0.name == Game.name }) {
      registry.descriptions[index] = description
    } else {
      registry.descriptions.append(description)
    }
    registry.descriptionsJSON = .array(registry.descriptions.map(\.json))
    registry.descriptionsVersion = Self.version(of: registry.descriptionsJSON)
    return registry
  }

  private static func version(of descriptions: JSONValue) -> String {
    let hex = Array("0123456789abcdef".utf8)
    var digits: [UInt8] = []
    for byte in SHA256.hash(data: descriptions.encoded).prefix(8) {
      digits += [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
    }
    return String(decoding: digits, as: UTF8.self)
  }

  /// The definition of the game named `name` on the wire, if it is one of these.
  public func game(named name: String) -> (any GameDefinition.Type)? {
    games[name]
  }
}
