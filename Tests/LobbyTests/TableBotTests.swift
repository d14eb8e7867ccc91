import Model
import Protocol
import Synchronization
import Testing

@testable import Lobby

/// A computer player at a table: it sits as a person does (no session, no socket), plays by the
/// table's clock from plans drawn from the table's deal, and after a restart from the journal
/// goes on with the same plan.
@Suite struct TableBotTests {
  static func table(seats: Int, journals: Bool = false, pace: Double = 1) -> TableState<SetCard> {
    var rules = TableRules()
    rules.countdown = 0
    rules.botPace = pace
    rules.journals = journals
    return TableState<SetCard>(
      id: "t1", code: "ABCDEFGHJK", isPrivate: true,
      settings: .set(seats: seats, scoring: .classic), seed: 5, rules: rules, now: 0)
  }

  /// Runs the clock from deadline to deadline until the game ends (or `limit` steps).
  static func playOut(_ table: inout TableState<SetCard>, limit: Int = 300) -> Int {
    var steps = 0
    while !table.game.isOver, steps < limit, let next = table.nextDeadline {
      _ = table.tick(now: next)
      steps += 1
    }
    return steps
  }

  @Test func aComputerSitsPlaysByTheClockAndTakesSets() throws {
    var table = Self.table(seats: 2)
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    let (seat, _) = try table.sitBot(level: .expert, replyTo: nil, now: 1).get()
    #expect(seat == 1 && table.phase == .playing)
    #expect(table.seats[1]?.name == "Computer 2 (expert)" && table.seats[1]?.bot == .expert)
    #expect(table.seatTokens == ["h-ada"], "a computer has no session")
    #expect(table.botSeats == [1: .expert])
    let due = try #require(table.nextDeadline)
    #expect(due > 1)
    // Nothing before its time; at its time, one set: three choices, one match.
    #expect(table.tick(now: due.nextDown).broadcasts.isEmpty)
    #expect(table.tick(now: due).broadcasts.count == 3)
    #expect(table.game.players[1].matches == 1 && table.game.players[1].score == 1)
    // The clock alone plays the game to its end, every claim accepted.
    let accepted = table.movesAccepted
    _ = Self.playOut(&table)
    #expect(table.game.isOver)
    #expect(table.movesAccepted - accepted == 3 * (table.game.players[1].matches - 1))
    #expect(table.nextDeadline == nil)
  }

  @Test func thePaceMultipliesEveryTimeToMoveAndNothingElse() throws {
    func planned(pace: Double) throws -> BotPlan {
      var table = Self.table(seats: 2, pace: pace)
      _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
      _ = try table.sitBot(level: .beginner, replyTo: nil, now: 10).get()
      return try #require(table.botPlans[1]?.plan)
    }
    let slow = try planned(pace: 1)
    let fast = try planned(pace: 0.01)
    #expect(slow.cards == fast.cards && slow.wrong == fast.wrong)
    #expect(abs((fast.at - 10) - (slow.at - 10) * 0.01) < 1e-9)
    #expect(slow.at - 10 > 1, "a beginner takes seconds")
  }

  /// In Set-Chain a computer keeps the chain's rule: after the first set, each claim is one card
  /// of the chain and two of the board, and the chain's game is played to its end with every
  /// choice accepted.
  @Test func aComputerPlaysSetChainByItsRule() throws {
    var rules = TableRules()
    rules.countdown = 0
    var table = TableState<SetChainCard>(
      id: "t3", code: "ABCDEFGHJK", isPrivate: true,
      settings: .setChain(seats: 2, scoring: .classic), seed: 11, rules: rules, now: 0)
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    _ = try table.sitBot(level: .expert, replyTo: nil, now: 0).get()
    var steps = 0
    var refused = 0
    while !table.game.isOver, steps < 400, let next = table.nextDeadline {
      let before = table.movesAccepted
      let chained = table.game.isChained
      let chain = Set(table.game.chain.map(\.id))
      let planned = table.botPlans[1]?.plan
      _ = table.tick(now: next)
      if let planned, next >= planned.at {
        let chosen = table.movesAccepted - before
        if chosen < planned.cards.count { refused += 1 }
        if chained { #expect(planned.cards.count { chain.contains($0) } == 1, "\(planned)") }
      }
      steps += 1
    }
    #expect(table.game.isOver && refused == 0)
    #expect(table.game.players[1].matches >= 10)
  }

  /// At a face-down board (Matchismo), a computer turns cards one at a time, remembers what it
  /// saw, and plays the game out; two tables alike play alike, and a table opened again from its
  /// journal remembers what the computer had seen.
  @Test func aComputerPlaysMatchismoFromWhatItRemembers() throws {
    func table() throws -> TableState<PlayingCard> {
      var rules = TableRules()
      rules.countdown = 0
      rules.journals = true
      var table = TableState<PlayingCard>(
        id: "t4", code: "ABCDEFGHJK", isPrivate: true,
        settings: .matchismo(seats: 2, boardSize: 16), seed: 21, rules: rules, now: 0)
      _ = try table.sitBot(level: .expert, replyTo: nil, now: 0).get()
      _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
      return table
    }
    var first = try table()
    var second = try table()
    var halfway: (record: TableRecord, moves: [JournalMove], memory: BotMemory)?
    var moves: [JournalMove] = []
    for step in 0..<600 {
      guard !first.game.isOver, let next = first.nextDeadline else { break }
      let accepted = first.movesAccepted
      _ = first.tick(now: next)
      _ = second.tick(now: next)
      #expect(first.movesAccepted == accepted + 1, "one card a step")
      for entry in first.takeJournal(creator: "c") {
        if case .move(let move) = entry { moves.append(move) }
      }
      if step == 20 {
        halfway = (first.journalRecord(creator: "c"), moves, first.botMemory)
      }
    }
    #expect(first.game.isOver && first.game.players[0].matches >= 3)
    #expect(first.record == second.record, "alike tables play alike")
    let (record, kept, memory) = try #require(halfway)
    let restored = TableState<PlayingCard>(
      restoring: record, moves: kept, rules: first.rules, now: 1000)
    #expect(restored.botMemory == memory && memory.flips > 10)
  }

  /// Computers alone (the `--computer-tables` benchmark) play on: the table never counts as
  /// empty, and a few seconds after each game they deal the next.
  @Test func computersAlonePlayGameAfterGame() throws {
    var table = Self.table(seats: 4)
    for _ in 0..<4 { _ = try table.sitBot(level: .expert, replyTo: nil, now: 0).get() }
    table.playOnAlone()
    #expect(table.phase == .playing && table.emptySince == nil && table.peopleSeated == 0)
    _ = Self.playOut(&table, limit: 1000)
    #expect(table.game.isOver && table.phase == .finished)
    let over = try #require(table.nextDeadline)
    _ = table.tick(now: over)
    #expect(table.deal == 2 && table.phase == .playing && !table.game.isOver)
    _ = Self.playOut(&table, limit: 1000)
    #expect(table.game.isOver && table.emptySince == nil)
  }

  /// The lobby opens the benchmark's tables at start: private, four expert computers each,
  /// still open (and playing) long after the empty tables' grace.
  @Test func theLobbyOpensTablesOfComputersThatStayOpen() {
    var configuration = LobbyConfiguration()
    configuration.computerTables = 3
    configuration.countdown = 0
    let codes = Mutex(SeededGenerator(seed: 7))
    let entropy = LobbyEntropy(
      seed: { 5 }, token: { "token" }, below: { n in codes.withLock { $0.below(n) } },
      today: { "2026-01-01" })
    var lobby = LobbyState(configuration: configuration, entropy: entropy)
    lobby.openComputerTables(now: 0)
    #expect(lobby.tableCount == 3)
    var now = 0.0
    var steps = 0
    while let next = lobby.nextDeadline(), next < 120, steps < 20_000 {
      now = next
      _ = lobby.handle(.clock, now: now)
      steps += 1
    }
    #expect(lobby.tableCount == 3 && now > 60)
  }

  @Test func aPersonsSetGivesTheComputerANewPlanFromThatMoment() throws {
    var table = Self.table(seats: 2)
    _ = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    _ = try table.sitBot(level: .beginner, replyTo: nil, now: 0).get()
    let first = try #require(table.botPlans[1]?.plan)
    let set = try #require(SetCard.allSets(in: table.game.board).first)
    for card in set { _ = table.apply(.choose(seat: 0, card: card.id), replyTo: nil, now: 3) }
    let second = try #require(table.botPlans[1]?.plan)
    #expect(second != first)
    #expect(second.at > 3 && table.nextDeadline == second.at)
    #expect(second.cards.allSatisfy { id in table.game.board.contains { $0.id == id } })
  }

  @Test func twoTablesAlikePlayAlikeAndARestartGoesOnWithTheSamePlan() throws {
    var table = Self.table(seats: 2, journals: true)
    var twin = Self.table(seats: 2, journals: true)
    for t in [0, 1] {
      var each = t == 0 ? table : twin
      _ = try each.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
      _ = try each.sitBot(level: .casual, replyTo: nil, now: 0).get()
      for _ in 0..<8 { if let next = each.nextDeadline { _ = each.tick(now: next) } }
      if t == 0 { table = each } else { twin = each }
    }
    #expect(table.game == twin.game && table.botPlans == twin.botPlans)
    #expect(table.game.players[1].matches > 0)
    // The journal's record and moves rebuild the table: the computer sits, not away, and plans
    // the same claim (from the restart's moment).
    var moves: [JournalMove] = []
    var record: TableRecord?
    for entry in table.takeJournal(creator: "h-ada") {
      if case .move(let move) = entry { moves.append(move) }
      if case .table(let r) = entry { record = r }
    }
    let saved = try #require(record)
    #expect(saved.seats[1]?.bot == "casual")
    var restored = TableState<SetCard>(
      restoring: saved, moves: moves, rules: table.rules, now: 500)
    #expect(restored.seats[1]?.bot == .casual && restored.seats[1]?.awayUntil == nil)
    #expect(restored.seats[0]?.awayUntil != nil, "the person is held for")
    _ = restored.tick(now: 500)
    let plan = try #require(restored.botPlans[1]?.plan)
    let planned = try #require(table.botPlans[1])
    let before = try #require(planned.plan)
    #expect(plan.cards == before.cards && plan.wrong == before.wrong)
    #expect(abs((plan.at - 500) - (before.at - planned.since)) < 1e-9, "the same wait")
  }

  @Test func aWrongClaimIsAnOrdinaryMismatchAndPlayGoesOn() throws {
    // A beginner claims wrongly one time in five: find a table whose first claim is wrong.
    for seed in UInt64(1)..<200 {
      var rules = TableRules()
      rules.countdown = 0
      var table = TableState<SetCard>(
        id: "t1", code: "ABCDEFGHJK", isPrivate: true, settings: .set(seats: 1), seed: seed,
        rules: rules, now: 0)
      _ = try table.sitBot(level: .beginner, replyTo: nil, now: 0).get()
      guard let plan = table.botPlans[0]?.plan, plan.wrong else { continue }
      _ = table.tick(now: plan.at)
      #expect(table.game.players[0].matches == 0 && table.game.players[0].score < 0)
      _ = Self.playOut(&table)
      #expect(table.game.isOver && table.game.players[0].matches > 0)
      return
    }
    Issue.record("no first claim was wrong in 200 deals")
  }
}

/// Computers never vote: a person alone with them re-deals as a person alone does.
extension TableBotTests {
  @Test func aPersonAloneWithComputersReDealsAtOnce() throws {
    var table = Self.table(seats: 3)
    _ = try table.sitBot(level: .casual, replyTo: nil, now: 0).get()
    _ = try table.sitBot(level: .casual, replyTo: nil, now: 0).get()
    let (seat, _) = try table.sit(token: "h-ada", name: "Ada", replyTo: nil, now: 0).get()
    #expect(seat == 2 && table.host == 2 && table.votesNeeded == 1)
    let deal = table.deal
    _ = try table.requestRedeal(by: 2, replyTo: nil, now: 5).get()
    #expect(table.deal == deal + 1 && table.votes.isEmpty)
    // The computers plan on the new board.
    let plans = table.botPlans.values.compactMap(\.plan)
    #expect(plans.count == 2 && plans.allSatisfy { $0.at > 5 })
  }
}
