import Model
import Protocol

/// A computer player's plan at a table and the board it was made on: a new board, a new plan.
struct PlannedBot: Hashable, Sendable {
  /// The board's card ids when the plan was made.
  var board: [Int]
  /// When it was made (the board changed then, or the table came back after a restart).
  var since: Double
  /// What the bot will do, or nil while it has nothing to do (no match showing, not playing).
  var plan: BotPlan?
}

/// Computer players (issue 33): a bot sits in a seat as a person does, with no session and no
/// socket, and plays from a plan (``BotPlan``) made whenever the board it sees changes, drawn
/// from the table's deal, its moves so far and the seat, so that a table replays exactly. The
/// table's clock runs the plans (``tick(now:)``, ``nextDeadline``); their moves are ordinary
/// moves: judged, broadcast, journaled and replayed after a restart like anyone's.
extension TableState {
  /// The name a computer player of `level` sits under in `seat`: it says it is one.
  public static func botName(_ level: BotLevel, seat: Int) -> String {
    "Computer \(seat + 1) (\(level.name))"
  }

  /// The seats a computer plays, and at what level.
  public var botSeats: [Int: BotLevel] {
    var bots: [Int: BotLevel] = [:]
    for (seat, player) in seats.enumerated() { if let level = player?.bot { bots[seat] = level } }
    return bots
  }

  /// Seats a computer player of `level` in the lowest free seat (refused as a person would
  /// be); a full table starts its countdown.
  public mutating func sitBot(level: BotLevel, replyTo: MessageID?, now: Double) -> Result<
    (seat: Int, broadcast: Broadcast), ProtocolError
  > {
    let seat = seats.firstIndex { $0 == nil } ?? 0
    let result = sit(
      token: "computer-\(seat)", name: Self.botName(level, seat: seat), player: nil, bot: level,
      replyTo: replyTo, now: now)
    if case .success((let seated, _)) = result {
      // A computer never hosts: the first person to sit does.
      if host == seated { host = nil }
      planBots(now: now)
    }
    return result
  }

  /// Whether computer players sit here.
  public var hasBots: Bool { seats.contains { $0?.bot != nil } }

  /// When the next computer player's claim is due (or, where computers play alone, the next
  /// game), if any.
  var nextBotMove: Double? {
    ([nextGameAt] + botPlans.values.map { $0.plan?.at }).compactMap { $0 }.min()
  }

  /// Seconds between a game computers played alone and their next.
  static var secondsBetweenGames: Double { 3 }

  /// Computers alone play on here: the table is never empty, and deals again after each game.
  public mutating func playOnAlone() {
    playsAlone = true
    emptySince = nil
  }

  /// Makes a plan for every computer player whose board changed since its last one (or that
  /// has none), while the game is played. At a face-up board a chain's rule is kept: the plan
  /// claims only matches a player may claim now (``CardMatchingGame/claimableMatches``). At a
  /// face-down board every move is a change (a face turned or hidden), and a bot plans its next
  /// card from what it recalls (``BotPlan/faceDown(level:board:matched:holding:recalled:size:since:using:)``),
  /// on its turn where seats take turns.
  mutating func planBots(now: Double) {
    let bots = botSeats
    guard !bots.isEmpty else { return }
    let playing = phase == .playing && !game.isOver
    let faceDown = game.settings.faceDown
    let board =
      !playing ? [] : faceDown ? [movesAccepted] : game.board.map(\.id) + game.chain.map(\.id)
    for (seat, level) in bots {
      if let planned = botPlans[seat], planned.board == board, planned.plan != nil || !playing {
        continue
      }
      let seed = BotPlan.seed(dealSeed: game.dealSeed, moves: record.moves.count, seat: seat)
      var plan =
        !playing
        ? nil
        : faceDown
          ? faceDownPlan(seat: seat, level: level, now: now, seed: seed)
          : BotPlan.make(
            level: level, matches: game.claimableMatches, board: game.board,
            size: game.settings.matchSize, since: now, seed: seed)
      if let at = plan?.at { plan?.at = now + (at - now) * rules.botPace }
      botPlans[seat] = PlannedBot(board: board, since: now, plan: plan)
    }
  }

  /// The next card of the bot in `seat` at a face-down board: none while another seat has
  /// the turn.
  private func faceDownPlan(seat: Int, level: BotLevel, now: Double, seed: UInt64) -> BotPlan? {
    if let turn = game.turn, turn != seat { return nil }
    var generator = SeededGenerator(seed: seed)
    let recalled = botMemory.recalled(by: seat, level: level, using: &generator)
    let holding = game.players[seat].selection.compactMap { id in
      game.board.firstIndex { $0.id == id }
    }
    return BotPlan.faceDown(
      level: level, board: game.board, matched: game.matchedOnBoard, holding: holding,
      recalled: recalled, size: game.settings.matchSize, since: now, using: &generator)
  }

  /// Notes the faces a move's `events` showed to each computer player: a card turned up is
  /// seen by every seat, or only by its chooser while selections are hidden (then a judged
  /// miss shows its cards to all). A re-deal forgets everything.
  mutating func noteFaces(_ events: [GameEvent<Card>]) {
    let bots = botSeats.keys.sorted()
    func slots(_ cards: [Card]) -> [Int] {
      cards.compactMap { card in game.board.firstIndex(of: card) }
    }
    for event in events {
      switch event {
      case .redealt:
        botMemory.forget()
      case .turnedUp(let seat, let card):
        botMemory.saw(slots([card]), by: selectionsVisible ? bots : bots.filter { $0 == seat })
      case .mismatched(let seat, let cards, _) where !selectionsVisible:
        botMemory.saw(slots(cards), by: bots.filter { $0 != seat })
      default:
        break
      }
    }
  }

  /// Carries out every computer player's claim due at `now` (letting go first of chosen cards
  /// its claim does not take), then plans again.
  mutating func runBots(now: Double) -> [Broadcast] {
    var broadcasts: [Broadcast] = []
    if let due = nextGameAt, now >= due, let first = botSeats.keys.min(),
      case .success(let (_, b)) = play(.redeal(seat: first), replyTo: nil, now: now)
    {
      nextGameAt = nil
      broadcasts.append(b)
    }
    planBots(now: now)
    for seat in botPlans.keys.sorted() {
      guard let plan = botPlans[seat]?.plan, plan.at <= now, phase == .playing, !game.isOver
      else { continue }
      let held = game.players[seat].selection
      let moves =
        plan.keepsSelection
        ? plan.cards
        : held.filter { !plan.cards.contains($0) } + plan.cards.filter { !held.contains($0) }
      for card in moves {
        guard
          case .success(let (_, b)) = play(.choose(seat: seat, card: card), replyTo: nil, now: now)
        else { break }
        broadcasts.append(b)
      }
      // A plan is carried out once. A match changed the board, and every computer planned
      // again as it did (``play``); a miss left the board as it was: plan on it now.
      if botPlans[seat]?.plan == plan { botPlans[seat]?.plan = nil }
      planBots(now: now)
    }
    if playsAlone, phase == .finished, nextGameAt == nil {
      nextGameAt = now + Self.secondsBetweenGames
    }
    return broadcasts
  }
}
