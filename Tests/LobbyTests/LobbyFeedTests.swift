import Protocol
import Testing

@testable import Lobby

@Suite struct LobbyFeedTests {
  let c1 = ConnectionID(1)
  let c2 = ConnectionID(2)

  static func row(_ id: String, seated: Int = 1) -> TableListing {
    TableListing(id: id, game: "set", seats: 4, seated: seated, spectators: 0, phase: .waiting)
  }

  @Test func changesAreCoalescedUntilTheFlushTheyAskFor() throws {
    var feed = LobbyFeed(flushInterval: 0.5)
    feed.watch(c1)
    // The first change asks for a flush now (none went out yet); later ones add to it.
    #expect(feed.update(Self.row("t1"), code: "A", isPrivate: false, now: 1) == 1)
    #expect(feed.update(Self.row("t2"), code: "B", isPrivate: false, now: 1) == nil)
    #expect(feed.update(Self.row("t1", seated: 2), code: "A", isPrivate: false, now: 1) == nil)
    #expect(feed.update(Self.row("t3"), code: "C", isPrivate: true, now: 1) == nil)
    let flushed = feed.flush(now: 1)
    let (frame, to) = try #require(flushed)
    #expect(to == [c1])
    #expect(
      frame.payload
        == ServerMessage.lobbyDiff(
          version: 1, changes: [.upsert(Self.row("t1", seated: 2)), .upsert(Self.row("t2"))]
        ).encoded)
    // The next change waits for the interval since that flush.
    #expect(feed.remove("t2", now: 1.2) == 1.5)
    #expect(feed.remove("t3", now: 1.3) == nil, "a private table was never listed")
    let removed = feed.flush(now: 1.5)
    let (removal, _) = try #require(removed)
    #expect(
      removal.payload
        == ServerMessage.lobbyDiff(version: 2, changes: [.remove(id: "t2")]).encoded)
    #expect(feed.flush(now: 2) == nil, "nothing left to publish")
  }

  @Test func anUnchangedRowAsksForNothing() {
    var feed = LobbyFeed(flushInterval: 0.25)
    #expect(feed.update(Self.row("t1"), code: "A", isPrivate: false, now: 0) == 0)
    _ = feed.flush(now: 0)
    #expect(feed.update(Self.row("t1"), code: "A", isPrivate: false, now: 1) == nil)
  }

  @Test func withNobodyWatchingTheVersionStillMovesOn() throws {
    var feed = LobbyFeed(flushInterval: 0.25)
    _ = feed.update(Self.row("t1"), code: "A", isPrivate: false, now: 0)
    #expect(feed.flush(now: 0) == nil)
    #expect(feed.directory.version == 1)
    feed.watch(c2)
    #expect(
      feed.snapshot(replyTo: .int(4)).payload
        == ServerMessage.lobbySnapshot(replyTo: .int(4), version: 1, tables: [Self.row("t1")])
        .encoded)
    feed.unwatch(c2)
    #expect(feed.watchers.isEmpty)
  }

  @Test func findsTablesByCodeByIdAndByQuickMatch() {
    var feed = LobbyFeed(flushInterval: 0.25)
    _ = feed.update(Self.row("t1", seated: 1), code: "AAA", isPrivate: false, now: 0)
    _ = feed.update(Self.row("t2", seated: 3), code: "BBB", isPrivate: true, now: 0)
    _ = feed.update(Self.row("t3", seated: 2), code: "CCC", isPrivate: false, now: 0)
    #expect(feed.table(withCode: "BBB") == "t2")
    #expect(feed.isPublic("t1"))
    #expect(!feed.isPublic("t2"))
    #expect(!feed.isPublic("t9"))
    #expect(feed.quickMatch(game: "set", seats: 4) == "t3", "the fullest public table")
  }
}
