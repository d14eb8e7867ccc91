import Protocol
import TestSupport
import Testing

@testable import Lobby

/// A takeover that meets a table of a game this node does not deal leaves it out and says so in
/// the log (`LobbyAction.log`), naming the table and the game; the other tables are taken over.
extension ClusterLobbyTests {
  @Test func aTableOfAGameThisNodeDoesNotDealIsNotTakenOverAndTheLogSaysSo() throws {
    // n1 deals a game n2 lacks (a node of another version): its table dies with it.
    var journal = JournalImage()
    let entries = try GameCatalog.$registry.withValue(TwinsGame.registry) {
      var n1 = try Node("n1")
      return Self.entries(n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada))
        + Self.entries(n1.send(#"{"type":"hello","name":"Bob"}"#, from: Self.bob))
        + Self.entries(
          n1.send(#"{"type":"createTable","game":"twins","seats":2}"#, from: Self.ada))
        + Self.entries(n1.send(#"{"type":"createTable","game":"set","seats":2}"#, from: Self.bob))
    }
    journal.write(entries)
    var n2 = try Node("n2", firstTable: 1000)
    let contents = journal.contents
    #expect(contents.tables.map(\.record.game).sorted() == ["set", "twins"])
    let actions = n2.hear(.adopt(contents), now: 20)
    let lines = actions.compactMap { if case .log(let line) = $0 { line } else { nil } }
    #expect(lines == [.tableNotAdopted(UnknownGameError(game: "twins", table: "t1"))])
    #expect(lines.first?.metadata == ["table": "t1", "game": "twins"])
    #expect(lines.first?.message.contains("t1") == true)
    #expect(lines.first?.message.contains("'twins'") == true)
    // The other table is taken over as ever; the unknown one is counted apart.
    #expect(n2.state.tablesTakenOver == 1 && n2.state.tablesNotAdopted == 1)
    #expect(n2.state.table("t2") != nil && n2.state.table("t1") == nil)
  }
}
