import Model
import Protocol

/// What a new table is made of: the game's rules and the table's own options.
public struct TableSetup: Hashable, Sendable {
  /// The game's wire name.
  public var game: String
  /// The rules of the game.
  public var settings: GameSettings
  /// Seconds a turn may last before it passes (turn-based games), or nil for no limit.
  public var turnSeconds: Int?
  /// Whether players see each other's selections (spectators always do).
  public var showSelections = true
  /// Seconds a person waits alone at the table, if it is public, before a computer player is
  /// offered (nil: never; ``ComputerOffer``).
  public var offerComputer: Double? = ComputerOffer.defaultAfter

  /// A table of `Game` with `settings`.
  public init<Game: GameDefinition>(
    _: Game.Type, settings: GameSettings, turnSeconds: Int? = nil, showSelections: Bool = true
  ) {
    self.game = Game.name
    self.settings = settings
    self.turnSeconds = turnSeconds
    self.showSelections = showSelections
  }
}

/// The games this server deals (``registry``) and how a table of each is set up, opened and
/// restored. The lobby and the table only see ``TableArbiter``; each game is one
/// ``GameDefinition``.
public enum GameCatalog {
  /// The games served: ``GameRegistry/standard``, unless a caller binds another for the work
  /// of its task (a test adds a game of its own this way, without the lobby knowing).
  @TaskLocal public static var registry = GameRegistry.standard

  /// The wire names of the games served.
  public static var games: Set<String> { registry.names }

  /// The seconds a Concentration turn lasts at a multiplayer table unless the table says.
  public static var defaultTurnSeconds: Int { ConcentrationGame.defaultTurnSeconds }

  /// The setup of a new table of `game` with `seats` seats and the client's `options`, or the
  /// `badSettings` refusal naming what does not fit. `game` must be one of ``games``; its
  /// defaults are its definition's (``GameDefinition/setup(seats:options:)``).
  public static func setup(
    game: String, seats: Int, options: TableOptions, replyTo: MessageID?
  ) -> Result<TableSetup, ProtocolError> {
    guard let definition = registry.game(named: game) else {
      preconditionFailure("unknown game \(game)")
    }
    do {
      var setup = try definition.setup(seats: seats, options: options)
      // 0: never.
      if let seconds = options.offerComputer {
        setup.offerComputer = seconds > 0 ? Double(seconds) : nil
      }
      return .success(setup)
    } catch {
      return .failure(ProtocolError(.badSettings, error.message, replyTo: replyTo))
    }
  }

  /// A new table set up as `setup` says. With `solo`, a one-seat table already dealt and
  /// playing for that player; otherwise an empty table waiting for players.
  static func table(
    _ setup: TableSetup, id: String, code: String, isPrivate: Bool,
    solo: (name: String, token: String, player: String?)?, seed: UInt64, rules: TableRules,
    now: Double, daily: String? = nil
  ) -> any TableArbiter {
    guard let definition = registry.game(named: setup.game) else {
      preconditionFailure("unknown game \(setup.game)")
    }
    func open<Game: GameDefinition>(_: Game.Type) -> any TableArbiter {
      Game.table(
        setup, id: id, code: code, isPrivate: isPrivate, solo: solo, seed: seed, rules: rules,
        now: now, daily: daily)
    }
    return open(definition)
  }

  /// The table of `record` opened again after a restart, its deal replayed from `moves`.
  /// Throws ``UnknownGameError`` naming the game and the table when this server does not deal
  /// the game: it must not become another game, nor be dropped unsaid.
  public static func reopen(
    _ record: TableRecord, moves: [JournalMove], rules: TableRules, now: Double
  ) throws(UnknownGameError) -> any TableArbiter {
    guard let definition = registry.game(named: record.game) else {
      throw UnknownGameError(game: record.game, table: record.id)
    }
    func open<Game: GameDefinition>(_: Game.Type) -> any TableArbiter {
      Game.restore(record, moves: moves, rules: rules, now: now)
    }
    return open(definition)
  }

  /// Checks that this server deals the game of every table `contents` holds, before any is
  /// opened; throws ``UnknownGameError`` for the first that it does not.
  public static func check(_ contents: JournalContents) throws(UnknownGameError) {
    let served = registry
    for (record, _) in contents.tables where served.game(named: record.game) == nil {
      throw UnknownGameError(game: record.game, table: record.id)
    }
  }
}
