import Model
import Protocol

/// Everything one game is: its cards (``Card``: the deck, the match rule, how the cards and the
/// game's name go on the wire) and its table settings (the presets and what a client may change,
/// ``setup(seats:options:)``). Dealing, restoring and replaying are the engine's, the same for
/// every game (``table(_:id:code:isPrivate:solo:seed:rules:now:)``,
/// ``restore(_:moves:rules:now:)``, ``replay(_:)``).
///
/// Adding a game is one type conforming to this protocol and one entry in
/// ``GameRegistry/standard``; nothing else in the lobby, the table or the protocol names a game,
/// and clients learn it from its description in `welcome` (``gameDescription``).
public protocol GameDefinition: Sendable {
  /// The cards the game is played with.
  associatedtype Card: WireCard

  /// The setup of a new table of the game with `seats` seats and the options a client chose
  /// (nil keeps the game's default), or the problem with them (sent as `badSettings`).
  static func setup(seats: Int, options: TableOptions) throws(SettingsProblem) -> TableSetup

  /// The game's name for people: "Set-Chain".
  static var title: String { get }
  /// The rule in a sentence or two, for a lobby.
  static var rules: String { get }
  /// What a match is called: "set", "pair".
  static var matchWords: MatchWords { get }
  /// The settings ``setup(seats:options:)`` takes, in the order a form shows them, described
  /// for clients (`welcome`'s `games`; `GameDescriptionTests` holds `setup` to them).
  static var settingDescriptions: [SettingDescription] { get }
}

extension GameDefinition {
  /// The game's name on the wire.
  public static var name: String { Card.gameName }

  /// A new table set up as `setup` says. With `solo`, a one-seat table already dealt and
  /// playing for that player; otherwise an empty table waiting for players.
  public static func table(
    _ setup: TableSetup, id: String, code: String, isPrivate: Bool,
    solo: (name: String, token: String, player: String?)?, seed: UInt64, rules: TableRules,
    now: Double, daily: String? = nil
  ) -> TableState<Card> {
    let turnSeconds = setup.turnSeconds.map(Double.init)
    if let solo {
      var table = TableState<Card>(
        id: id, settings: setup.settings, seed: seed, names: [solo.name], tokens: [solo.token],
        players: [solo.player], code: code, rules: rules, turnSeconds: turnSeconds,
        selectionsVisible: setup.showSelections, now: now)
      table.daily = daily
      return table
    }
    var table = TableState<Card>(
      id: id, code: code, isPrivate: isPrivate, settings: setup.settings, seed: seed,
      rules: rules, now: now, turnSeconds: turnSeconds, selectionsVisible: setup.showSelections)
    // Computers are offered at public tables only.
    if !isPrivate { table.offer.after = setup.offerComputer }
    return table
  }

  /// The table of `record` opened again after a restart, its deal replayed from `moves`.
  public static func restore(
    _ record: TableRecord, moves: [JournalMove], rules: TableRules, now: Double
  ) -> TableState<Card> {
    TableState<Card>(restoring: record, moves: moves, rules: rules, now: now)
  }

  /// The finished game `record` played again: the table as a spectator saw it when play began
  /// and the diff each move made, or nil when its moves do not replay (a record from another
  /// version of the rules).
  public static func replay(_ record: FinishedGame) -> (table: JSONValue, diffs: [Frame])? {
    var names = (0..<record.settings.seats).map { "Seat \($0 + 1)" }
    for player in record.players where names.indices.contains(player.seat) {
      names[player.seat] = player.name
    }
    var table = TableState<Card>(
      id: record.id, settings: record.settings, seed: record.seed, names: names,
      selectionsVisible: true, now: 0)
    guard let start = table.snapshot(replyTo: nil, you: nil, now: 0)["table"] else { return nil }
    var diffs: [Frame] = []
    diffs.reserveCapacity(record.moves.count)
    for timed in record.moves {
      guard let frame = table.replay(timed.move, at: timed.at) else { return nil }
      diffs.append(frame)
    }
    return (start, diffs)
  }
}

/// Why the options a client chose do not fit a game: the message of its `badSettings` refusal.
public struct SettingsProblem: Error, Hashable, Sendable {
  /// What does not fit, in words for the player.
  public let message: String

  /// A problem saying `message`.
  public init(_ message: String) {
    self.message = message
  }
}
