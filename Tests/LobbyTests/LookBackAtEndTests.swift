import Testing

@testable import Lobby
@testable import Model
@testable import Protocol

/// The look back that ends a game's diff is the one a table keeps as the game goes
/// (``LookBackTracker``): it is the look back of the game's record played again, whether the
/// table saw every move or was opened again from its journal halfway.
@Suite struct LookBackAtEndTests {
  /// The `lookBack` event of the diff that ended the game, or nil.
  static func lookBackEvent(_ diff: JSONValue) -> JSONValue? {
    diff["events"]?.elements?.first { $0["kind"]?.stringValue == "lookBack" }
  }

  /// Plays `table` to its end from `now`, a set at a time with a mismatch now and then, the
  /// seats taking turns; returns the last diff, the journal's moves and the finished game.
  static func playToTheEnd(
    _ table: inout TableState<SetCard>, from now: Double, restoringAfter: Int? = nil,
    rules: TableRules
  ) throws -> (diff: JSONValue, finished: FinishedGame) {
    var clock = now
    var turn = 0
    var moves: [JournalMove] = []
    var last: JSONValue = .null
    var finished: FinishedGame?
    while !table.game.isOver {
      let sets = SetCard.allSets(in: table.game.playableCards)
      let seat = turn % table.game.settings.seats
      var cards = try #require(sets.isEmpty ? nil : sets[(turn * 5 + 1) % sets.count])
      if turn % 4 == 2 {
        // A mismatch first: two cards of one set and one of another, or of the board.
        let other = table.game.playableCards.first { !cards.contains($0) }!
        cards = [cards[0], cards[1], other] + cards
      }
      for card in cards {
        clock += Double(1 + (turn * 3 + card.id) % 7) / 4
        guard
          case .accepted(_, _, let diff, _) = table.apply(
            .choose(seat: seat, card: card.id), replyTo: nil, now: clock)
        else { continue }
        last = diff
      }
      for entry in table.takeJournal(creator: "token-1") {
        if case .move(let move) = entry { moves.append(move) }
        if case .finished(let game) = entry { finished = game }
      }
      turn += 1
      if turn == restoringAfter {
        // A restart: the table again from its record and the deal's moves.
        let record = table.journalRecord(creator: "token-1")
        table = try #require(
          try GameCatalog.reopen(record, moves: moves, rules: rules, now: clock)
            as? TableState<SetCard>)
      }
    }
    return (last, try #require(finished))
  }

  @Test(arguments: [nil, 3, 9])
  func theKeptLookBackIsTheRecordPlayedAgain(restoringAfter: Int?) throws {
    var rules = TableRules()
    rules.journals = true
    var table = TableState<SetCard>(
      id: "t9", settings: .set(seats: 2, scoring: .classic), seed: 77, names: ["Ada", "Bob"],
      rules: rules, now: 10)
    let (diff, finished) = try Self.playToTheEnd(
      &table, from: 10, restoringAfter: restoringAfter, rules: rules)
    let shown = try #require(Self.lookBackEvent(diff))
    let again = try #require(
      GameLookBack.of(
        SetCard.self, settings: finished.settings, seed: finished.seed,
        moves: finished.moves.map(\.move), times: finished.moves.map(\.at)))
    #expect(!again.found.isEmpty && !again.missed.isEmpty)
    #expect(shown["lookBack"] == ServerMessage.lookBack(again, seats: 2).value)
    // Unless restored, the table kept it as the game went rather than playing it again.
    if restoringAfter == nil {
      #expect(table.lookBack?.moves == finished.moves.count)
    }
  }

  /// A table that does not journal keeps no look back, and shows none.
  @Test func aTableWithoutAJournalKeepsNone() throws {
    let rules = TableRules()
    var table = TableState<SetCard>(
      id: "t9", settings: .set(seats: 1), seed: 5, names: ["Ada"], rules: rules)
    #expect(table.lookBack == nil)
    let (diff, _) = try Self.playWithoutJournal(&table)
    #expect(Self.lookBackEvent(diff) == nil)
  }

  static func playWithoutJournal(_ table: inout TableState<SetCard>) throws -> (JSONValue, Int) {
    var last: JSONValue = .null
    var moves = 0
    while !table.game.isOver {
      let set = try #require(SetCard.allSets(in: table.game.playableCards).first)
      for card in set {
        if case .accepted(_, _, let diff, _) = table.apply(
          .choose(seat: 0, card: card.id), replyTo: nil)
        {
          last = diff
          moves += 1
        }
      }
    }
    return (last, moves)
  }
}
