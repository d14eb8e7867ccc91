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
  /// Names ``descriptionsJSON`` (`welcome`'s `gamesVersion`): 16 hex digits of the 64-bit
  /// FNV-1a hash of its bytes, so that a client holding these descriptions need not get them
  /// again. A tag, not a secret: FNV rather than SHA-256 keeps this module free of OpenSSL,
  /// which the fuzz targets' build (`scripts/fuzz.sh`, modules compiled from their sources)
  /// does not link.
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
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in descriptions.encoded {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// The definition of the game named `name` on the wire, if it is one of these.
  public func game(named name: String) -> (any GameDefinition.Type)? {
    games[name]
  }
}
