import Foundation
import Model
import Testing

@testable import LoadKit

/// The board tracker against recorded server frames: a snapshot plus the diffs after it must give
/// what the server's later snapshot shows.
struct BoardTrackerTests {
  /// `Fixtures/name` parsed.
  /// A message of the seeded game that the protocol's tests check the server's encoder against
  /// (`Tests/ProtocolTests/Fixtures/server`), so the tracker reads what the server sends today.
  private func fixture(_ name: String) throws -> JSON {
    let url = URL(filePath: #filePath).deletingLastPathComponent()
      .appending(path: "../ProtocolTests/Fixtures/server").appending(path: name)
    return try JSON.parse(Array(Data(contentsOf: url)))
  }

  /// A tracker holding `snapshot`'s table.
  private func tracker(from snapshot: JSON) throws -> BoardTracker {
    var tracker = BoardTracker()
    tracker.applySnapshot(table: try #require(snapshot["table"]))
    return tracker
  }

  @Test func snapshotPlusDiffsEqualsTheLaterSnapshots() throws {
    var tracker = try tracker(from: fixture("seed42-v0-snapshot.json"))
    #expect(tracker.version == 0)
    #expect(tracker.board.count == 12)
    for version in 1...3 {
      #expect(tracker.applyDiff(try fixture("seed42-v\(version)-diff.json")) == .applied)
    }
    #expect(tracker == (try self.tracker(from: fixture("seed42-v3-snapshot.json"))))
    #expect(tracker.scores[0] == 9)
    for version in 4...6 {
      #expect(tracker.applyDiff(try fixture("seed42-v\(version)-diff.json")) == .applied)
    }
    #expect(tracker == (try self.tracker(from: fixture("seed42-v6-snapshot.json"))))
    #expect(tracker.selections[0] == [53])
    #expect(tracker.applyDiff(try fixture("seed42-v7-diff.json")) == .applied)
    #expect(tracker.selections[0] == [])
  }

  @Test func duplicatesAreIgnoredAndGapsWaitForASnapshot() throws {
    var tracker = try tracker(from: fixture("seed42-v0-snapshot.json"))
    #expect(tracker.applyDiff(try fixture("seed42-v1-diff.json")) == .applied)
    let before = tracker
    #expect(tracker.applyDiff(try fixture("seed42-v1-diff.json")) == .duplicate)
    #expect(tracker == before)
    #expect(tracker.applyDiff(try fixture("seed42-v3-diff.json")) == .gap)
    #expect(tracker.awaitingSnapshot)
    #expect(tracker.applyDiff(try fixture("seed42-v2-diff.json")) == .waiting)
    tracker.applySnapshot(table: try #require(fixture("seed42-v3-snapshot.json")["table"]))
    #expect(!tracker.awaitingSnapshot)
    #expect(tracker.version == 3)
    #expect(tracker.applyDiff(try fixture("seed42-v4-diff.json")) == .applied)
  }

  @Test func protocolV2DiffsCarryTheirStatusInside() throws {
    // v2 puts the status runs in the diff and sends no status frame: the tracker must not care.
    var tracker = try tracker(from: fixture("seed42-v0-snapshot.json"))
    let diff = try JSON.parse(
      #"{"type":"diff","table":"t1","version":1,"seat":0,"replyTo":3,"events":["#
        + #"{"kind":"select","seat":0,"card":6},{"kind":"score","seat":0,"score":-1}],"#
        + #""status":[{"text":"Ada chose "},{"card":6,"text":"◆","alpha":0,"stroke":2}]}"#)
    #expect(tracker.applyDiff(diff) == .applied)
    #expect(tracker.selections[0] == [6])
    #expect(tracker.scores[0] == -1)
  }

  @Test func noDiffBeforeTheFirstSnapshot() throws {
    var tracker = BoardTracker()
    #expect(tracker.applyDiff(try fixture("seed42-v1-diff.json")) == .waiting)
  }

  @Test func multiplayerEventsFollowTheProtocolTable() throws {
    // A 2-seat table from its waiting snapshot: a join, the start and deal, a claim that also
    // took a card the other seat held, a removal, an extra deal, the end, a leave.
    var tracker = BoardTracker()
    tracker.applySnapshot(
      table: try JSON.parse(
        #"{"version":4,"phase":"waiting","over":false,"deckCount":81,"board":[],"#
          + #""players":[{"seat":0,"score":0,"selection":[]}]}"#))
    let card = { (id: Int) in #"{"id":\#(id),"number":1}"# }
    let diffs = [
      #"{"version":5,"events":[{"kind":"join","seat":1,"name":"b"}]}"#,
      #"{"version":6,"events":[{"kind":"phase","phase":"playing"},"#
        + #"{"kind":"redeal","board":[\#(card(0)),\#(card(1)),\#(card(2)),\#(card(3))],"deckCount":77}]}"#,
      #"{"version":7,"seat":1,"events":[{"kind":"select","seat":1,"card":1}]}"#,
      #"{"version":8,"seat":0,"events":[{"kind":"select","seat":0,"card":0},"#
        + #"{"kind":"match","seat":0,"cards":[0,1,2],"points":12},{"kind":"score","seat":0,"score":12},"#
        + #"{"kind":"deselect","seat":1,"card":1},{"kind":"replace","slot":0,"card":\#(card(40))},"#
        + #"{"kind":"deck","count":76}]}"#,
      #"{"version":9,"events":[{"kind":"remove","cards":[1,2]},"#
        + #"{"kind":"deal","cards":[\#(card(50)),\#(card(60))],"reason":"noMatch"}]}"#,
      #"{"version":10,"events":[{"kind":"over","standings":[]},{"kind":"phase","phase":"finished"}]}"#,
      #"{"version":11,"events":[{"kind":"leave","seat":1}]}"#,
    ]
    for diff in diffs { #expect(tracker.applyDiff(try JSON.parse(diff)) == .applied, "\(diff)") }
    #expect(tracker.version == 11)
    #expect(tracker.board == [40, 3, 50, 60])
    #expect(tracker.deckCount == 76)
    #expect(tracker.over)
    #expect(tracker.phase == "finished")
    #expect(tracker.scores == [0: 12])
    #expect(tracker.selections == [0: []])
  }

  @Test func setsOnTheSnapshotBoard() throws {
    let tracker = try tracker(from: fixture("seed42-v0-snapshot.json"))
    // The set the recorded game claimed at version 3 is on the first board, in board order.
    #expect(tracker.sets.contains([6, 78, 42]))
    for set in tracker.sets {
      let cards = set.compactMap { SetCard.card(withID: $0) }
      #expect(SetCard.isSet(cards[0], cards[1], cards[2]))
    }
    let found = Set(tracker.sets.map { Set($0) })
    let ids = tracker.board
    var brute = Set<Set<Int>>()
    for i in ids.indices {
      for j in (i + 1)..<ids.count {
        for k in (j + 1)..<ids.count {
          let c = [ids[i], ids[j], ids[k]].compactMap { SetCard.card(withID: $0) }
          if SetCard.isSet(c[0], c[1], c[2]) { brute.insert([ids[i], ids[j], ids[k]]) }
        }
      }
    }
    #expect(found == brute)
  }
}
