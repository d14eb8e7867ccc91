import Model
import Protocol

/// Games against the computer (`playBot`): a private table of the game with 1–3 computer
/// players of one level, the player sitting last, which starts it.
extension LobbyState {
  mutating func playBot(
    _ game: String, _ levelName: String, _ bots: Int, _ options: TableOptions,
    _ session: SessionRegistry.Session, replyTo: MessageID?, _ connection: ConnectionID,
    now: Double
  ) {
    guard checkGame(game, replyTo: replyTo, connection) else { return }
    guard let level = BotLevel.named(levelName) else {
      return reply(BotLevel.levelProblem(replyTo: replyTo), to: connection)
    }
    // The games computers play say so in their description (`computers`).
    let described = GameCatalog.registry.descriptions.first { $0.name == game }
    guard let described, described.computers else {
      return reply(
        ProtocolError(
          .noBots, "Computer players do not play \(described?.title ?? game) yet.",
          replyTo: replyTo), to: connection)
    }
    guard let setup = checkSetup(game, seats: 1 + bots, options, replyTo: replyTo, connection),
      checkCanOpen(session, replyTo: replyTo, connection)
    else { return }
    leaveTable(session, now: now)
    let id = openTable(
      setup, isPrivate: true, creator: session.token,
      bots: Array(repeating: level, count: bots), now: now)
    sit(session, connection, at: id, replyTo: replyTo, now: now)
  }
}

extension LobbyState {
  /// Opens ``LobbyConfiguration/computerTables`` private tables of Set with four expert
  /// computers each, which play on by themselves (``TableArbiter/playOnAlone()``): what
  /// computers cost, measured without a socket.
  public mutating func openComputerTables(now: Double) {
    guard configuration.computerTables > 0,
      case .success(let setup) = GameCatalog.setup(
        game: "set", seats: 4, options: TableOptions(), replyTo: nil)
    else { return }
    for _ in 0..<configuration.computerTables {
      let id = openTable(
        setup, isPrivate: true, creator: "computers", bots: Array(repeating: .expert, count: 4),
        now: now)
      hosts.withHost(id) { $0.table.playOnAlone() }
      settle(id, now: now)
    }
  }
}

extension BotLevel {
  /// The refusal of a `level` that is none.
  static func levelProblem(replyTo: MessageID?) -> ProtocolError {
    let levels = all.map { "'\($0.name)'" }.joined(separator: ", ")
    return ProtocolError(.badField, "Field 'level' must be one of \(levels).", replyTo: replyTo)
  }
}
