import Protocol
import Testing

@testable import Lobby

/// A spectator of another node's table watches from the node it reached whenever that node
/// names an address for the nodes (``ClusterTable/linkURL``), which every node does by
/// default; only its URL for clients (`--advertise-url`) goes into redirects.
@Suite struct RemoteSpectateTests {
  typealias Node = ClusterLobbyTests.Node

  static func table(_ id: String, url: String?, linkURL: String?) -> ClusterTable {
    ClusterTable(
      listing: TableListing(
        id: id, game: "set", seats: 2, seated: 1, spectators: 0, phase: .playing, node: "n1"),
      code: "C\(id)", isPrivate: false, url: url, linkURL: linkURL)
  }

  /// The URLs `actions` open links to.
  static func links(_ actions: [LobbyAction]) -> [String] {
    actions.compactMap { if case .connect(_, let url) = $0 { url } else { nil } }
  }

  @Test func aNodeThatNamesNoURLToClientsIsWatchedThroughALinkAndPlayersAreSentOn() throws {
    var n2 = try Node("n2", firstTable: 1000)
    let address = "ws://10.0.0.1:8080/"
    _ = n2.hear(
      .changes(
        node: "n1",
        [
          .upsert(Self.table("t1", url: nil, linkURL: address)),
          .upsert(Self.table("t2", url: nil, linkURL: nil)),
        ]))
    _ = n2.send(#"{"type":"hello","name":"Bob"}"#, from: ClusterLobbyTests.bob)
    _ = n2.send(#"{"type":"hello","name":"Cy"}"#, from: ClusterLobbyTests.cy)
    // Bob watches t1 from here: a link to n1's address, no redirect.
    let watching = n2.send(#"{"type":"spectate","table":"t1"}"#, from: ClusterLobbyTests.bob)
    #expect(Self.links(watching) == [address])
    #expect(try ClusterLobbyTests.messages(watching, to: ClusterLobbyTests.bob).isEmpty)
    // A player is sent on, by the front door's path alone: the address is not the clients'.
    let joining = try ClusterLobbyTests.messages(
      n2.send(#"{"type":"join","table":"t1"}"#, from: ClusterLobbyTests.cy),
      to: ClusterLobbyTests.cy)
    #expect(joining.first?["type"]?.stringValue == "redirect")
    #expect(joining.first?["url"] == nil)
    // A node that names no address at all (an older one): its spectators are sent on too.
    _ = n2.send(#"{"type":"hello","name":"Dan"}"#, from: ConnectionID(4))
    let sent = n2.send(#"{"type":"spectate","table":"t2"}"#, from: ConnectionID(4))
    #expect(Self.links(sent).isEmpty)
    let redirect = try ClusterLobbyTests.messages(sent, to: ConnectionID(4))
    #expect(redirect.first?["type"]?.stringValue == "redirect")
    #expect(redirect.first?["role"]?.stringValue == "spectator")
  }

  @Test func aTableThatMovesToANodeThatNamesNoURLIsFoundAgainThroughTheDirectory() {
    var watch = RemoteWatch()
    _ = watch.watch("t1", code: "ABCD", at: "ws://10.0.0.1:8080/", ConnectionID(1), replyTo: nil)
    _ = watch.linkOpened(.link(1))
    _ = watch.linkMessage(.link(1), Array(#"{"type":"snapshot","replyTo":"watch-1"}"#.utf8))
    // Its node says it moved, without a URL: the link closes, and its loss looks it up again.
    let moved = watch.linkMessage(.link(1), Array(#"{"type":"redirect","table":"t1"}"#.utf8))
    #expect(
      moved.contains {
        if case .close(.link(1), 1000, _) = $0 { true } else { false }
      })
    #expect(watch.linkClosed(.link(1)) == .retry(table: "t1", losses: 1))
  }
}
