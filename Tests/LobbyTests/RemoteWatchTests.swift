import Protocol
import Testing

@testable import Lobby

/// ``RemoteWatch``: spectators here of a table another node holds, watched through one link.
@Suite struct RemoteWatchTests {
  static let ada = ConnectionID(1)
  static let bob = ConnectionID(2)
  static let cy = ConnectionID(3)
  static let url = "ws://10.0.0.1:8080/"

  /// Each action as a line: what it does, to whom, and the message's type and replyTo.
  static func lines(_ actions: [LobbyAction]) -> [String] {
    actions.map { action in
      switch action {
      case .connect(let link, let url): "connect \(link) \(url)"
      case .close(let link, let code, _): "close \(link) \(code)"
      case .send(let frame, let to), .sendToCrowd(let frame, let to),
        .sendAtOnce(let frame, let to):
        {
          let kind =
            if case .sendToCrowd = action { "crowd" } else { "send" }
          let message = JSONValue.parse(frame.payload)
          let type = message?["type"].flatMap { if case .string(let s) = $0 { s } else { nil } }
          let reply = message?["replyTo"].map { String(decoding: $0.encoded, as: UTF8.self) } ?? "-"
          let code = message?["code"].flatMap { if case .string(let s) = $0 { s } else { nil } }
          return "\(kind) \(to) \(type ?? "?") \(reply)\(code.map { " " + $0 } ?? "")"
        }()
      default: "other"
      }
    }
  }

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func spectatorsShareOneLinkAndEachGetsTheSnapshotAsItsOwnAnswer() {
    var watch = RemoteWatch(name: "node n2")
    let link = ConnectionID.link(1)
    #expect(
      Self.lines(watch.watch("t1", code: "ABCD", at: Self.url, Self.ada, replyTo: .int(7)))
        == ["connect link1 \(Self.url)"])
    // A second spectator before the link opened: the same link.
    #expect(watch.watch("t1", code: "ABCD", at: Self.url, Self.bob, replyTo: .string("b")).isEmpty)
    #expect(watch.spectators(of: "t1") == 2 && watch.table(ofLink: link) == "t1")
    // Open: hello, then a spectate by invite code (a private table is not spectated by id).
    #expect(
      Self.lines(watch.linkOpened(link)) == [
        "send [link1] hello -", "send [link1] spectate - ABCD",
      ])
    #expect(watch.linkMessage(link, Self.bytes(#"{"type":"welcome","session":"x"}"#)).isEmpty)
    // A diff before the answer reaches nobody: nobody has the table yet.
    #expect(watch.linkMessage(link, Self.bytes(#"{"type":"diff","version":3}"#)).isEmpty)
    // The answer: each asker gets it as its own, and watches from then on.
    let answer = watch.linkMessage(
      link, Self.bytes(#"{"type":"snapshot","replyTo":"watch-1","table":{"version":3}}"#))
    #expect(
      Self.lines(answer) == [
        "send [c1] snapshot 7", #"send [c2] snapshot "b""#,
      ])
    // Every later frame: one frame for the whole crowd, as it came (a move's diff carries its
    // mover's replyTo, the same frame for everyone at the table).
    let diff = Self.bytes(#"{"type":"diff","version":4,"replyTo":"Ada-3"}"#)
    let forwarded = watch.linkMessage(link, diff)
    #expect(Self.lines(forwarded) == [#"crowd [c1, c2] diff "Ada-3""#])
    if case .sendToCrowd(let frame, _) = forwarded.first { #expect(frame.payload == diff) }
    // A third asks: asked again, answered to it alone while the others go on watching.
    #expect(
      Self.lines(watch.watch("t1", code: "ABCD", at: Self.url, Self.cy, replyTo: .int(1)))
        == ["send [link1] spectate - ABCD"])
    #expect(Self.lines(watch.linkMessage(link, diff)) == [#"crowd [c1, c2] diff "Ada-3""#])
    #expect(
      Self.lines(
        watch.linkMessage(
          link, Self.bytes(#"{"type":"snapshot","replyTo":"watch-2","table":{"version":4}}"#)))
        == ["send [c3] snapshot 1"])
    #expect(Self.lines(watch.linkMessage(link, diff)) == [#"crowd [c1, c2, c3] diff "Ada-3""#])
    // Bob asks for the table afresh: he gets what the link carries before the answer (which
    // shows it too), then the answer as his.
    #expect(
      Self.lines(watch.resync(Self.bob, replyTo: .int(2)) ?? []) == ["send [link1] spectate - ABCD"]
    )
    #expect(Self.lines(watch.linkMessage(link, diff)) == [#"crowd [c1, c2, c3] diff "Ada-3""#])
    #expect(
      Self.lines(watch.linkMessage(link, Self.bytes(#"{"type":"snapshot","replyTo":"watch-3"}"#)))
        == ["send [c2] snapshot 2"])
    #expect(Self.lines(watch.linkMessage(link, diff)) == [#"crowd [c1, c2, c3] diff "Ada-3""#])
    #expect(watch.resync(ConnectionID(9), replyTo: nil) == nil)
    // They leave; the last one's leaving closes the link.
    #expect(watch.unwatch(Self.ada).isEmpty && watch.unwatch(Self.bob).isEmpty)
    #expect(Self.lines(watch.unwatch(Self.cy)) == ["close link1 1000"])
    #expect(watch.spectators(of: "t1") == 0 && watch.table(ofLink: link) == nil)
    #expect(watch.linkMessage(link, diff).isEmpty)
  }

  @Test func aSessionResumedOnANewConnectionWatchesThereAndIsShownTheTable() {
    var watch = RemoteWatch()
    _ = watch.watch("t1", code: "ABCD", at: Self.url, Self.ada, replyTo: .int(3))
    _ = watch.linkOpened(.link(1))
    _ = watch.linkMessage(.link(1), Self.bytes(#"{"type":"snapshot","replyTo":"watch-1"}"#))
    #expect(
      Self.lines(watch.handOver(from: Self.ada, to: Self.bob)) == ["send [link1] spectate - ABCD"])
    #expect(watch.table(watchedBy: Self.ada) == nil && watch.table(watchedBy: Self.bob) == "t1")
    // The old connection's going changes nothing; the new one is shown the table.
    #expect(watch.unwatch(Self.ada).isEmpty)
    #expect(
      Self.lines(
        watch.linkMessage(.link(1), Self.bytes(#"{"type":"snapshot","replyTo":"watch-2"}"#)))
        == ["send [c2] snapshot -"])
    #expect(watch.handOver(from: Self.cy, to: Self.ada).isEmpty)
  }

  @Test func aSpectatorsLineGoesThroughTheLinkAndComesBackToItAndToTheOthersHere() {
    var watch = RemoteWatch(key: "k")
    _ = watch.watch("t1", code: "ABCD", at: Self.url, Self.ada, replyTo: nil)
    _ = watch.watch("t1", code: "ABCD", at: Self.url, Self.bob, replyTo: nil)
    // Before the link is open: refused, nothing waits.
    #expect(
      Self.lines(watch.chat("hi", name: "Ada", from: Self.ada, replyTo: .int(4)))
        == ["send [c1] error 4 unavailable"])
    _ = watch.linkOpened(.link(1))
    _ = watch.linkMessage(.link(1), Self.bytes(#"{"type":"snapshot","replyTo":"watch-1"}"#))
    #expect(
      Self.lines(watch.chat("hi", name: "Ada", from: Self.ada, replyTo: .int(5)))
        == ["send [link1] watcherChat -"])
    #expect(watch.chatsWaiting == 1)
    // The table's answer: Ada's own, and Bob's line.
    let answer = watch.linkMessage(
      .link(1), Self.bytes(#"{"type":"chat","replyTo":"chat-2","line":{"name":"Ada","text":"hi"}}"#)
    )
    #expect(Self.lines(answer) == ["send [c1] chat 5", "crowd [c2] chat -"])
    // A line that waits when the link goes is forgotten with it.
    _ = watch.chat("again", name: "Ada", from: Self.ada, replyTo: nil)
    _ = watch.linkClosed(.link(1))
    #expect(watch.chatsWaiting == 0)
  }

  @Test func aRefusalReachesWhoAskedAndALinkNobodyNeedsCloses() {
    var watch = RemoteWatch()
    _ = watch.watch("t1", code: "ABCD", at: Self.url, Self.ada, replyTo: .int(3))
    _ = watch.linkOpened(.link(1))
    let refused = watch.linkMessage(
      .link(1),
      Self.bytes(#"{"type":"error","replyTo":"watch-1","code":"spectatorLimit","message":"full"}"#))
    #expect(Self.lines(refused) == ["send [c1] error 3 spectatorLimit", "close link1 1000"])
    #expect(watch.table(watchedBy: Self.ada) == nil && watch.table(ofLink: .link(1)) == nil)
    // Forgotten: the next to ask opens a new link.
    #expect(
      Self.lines(watch.watch("t1", code: "ABCD", at: Self.url, Self.bob, replyTo: nil))
        == ["connect link2 \(Self.url)"])
    // The table closes under the link: its spectators hear it, and the link goes.
    _ = watch.linkOpened(.link(2))
    _ = watch.linkMessage(.link(2), Self.bytes(#"{"type":"snapshot","replyTo":"watch-2"}"#))
    let closed = watch.linkMessage(.link(2), Self.bytes(#"{"type":"left"}"#))
    #expect(Self.lines(closed) == ["crowd [c2] left -", "close link2 1000"])
    #expect(watch.table(watchedBy: Self.bob) == nil && watch.spectators(of: "t1") == 0)
  }

  @Test func aLostLinkIsOpenedAgainAndItsSpectatorsAreShownTheTableAgain() {
    var watch = RemoteWatch()
    _ = watch.watch("t1", code: "ABCD", at: Self.url, Self.ada, replyTo: .int(3))
    _ = watch.linkOpened(.link(1))
    _ = watch.linkMessage(.link(1), Self.bytes(#"{"type":"snapshot","replyTo":"watch-1"}"#))
    #expect(watch.linkClosed(.link(1)) == .retry(table: "t1", losses: 1))
    #expect(watch.linkClosed(.link(1)) == .nothing)
    // The table is at another node now.
    let other = "ws://10.0.0.2:8080/"
    #expect(Self.lines(watch.reconnect("t1", to: other)) == ["connect link2 \(other)"])
    #expect(
      Self.lines(watch.linkOpened(.link(2))) == [
        "send [link2] hello -", "send [link2] spectate - ABCD",
      ])
    // The answer re-shows the table, without a replyTo: Ada asked nothing this time.
    #expect(
      Self.lines(
        watch.linkMessage(.link(2), Self.bytes(#"{"type":"snapshot","replyTo":"watch-2"}"#)))
        == ["send [c1] snapshot -"])
    #expect(
      Self.lines(watch.linkMessage(.link(2), Self.bytes(#"{"type":"diff"}"#)))
        == ["crowd [c1] diff -"])
    // A table that moved while watched: its node says where, and the watch follows.
    let moved = watch.linkMessage(
      .link(2), Self.bytes(#"{"type":"redirect","table":"t1","url":"ws://10.0.0.3:8080/"}"#))
    #expect(Self.lines(moved) == ["close link2 1000", "connect link3 ws://10.0.0.3:8080/"])
    // Dropped: its spectators are the lobby's to tell.
    let (actions, spectators) = watch.drop("t1")
    #expect(actions.isEmpty && spectators == [Self.ada])
    #expect(watch.table(watchedBy: Self.ada) == nil)
  }

  @Test func aReaddressedMessageKeepsEverythingButItsReplyTo() {
    let message = JSONValue.parse(
      Self.bytes(#"{"type":"snapshot","replyTo":"x","table":{"a":1}}"#))!
    let readdressed = RemoteWatch.readdressed(message, to: .int(5))
    #expect(readdressed["replyTo"] == .int(5) && readdressed["type"] == message["type"])
    #expect(RemoteWatch.readdressed(message, to: nil)["replyTo"] == nil)
    #expect(RemoteWatch.readdressed(message, to: nil)["table"] == message["table"])
  }
}
