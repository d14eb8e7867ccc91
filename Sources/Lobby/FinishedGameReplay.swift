import Model
import Protocol

/// A finished game played again from its record: the `record` answer, whose replay is the
/// table as a spectator saw it when play began and the diff each move made — the same
/// snapshot and diffs a live client follows, so a client draws any step of it with the code
/// that draws a live game.
public enum FinishedGameReplay {
  /// The most moves a replay is made of. A game is kept whatever its length, but a replay
  /// goes to the client as one message, which the transport must be able to queue (4 MiB per
  /// connection): a longer game is answered `unavailable` (its record is still listed).
  public static let mostMoves = 8_192
  /// The most bytes a replay's diffs may take (``RecordReplay/size``), for the same reason.
  public static let mostBytes = 3 << 20

  /// The `record` message answering `replyTo` with `game`, or nil when its moves do not replay
  /// (a record from another version of the rules: nothing a client could be shown).
  public static func answer(_ game: FinishedGame, replyTo: MessageID?) -> Frame? {
    replay(game)?.answer(replyTo: replyTo)
  }

  /// `game` played again, or nil when its moves do not replay (or its game is not served).
  public static func replay(_ game: FinishedGame) -> RecordReplay? {
    guard let definition = GameCatalog.registry.game(named: game.game) else { return nil }
    func open<Game: GameDefinition>(_: Game.Type) -> RecordReplay? {
      guard let (table, diffs) = Game.replay(game) else { return nil }
      let lookBack = GameLookBack.of(
        Game.Card.self, settings: game.settings, seed: game.seed, moves: game.moves.map(\.move),
        times: game.moves.map(\.at))
      return RecordReplay(game: game, table: table, diffs: diffs, lookBack: lookBack)
    }
    return open(definition)
  }
}

/// A finished game with its replay made: what a `record` answer holds but the id of the
/// question it answers. A finished game never changes, so one can be kept and answered again.
public struct RecordReplay: Sendable {
  /// The game.
  public let game: FinishedGame
  /// The table as a spectator saw it when play began.
  public let table: JSONValue
  /// The diff each move made.
  public let diffs: [Frame]
  /// The game's look back, if it has one.
  public let lookBack: GameLookBack?
  /// A daily puzzle's comparison with the day's results, added to the look back
  /// (``ServerMessage/lookBack(_:seats:daily:)``).
  public let daily: JSONValue?

  /// A replay of `game`.
  public init(
    game: FinishedGame, table: JSONValue, diffs: [Frame], lookBack: GameLookBack? = nil,
    daily: JSONValue? = nil
  ) {
    self.game = game
    self.table = table
    self.diffs = diffs
    self.lookBack = lookBack
    self.daily = daily
  }

  /// The `record` message answering `replyTo`.
  public func answer(replyTo: MessageID?) -> Frame {
    ServerMessage.record(
      game,
      lookBack: lookBack.map {
        ServerMessage.lookBack($0, seats: game.settings.seats, daily: daily)
      }, table: table, diffs: diffs, replyTo: replyTo)
  }

  /// About how many bytes it holds: its diffs, and a little per move and player.
  public var size: Int {
    diffs.reduce(0) { $0 + $1.count } + 64 * (game.moves.count + game.players.count) + 1_024
  }
}

/// The replays answered last, kept so that a game many people look at, or one client asking
/// again and again, is read and played only once: at most `capacity` bytes (``RecordReplay/size``)
/// of them, the least recently asked for going first.
public struct ReplayCache: Sendable {
  /// Most bytes kept.
  public let capacity: Int
  /// By game id, with when each was last asked for.
  private var entries: [String: (replay: RecordReplay, used: UInt64)] = [:]
  private var clock: UInt64 = 0
  /// Bytes kept now.
  public private(set) var size = 0

  /// An empty cache of at most `capacity` bytes.
  public init(capacity: Int) {
    self.capacity = capacity
  }

  /// How many replays are kept.
  public var count: Int { entries.count }

  /// The replay of the game `id`, if kept; it becomes the most recently used.
  public mutating func replay(id: String) -> RecordReplay? {
    guard let entry = entries[id] else { return nil }
    clock += 1
    entries[id]?.used = clock
    return entry.replay
  }

  /// Keeps `replay` under `id`, letting the least recently used go until it fits. A replay
  /// bigger than the whole cache is not kept.
  public mutating func keep(_ replay: RecordReplay, id: String) {
    let bytes = replay.size
    guard bytes <= capacity else { return }
    if let old = entries.removeValue(forKey: id) { size -= old.replay.size }
    while size + bytes > capacity,
      let oldest = entries.min(by: { $0.value.used < $1.value.used })
    {
      entries[oldest.key] = nil
      size -= oldest.value.replay.size
    }
    clock += 1
    entries[id] = (replay, clock)
    size += bytes
  }
}
