import Model
import Protocol
import Testing

@testable import Lobby

/// What a table owes the journal, as a value.
@Suite struct TableJournalQueueTests {
  let record = TableState<SetCard>(id: "t1", settings: .set(), seed: 1, names: ["Ada"])
    .journalRecord(creator: "token-1")

  func move(_ index: Int, deal: Int = 1, version: Int) -> JournalMove {
    JournalMove(
      table: "t1", deal: deal, index: index, move: .choose(seat: 0, card: index), at: 0,
      version: version)
  }

  @Test func offItKeepsAndHandsOverNothing() {
    var queue = TableJournalQueue(isOn: false)
    queue.tableChanged()
    queue.accepted(.choose(seat: 0, card: 1), table: "t1", deal: 1, at: 0, version: 1)
    queue.timeLogged(at: 1, logged: true)
    #expect(queue.isEmpty)
    #expect(queue.take(record: record).isEmpty)
    // Moves are still numbered.
    #expect(queue.movesThisDeal == 1)
    #expect(queue.times.seconds.isEmpty)
  }

  @Test func theRecordComesFirstThenTheMovesThenTheFinishedGames() {
    var queue = TableJournalQueue(isOn: true)
    #expect(queue.recordDue)
    queue.accepted(.choose(seat: 0, card: 0), table: "t1", deal: 1, at: 0, version: 1)
    queue.accepted(.choose(seat: 0, card: 1), table: "t1", deal: 1, at: 0, version: 2)
    let game = FinishedGame(
      game: "set", settings: .set(), seed: 1, players: [], moves: [], seconds: 1)
    queue.gameEnded(.finished(game))
    #expect(
      queue.take(record: record) == [
        .table(record), .move(move(0, version: 1)), .move(move(1, version: 2)), .finished(game),
      ])
    #expect(queue.isEmpty)
    #expect(queue.take(record: record).isEmpty)
    // A re-deal (not a play) is not queued and not numbered.
    queue.accepted(.redeal(seat: 0), table: "t1", deal: 1, at: 0, version: 3)
    #expect(queue.isEmpty)
    #expect(queue.movesThisDeal == 2)
  }

  @Test func aTableChangeOrANewDealMakesARecordDue() {
    var queue = TableJournalQueue(isOn: true)
    _ = queue.take(record: record)
    queue.tableChanged()
    #expect(queue.take(record: record) == [.table(record)])
    queue.accepted(.choose(seat: 0, card: 0), table: "t1", deal: 1, at: 0, version: 1)
    queue.timeLogged(at: 2.5, logged: true)
    queue.timeLogged(at: 3, logged: false)
    queue.newDeal()
    #expect(queue.movesThisDeal == 0)
    #expect(queue.times.seconds.isEmpty)
    // The old deal's moves are done with; the new deal begins with a record.
    #expect(queue.take(record: record) == [.table(record)])
  }

  @Test func aRestoredTableOwesNothing() {
    var queue = TableJournalQueue(isOn: true)
    queue.accepted(.choose(seat: 0, card: 0), table: "t1", deal: 1, at: 0, version: 1)
    queue.timeLogged(at: 2, logged: true)
    queue.restored()
    #expect(queue.isEmpty)
    // What the replayed deal took to make is kept for its finished game.
    #expect(queue.movesThisDeal == 1)
    #expect(queue.times.seconds == [2])
  }
}
