/// What a `hello` asks of the games' descriptions (its `games` field): `welcome` carries them
/// only when asked, since they are about 12 KB and a client that already holds them (a page
/// reconnecting, a load generator) needs none.
public enum GamesWanted: Hashable, Sendable {
  /// No descriptions: `welcome` names only their version (`gamesVersion`).
  case none
  /// Every description.
  case all
  /// Every description, unless the server's are this version (the `gamesVersion` of a
  /// `welcome` the client had): a client that holds the current ones gets none.
  case unlessVersion(String)

  /// The longest version a client may name (the server's are 16 hex digits).
  public static let maxVersionBytes = 64

  /// Whether a server whose descriptions are `version` sends them.
  public func wants(_ version: String) -> Bool {
    switch self {
    case .none: false
    case .all: true
    case .unlessVersion(let held): held != version
    }
  }

  /// As a `hello` carries it; nil for ``none`` (the field is left out).
  public var json: JSONValue? {
    switch self {
    case .none: nil
    case .all: .bool(true)
    case .unlessVersion(let held): .string(held)
    }
  }
}
