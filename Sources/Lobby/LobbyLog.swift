/// Something the lobby has to say in the server's log. The lobby has no logger (it is a pure
/// value); it hands these to its shell (``LobbyAction/log(_:)``), which writes them.
public enum LobbyLog: Hashable, Sendable {
  /// A table taken over from a node that died holds a game this server does not deal (a node
  /// of another version): it was not opened here, and its players cannot be seated by this node.
  case tableNotAdopted(UnknownGameError)
  /// An arena ended, won by `winner` among `players`.
  case arenaFinished(id: String, winner: String, players: Int)

  /// The line for the log.
  public var message: String {
    switch self {
    case .tableNotAdopted(let error):
      "not taking over table \(error.table): its game '\(error.game)' is not dealt here"
    case .arenaFinished(let id, let winner, let players):
      "arena \(id) finished: \(winner) won among \(players) players"
    }
  }

  /// The structured fields of the line (the table's id and game).
  public var metadata: [String: String] {
    switch self {
    case .tableNotAdopted(let error): ["table": error.table, "game": error.game]
    case .arenaFinished(let id, let winner, let players):
      ["arena": id, "winner": winner, "players": String(players)]
    }
  }
}
