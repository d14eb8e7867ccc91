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
}

/// The games this server deals, by wire name, their settings and how a table of each is
/// opened. Adding a game means one more entry here: the lobby and the table only see
/// ``TableArbiter``, and the engine is the same for every game.
public enum GameCatalog {
  /// The wire names of the games served.
  public static let games: Set<String> = [
    SetCard.gameName, PlayingCard.gameName, EmojiCard.gameName,
  ]

  /// The seconds a Concentration turn lasts at a multiplayer table unless the table says.
  public static let defaultTurnSeconds = 30

  /// The setup of a new table of `game` with `seats` seats and the client's `options`, or the
  /// `badSettings` refusal naming what does not fit. `game` must be one of ``games``.
  ///
  /// Defaults: Set scores the course's way alone and the classic way with others; Matchismo
  /// deals 24 cards for 2-card matches; Concentration 8 pairs of the first theme, 30-second
  /// turns with others and no limit alone.
  public static func setup(
    game: String, seats: Int, options: TableOptions, replyTo: MessageID?
  ) -> Result<TableSetup, ProtocolError> {
    func refuse(_ message: String) -> Result<TableSetup, ProtocolError> {
      .failure(ProtocolError(.badSettings, message, replyTo: replyTo))
    }
    var settings: GameSettings
    var turnSeconds: Int?
    switch game {
    case SetCard.gameName:
      let scoring = options.scoring ?? (seats == 1 ? "course" : "classic")
      guard ["classic", "course", "custom"].contains(scoring) else {
        return refuse("Setting 'scoring' must be 'classic', 'course' or 'custom'.")
      }
      settings = .set(seats: seats, scoring: scoring == "classic" ? .classic : .course)
      if let boardSize = options.boardSize {
        guard [9, 12, 15, 18, 21].contains(boardSize) else {
          return refuse("Setting 'boardSize' must be 9, 12, 15, 18 or 21 for Set.")
        }
        settings.boardSize = boardSize
      }
      if options.matchSize.map({ $0 != 3 }) ?? false {
        return refuse("A set is always three cards: 'matchSize' must be 3.")
      }
      if let problem = custom(&settings, options, scoring: scoring) { return refuse(problem) }
    case PlayingCard.gameName:
      let matchSize = options.matchSize ?? 2
      guard [2, 3].contains(matchSize) else {
        return refuse("Setting 'matchSize' must be 2 or 3 for Matchismo.")
      }
      let boardSize = options.boardSize ?? 24
      guard (12...40).contains(boardSize) else {
        return refuse("Setting 'boardSize' must be 12...40 for Matchismo.")
      }
      settings = .matchismo(matchSize: matchSize, seats: seats, boardSize: boardSize)
      let scoring = options.scoring ?? "course"
      guard ["course", "custom"].contains(scoring) else {
        return refuse("Setting 'scoring' must be 'course' or 'custom' for Matchismo.")
      }
      if let problem = custom(&settings, options, scoring: scoring) { return refuse(problem) }
    case EmojiCard.gameName:
      let boardSize = options.boardSize ?? 16
      guard (8...20).contains(boardSize), boardSize % 2 == 0 else {
        return refuse("Setting 'boardSize' must be an even number 8...20 for Concentration.")
      }
      let theme = options.theme ?? 0
      guard EmojiCard.themes.indices.contains(theme) else {
        return refuse("Setting 'theme' must be 0...\(EmojiCard.themes.count - 1).")
      }
      if options.matchSize.map({ $0 != 2 }) ?? false {
        return refuse("Concentration matches pairs: 'matchSize' must be 2.")
      }
      settings = .concentration(pairs: boardSize / 2, theme: theme, seats: seats)
      let scoring = options.scoring ?? "custom"
      guard scoring == "custom" else {
        return refuse("Concentration scores a point a pair; 'scoring' may only be 'custom'.")
      }
      if let problem = custom(&settings, options, scoring: scoring) { return refuse(problem) }
      let seconds = options.turnSeconds ?? (seats == 1 ? 0 : defaultTurnSeconds)
      guard seconds == 0 || (5...300).contains(seconds) else {
        return refuse("Setting 'turnSeconds' must be 0 (no limit) or 5...300.")
      }
      turnSeconds = seconds == 0 ? nil : seconds
    default:
      preconditionFailure("unknown game \(game)")
    }
    if options.turnSeconds != nil && game != EmojiCard.gameName {
      return refuse("Only Concentration has turns: 'turnSeconds' does not apply.")
    }
    if options.theme != nil && game != EmojiCard.gameName {
      return refuse("Only Concentration has themes: 'theme' does not apply.")
    }
    // Concentration is played in turns, in front of everyone: the cards turned up are the game.
    if options.showSelections == false && game == EmojiCard.gameName {
      return refuse(
        "Concentration is played in turns in view of all: 'showSelections' must be true.")
    }
    var setup = TableSetup(game: game, settings: settings, turnSeconds: turnSeconds)
    setup.showSelections = options.showSelections ?? true
    return .success(setup)
  }

  /// Applies the custom scoring constants of `options` (allowed only with `custom` scoring).
  private static func custom(
    _ settings: inout GameSettings, _ options: TableOptions, scoring: String
  ) -> String? {
    let given = [options.costToChoose, options.mismatchPenalty, options.matchBonus]
    guard scoring == "custom" else {
      return given.contains { $0 != nil }
        ? "Scoring constants need 'scoring': 'custom'." : nil
    }
    if let cost = options.costToChoose {
      guard (0...10).contains(cost) else { return "Setting 'costToChoose' must be 0...10." }
      settings.costToChoose = cost
    }
    if let penalty = options.mismatchPenalty {
      guard (0...20).contains(penalty) else { return "Setting 'mismatchPenalty' must be 0...20." }
      settings.mismatchPenalty = penalty
    }
    if let bonus = options.matchBonus {
      guard (1...20).contains(bonus) else { return "Setting 'matchBonus' must be 1...20." }
      settings.matchBonus = bonus
    }
    return nil
  }

  /// A new table set up as `setup` says. With `solo`, a one-seat table already dealt and
  /// playing for that player; otherwise an empty table waiting for players.
  static func table(
    _ setup: TableSetup, id: String, code: String, isPrivate: Bool,
    solo: (name: String, token: String, player: String?)?, seed: UInt64, rules: TableRules,
    now: Double
  ) -> any TableArbiter {
    switch setup.game {
    case SetCard.gameName:
      return make(
        SetCard.self, setup, id: id, code: code, isPrivate: isPrivate, solo: solo, seed: seed,
        rules: rules, now: now)
    case PlayingCard.gameName:
      return make(
        PlayingCard.self, setup, id: id, code: code, isPrivate: isPrivate, solo: solo,
        seed: seed, rules: rules, now: now)
    case EmojiCard.gameName:
      return make(
        EmojiCard.self, setup, id: id, code: code, isPrivate: isPrivate, solo: solo, seed: seed,
        rules: rules, now: now)
    default:
      preconditionFailure("unknown game \(setup.game)")
    }
  }

  /// The table of `record` opened again after a restart, its deal replayed from `moves`; nil
  /// for a game this server does not deal.
  static func restore(
    _ record: TableRecord, moves: [JournalMove], rules: TableRules, now: Double
  ) -> (any TableArbiter)? {
    guard Self.games.contains(record.game) else { return nil }
    switch record.game {
    case SetCard.gameName:
      return TableState<SetCard>(restoring: record, moves: moves, rules: rules, now: now)
    case PlayingCard.gameName:
      return TableState<PlayingCard>(restoring: record, moves: moves, rules: rules, now: now)
    default:
      return TableState<EmojiCard>(restoring: record, moves: moves, rules: rules, now: now)
    }
  }

  private static func make<Card: WireCard>(
    _: Card.Type, _ setup: TableSetup, id: String, code: String, isPrivate: Bool,
    solo: (name: String, token: String, player: String?)?, seed: UInt64, rules: TableRules,
    now: Double
  ) -> TableState<Card> {
    let turnSeconds = setup.turnSeconds.map(Double.init)
    if let solo {
      return TableState<Card>(
        id: id, settings: setup.settings, seed: seed, names: [solo.name], tokens: [solo.token],
        players: [solo.player],
        code: code, rules: rules, turnSeconds: turnSeconds,
        selectionsVisible: setup.showSelections, now: now)
    }
    return TableState<Card>(
      id: id, code: code, isPrivate: isPrivate, settings: setup.settings, seed: seed,
      rules: rules, now: now, turnSeconds: turnSeconds, selectionsVisible: setup.showSelections)
  }
}
