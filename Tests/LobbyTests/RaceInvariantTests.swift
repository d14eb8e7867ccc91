import Lobby
import Model
import Protocol
import TestSupport
import Testing

/// Random interleavings of several players at one table — claims that race each other, stale
/// choices, wrong triples, drops and returns, votes — with the table's invariants checked after
/// every step.
@Suite struct RaceInvariantTests {
  struct Config: Sendable, CustomTestStringConvertible {
    let seed: UInt64
    let seats: Int
    var testDescription: String { "seed \(seed), \(seats) seats" }
  }

  static let configs: [Config] = [1, 7, 42, 2024, 0xBEEF].flatMap { seed in
    (2...4).map { Config(seed: seed, seats: $0) }
  }

  static let steps = 1200

  @Test(arguments: configs)
  func invariantsHoldUnderRacingPlayers(_ config: Config) throws {
    var run = try Run(config)
    try run.play(steps: Self.steps)
  }

  /// Between them the runs exercise the races and the people events they are meant to. The
  /// same runs as above (seeded alike), played again without their invariant checks, which
  /// the runs above make: only what happened is looked at here.
  @Test func theRunsCoverTheRaces() throws {
    var kinds = Set<String>()
    var rejections = Set<ErrorCode>()
    var overlapping = 0
    for config in Self.configs.filter({ $0.seed == 1 || $0.seed == 42 }) {
      var run = try Run(config)
      try run.play(steps: Self.steps, checked: false)
      kinds.formUnion(run.kinds)
      rejections.formUnion(run.rejections)
      overlapping += run.overlappingClaims
    }
    for kind in [
      "select", "deselect", "match", "mismatch", "score", "replace", "deck", "redeal", "over",
      "phase", "vote", "away", "back", "leave", "host",
    ] {
      #expect(kinds.contains(kind), "no \(kind) event")
    }
    #expect(rejections.contains(.cardNotOnTable))
    #expect(rejections.contains(.gameOver))
    #expect(overlapping > 0)
  }

  /// One seeded run.
  struct Run {
    typealias State = TableState<SetCard>

    let config: Config
    var state: State
    var random: SeededGenerator
    var now = 0.0
    /// A spectator's view, built from the wire only.
    var view: TableClientView
    /// Cards each seat has claimed in this game, from `match` events.
    var claimed: [Int: [Int]] = [:]
    /// Each seat's score as the events imply it.
    var expectedScores: [Int]
    /// Each seat's score as the last `score` event said.
    var scoreEvents: [Int: Int] = [:]
    /// Cards that left the board in the latest match.
    var justGone: [Int] = []
    /// What each seat means to choose next.
    var plans: [[Int]]
    /// The game rebuilt from the record so far, and how many of its moves that took.
    var replayed: CardMatchingGame<SetCard>
    var replayedMoves = 0
    var checks = 0
    // Coverage.
    var kinds = Set<String>()
    var rejections = Set<ErrorCode>()
    var overlappingClaims = 0

    init(_ config: Config) throws {
      self.config = config
      var rules = TableRules()
      rules.countdown = 0
      rules.reconnectGrace = 30
      rules.ringSize = 8
      state = State(
        id: "r1", code: "RACE23", isPrivate: false, settings: .set(seats: config.seats),
        seed: config.seed, rules: rules, now: 0)
      random = SeededGenerator(seed: config.seed ^ 0x5EED)
      view = try TableClientView(snapshot: state.snapshot(replyTo: nil, you: nil))
      expectedScores = Array(repeating: 0, count: config.seats)
      plans = Array(repeating: [], count: config.seats)
      replayed = CardMatchingGame(settings: .set(seats: config.seats), seed: config.seed)
    }

    var settings: GameSettings { state.game.settings }

    /// Seats whose players are here and may act.
    var connected: [Int] {
      state.seats.indices.filter { state.seats[$0] != nil && state.seats[$0]?.awayUntil == nil }
    }

    var away: [Int] {
      state.seats.indices.filter { state.seats[$0]?.awayUntil != nil }
    }

    mutating func pick<T>(_ items: [T]) -> T? {
      items.isEmpty ? nil : items[random.below(items.count)]
    }

    /// Plays `steps` random steps, checking the invariants after each one unless not `checked`.
    mutating func play(steps: Int, checked: Bool = true) throws {
      for seat in 0..<config.seats {
        switch state.sit(token: "tok\(seat)", name: "P\(seat)", replyTo: nil, now: now) {
        case .success(let (got, broadcast)):
          #expect(got == seat)
          try deliver(broadcast)
        case .failure(let error):
          Issue.record("seat \(seat): \(error)")
        }
      }
      try #require(state.phase == .playing)
      try check()
      for step in 0..<steps {
        try self.step(step)
        if checked { try check() }
      }
      #expect(
        try CardMatchingGame<SetCard>.replay(#require(state.record.record)).game == state.game)
    }

    mutating func step(_ step: Int) throws {
      if state.phase == .finished, random.below(4) == 0 {
        if let host = state.host, connected.contains(host) {
          try deliver(try Multi.success(state.requestRedeal(by: host, replyTo: .int(step))))
          return
        }
      }
      let roll = random.below(100)
      switch roll {
      case 0..<50:
        guard let seat = pick(connected) else { return }
        if plans[seat].isEmpty { planClaim(for: seat) }
        guard !plans[seat].isEmpty else { return }
        try choose(seat: seat, card: plans[seat].removeFirst(), step: step)
      case 50..<58:
        // Un-choose one of one's own cards.
        guard let seat = pick(connected), let card = pick(state.game.players[seat].selection)
        else { return }
        try choose(seat: seat, card: card, step: step)
      case 58..<66:
        guard let seat = pick(connected) else { return }
        planWrongTriple(for: seat)
        guard !plans[seat].isEmpty else { return }
        try choose(seat: seat, card: plans[seat].removeFirst(), step: step)
      case 66..<72:
        // A card that has just left the board: the choice lost the race.
        guard let seat = pick(connected), let card = pick(justGone) else { return }
        let error = try reject(.choose(seat: seat, card: card), step: step)
        #expect(error.code == (state.phase == .finished ? .gameOver : .cardNotOnTable))
      case 72..<76:
        // Any card id at all, or one that does not exist.
        guard let seat = pick(connected) else { return }
        try choose(seat: seat, card: random.below(83) - 1, step: step)
      case 76..<82:
        guard connected.count > 1, let seat = pick(connected) else { return }
        try deliver(try Multi.must(state.disconnect(seat: seat, now: now)))
        plans[seat] = []
      case 82..<89:
        guard let seat = pick(away) else { return }
        try deliver(try Multi.must(state.reconnect(seat: seat)))
      case 89..<92:
        guard let seat = pick(connected.filter { $0 != state.host }) else { return }
        let before = state.votes
        try deliver(try Multi.success(state.requestRedeal(by: seat, replyTo: .int(step))))
        if state.votes.isEmpty && !before.isEmpty {
          #expect(state.lastMove == .redeal(seat: seat))
          #expect(state.record.moves.isEmpty)
        }
      case 92..<95:
        let count = random.below(4)
        state.setSpectators(count)
        #expect(state.spectators == count)
      case 95..<98:
        // Time passes; seats whose grace ran out are released.
        now += Double(random.below(25))
        let held = state.seats
        let moves = state.movesAccepted
        let (broadcasts, released) = state.tick(now: now)
        let expected = held.indices.filter {
          held[$0]?.awayUntil.map { now > $0 } ?? false
        }
        #expect(released == expected.compactMap { held[$0]?.token })
        // A vote that reached its majority as players dropped is carried out by the tick.
        let carried = state.movesAccepted - moves
        #expect(carried <= 1)
        if carried == 1 {
          guard case .redeal? = state.lastMove else {
            Issue.record("a tick made a move that is not a re-deal")
            return
          }
          #expect(state.votes.isEmpty)
        }
        #expect(broadcasts.count == expected.count + carried)
        for b in broadcasts { try deliver(b) }
      default:
        guard let seat = pick(connected) else { return }
        let error = try reject(.choose(seat: seat, card: 81), step: step)
        #expect(error.code == (state.phase == .finished ? .gameOver : .unknownCard))
      }
    }

    /// Plans to claim a set: preferably one that overlaps another seat's selection (so the two
    /// race for a card), letting go of whatever else is selected first.
    mutating func planClaim(for seat: Int) {
      let sets = SetCard.allSets(in: state.game.board).map { $0.map(\.id) }
      let others = Set(
        state.game.players.indices.filter { $0 != seat }.flatMap {
          state.game.players[$0].selection
        })
      let contested = sets.filter { !others.isDisjoint(with: $0) }
      guard let target = random.below(2) == 0 ? pick(contested) ?? pick(sets) : pick(sets) else {
        return
      }
      if !others.isDisjoint(with: target) { overlappingClaims += 1 }
      let selection = state.game.players[seat].selection
      plans[seat] =
        selection.filter { !target.contains($0) } + target.filter { !selection.contains($0) }
    }

    mutating func planWrongTriple(for seat: Int) {
      let board = state.game.board
      guard board.count >= 3 else { return }
      for _ in 0..<10 {
        var pool = board
        let triple = (0..<3).map { _ in pool.remove(at: random.below(pool.count)) }
        if !SetCard.isSet(triple[0], triple[1], triple[2]) {
          let selection = state.game.players[seat].selection
          plans[seat] = selection + triple.map(\.id).filter { !selection.contains($0) }
          return
        }
      }
    }

    mutating func choose(seat: Int, card: Int, step: Int) throws {
      let move = Move.choose(seat: seat, card: card)
      let before = Frozen(state)
      switch state.apply(move, replyTo: .int(step)) {
      case .accepted(let version, _, let diff, _):
        #expect(state.lastMove == move)
        #expect(state.record.moves.last == move)
        try deliver(version: version, diff: diff)
      case .rejected(let error):
        rejections.insert(error.code)
        #expect(Frozen(state) == before, "a refused \(move) changed the table")
        #expect(error.replyTo == .int(step))
      }
    }

    mutating func reject(_ move: Move, step: Int) throws -> ProtocolError {
      let before = Frozen(state)
      switch state.apply(move, replyTo: .int(step)) {
      case .accepted(_, _, let diff, _):
        Issue.record("\(move) was accepted: \(diff.text)")
        throw TableStateTests.Refused()
      case .rejected(let error):
        rejections.insert(error.code)
        #expect(Frozen(state) == before, "a refused \(move) changed the table")
        return error
      }
    }

    /// Sends a broadcast to the spectator's view and keeps the books its events imply.
    mutating func deliver(_ b: State.Broadcast) throws {
      try deliver(version: b.version, diff: b.diff)
    }

    mutating func deliver(version: Int, diff: JSONValue) throws {
      // (A tick may return several broadcasts at once, so the state can be ahead already.)
      #expect(version == view.version + 1, "version \(version) after \(view.version)")
      #expect(version <= state.version)
      #expect(diff["version"] == .int(version))
      try view.apply(diff: diff)
      for event in diff["events"]?.elements ?? [] {
        let kind = try #require(event["kind"]?.stringValue)
        kinds.insert(kind)
        let seat = event["seat"]?.intValue ?? -1
        switch kind {
        case "select":
          expectedScores[seat] -= settings.costToChoose
        case "match":
          let cards = try #require(event["cards"]?.elements).compactMap(\.intValue)
          claimed[seat, default: []] += cards
          justGone = cards
          expectedScores[seat] += try #require(event["points"]?.intValue)
        case "mismatch":
          expectedScores[seat] -= try #require(event["penalty"]?.intValue)
        case "score":
          scoreEvents[seat] = try #require(event["score"]?.intValue)
          #expect(scoreEvents[seat] == expectedScores[seat], "score event of seat \(seat)")
        case "redeal":
          claimed = [:]
          justGone = []
          scoreEvents = [:]
          expectedScores = Array(repeating: 0, count: config.seats)
          plans = Array(repeating: [], count: config.seats)
        default:
          break
        }
      }
    }

    /// The invariants after a step.
    mutating func check() throws {
      // Every card is in exactly one place: the deck, the board, or one seat's claimed sets.
      let board = state.game.board.map(\.id)
      var seen = Set(board)
      #expect(seen.count == board.count, "a card twice on the board")
      var placed = board.count
      for (seat, cards) in claimed {
        #expect(cards.count % 3 == 0)
        #expect(state.game.players[seat].matches == cards.count / 3)
        placed += cards.count
        seen.formUnion(cards)
      }
      #expect(seen.count == placed, "a claimed card is also on the board or claimed twice")
      #expect(placed + state.game.deckCount == 81, "cards lost or made up")
      // Scores as the events imply them.
      for seat in 0..<config.seats {
        #expect(state.game.players[seat].score == expectedScores[seat], "score of seat \(seat)")
        #expect(scoreEvents[seat] ?? 0 == expectedScores[seat])
        #expect(claimed[seat] != nil || state.game.players[seat].matches == 0)
      }
      // The wire-only view is what a fresh snapshot shows.
      let fresh = try TableClientView(snapshot: state.snapshot(replyTo: nil, you: nil, now: now))
      #expect(view == fresh, "\nview:  \(view)\nfresh: \(fresh)")
      if view != fresh { throw TableStateTests.Refused() }
      // The record rebuilds the game: step by step from the moves it gained, and now and then
      // from scratch. It grows until a re-deal, which starts a new record at the new deal.
      if state.record.seed != replayed.dealSeed {
        replayed = CardMatchingGame(settings: settings, seed: state.record.seed)
        replayedMoves = 0
      }
      let moves = state.record.moves
      #expect(moves.count >= replayedMoves)
      for move in moves[replayedMoves...] { try replayed.apply(move) }
      replayedMoves = moves.count
      #expect(replayed == state.game)
      checks += 1
      if checks % 50 == 0 {
        #expect(
          try CardMatchingGame<SetCard>.replay(#require(state.record.record)).game == state.game)
      }
      // The ring still answers for a client a few versions behind.
      if state.version >= 3 {
        #expect(state.diffs(after: state.version - 3)?.count == 3)
      }
    }
  }

  /// What a refused move must leave as it was.
  struct Frozen: Equatable {
    let version: Int
    let game: CardMatchingGame<SetCard>
    let record: GameLog
    let movesAccepted: Int
    let status: [StyledRun]
    let seats: [TableState<SetCard>.Seat?]
    let votes: [Int]
    let phase: TablePhase

    init(_ state: TableState<SetCard>) {
      version = state.version
      game = state.game
      record = state.record
      movesAccepted = state.movesAccepted
      status = state.status
      seats = state.seats
      votes = state.votes
      phase = state.phase
    }
  }
}
