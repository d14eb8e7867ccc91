import Protocol
import Testing

@testable import Lobby

/// Two nodes' lobbies as pure values: a spectator on n2 of a table n1 holds watches it from n2,
/// through n2's link to n1 (issue 36), where a node that names no URL of its own redirects.
@Suite struct ClusterWatchTests {
  typealias Node = ClusterLobbyTests.Node
  static let ada = ConnectionID(1)
  static let bob = ConnectionID(2)
  static let cy = ConnectionID(3)
  static let dee = ConnectionID(4)
  /// The link as n1 sees it: a client connection like any other.
  static let linkAtN1 = ConnectionID(50)
  static let n1URL = "ws://n1.internal:8080/"

  /// n1's publications as n2 hears them, with n1's URL (for clients and nodes alike) when it
  /// gives one.
  static func heard(_ actions: [LobbyAction], url: String?) -> ClusterNews {
    .changes(
      node: "n1",
      ClusterLobbyTests.publications(actions).map { change in
        guard case .upsert(var table) = change else { return change }
        table.url = url
        table.linkURL = url
        return .upsert(table)
      })
  }

  /// What n1 sends the link, handed to n2 as the link's messages; n2's actions.
  static func back(_ actions: [LobbyAction], to n2: inout Node, link: ConnectionID) throws
    -> [LobbyAction]
  {
    var out: [LobbyAction] = []
    for action in actions {
      switch action {
      case .send(let frame, let to), .sendToCrowd(let frame, let to),
        .sendAtOnce(let frame, let to):
        if to.contains(linkAtN1) {
          out += n2.state.handle(.linkMessage(link, frame.payload), now: 1)
        }
      default: break
      }
    }
    return out
  }

  /// What n2 sends the link, handed to n1 as the link's messages; n1's actions.
  static func over(_ actions: [LobbyAction], to n1: inout Node, link: ConnectionID) -> [LobbyAction]
  {
    var out: [LobbyAction] = []
    for case .send(let frame, let to) in actions where to.contains(link) {
      out += n1.state.receive(ClientMessageDecoder.decode(frame.payload), from: linkAtN1, now: 1)
    }
    return out
  }

  /// n1 (with Ada at table t1) and n2, whose Cy and Dee watch t1 through n2's link, answered;
  /// both with the link key "k".
  static func twoWatchingFromN2() throws -> (Node, Node) {
    var n1 = try Node("n1", linkKey: "k")
    var n2 = try Node("n2", firstTable: 1000, linkKey: "k")
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    let created = n1.send(#"{"type":"createTable","game":"set","seats":2}"#, from: Self.ada)
    _ = n2.hear(heard(created, url: Self.n1URL))
    _ = n2.send(#"{"type":"hello","name":"Cy"}"#, from: Self.cy)
    _ = n2.send(#"{"type":"hello","name":"Dee"}"#, from: Self.dee)
    _ = n2.send(#"{"type":"spectate","id":9,"table":"t1"}"#, from: Self.cy)
    _ = n2.send(#"{"type":"spectate","id":9,"table":"t1"}"#, from: Self.dee)
    let opened = n2.state.handle(.linkOpened(.link(1)), now: 1)
    _ = try back(over(opened, to: &n1, link: .link(1)), to: &n2, link: .link(1))
    return (n1, n2)
  }

  @Test func aSpectatorOnAnotherNodeWatchesFromThereThroughOneLink() throws {
    var n1 = try Node("n1")
    var n2 = try Node("n2", firstTable: 1000)
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    _ = n1.send(#"{"type":"hello","name":"Bob"}"#, from: Self.bob)
    let created = n1.send(
      #"{"type":"createTable","game":"set","seats":2,"private":true}"#, from: Self.ada)
    let code = try #require(
      try ClusterLobbyTests.messages(created, to: Self.ada).first?["table"]?["code"]?.stringValue)
    _ = n2.hear(Self.heard(created, url: Self.n1URL))
    _ = n2.send(#"{"type":"hello","name":"Cy"}"#, from: Self.cy)
    _ = n2.send(#"{"type":"hello","name":"Dee"}"#, from: Self.dee)
    // Cy asks on n2: n2 opens a link to n1, and Cy hears nothing yet (no redirect).
    let asked = n2.send(#"{"type":"spectate","id":9,"code":"\#(code)"}"#, from: Self.cy)
    let link = ConnectionID.link(1)
    #expect(RemoteWatchTests.lines(asked) == ["connect link1 \(Self.n1URL)"])
    #expect(n2.state.redirectsSent == 0)
    // Dee asks too: the same link.
    #expect(n2.send(#"{"type":"spectate","id":"d","code":"\#(code)"}"#, from: Self.dee).isEmpty)
    // The link opens; n1 answers its hello and spectate; each hears the snapshot as its answer.
    let opened = n2.state.handle(.linkOpened(link), now: 1)
    let answers = try Self.back(Self.over(opened, to: &n1, link: link), to: &n2, link: link)
    let cySees = try ClusterLobbyTests.messages(answers, to: Self.cy)
    let deeSees = try ClusterLobbyTests.messages(answers, to: Self.dee)
    // Then n1's count of its spectators, as any spectator of n1's hears it.
    #expect(cySees.map { $0["type"]?.stringValue } == ["snapshot", "spectators"])
    #expect(cySees.first?["replyTo"] == .int(9) && deeSees.first?["replyTo"] == .string("d"))
    #expect(cySees.first?["table"]?["you"] == nil)
    let version = try #require(cySees.first?["table"]?["version"]?.intValue)
    // Bob joins on n1: the table's diff reaches the link once and both on n2 from it.
    let joined = n1.send(#"{"type":"join","code":"\#(code)"}"#, from: Self.bob)
    let fannedOut = try Self.back(joined, to: &n2, link: link)
    #expect(
      fannedOut.contains { action in
        if case .sendToCrowd(_, let to) = action { Set(to) == [Self.cy, Self.dee] } else { false }
      })
    let diffs = try ClusterLobbyTests.messages(fannedOut, to: Self.cy).filter {
      $0["type"]?.stringValue == "diff"
    }
    #expect(diffs.first?["version"]?.intValue == version + 1)
    // Cy leaves (answered on n2), Dee goes: nobody watches from n2, and the link closes.
    let left = n2.send(#"{"type":"leave","id":10}"#, from: Self.cy)
    #expect(try ClusterLobbyTests.messages(left, to: Self.cy).first?["type"]?.stringValue == "left")
    let gone = n2.state.disconnected(Self.dee, now: 2)
    #expect(
      gone.contains { action in
        if case .close(link, _, _) = action { true } else { false }
      })
  }

  /// (A server older than the nodes' own addresses: see `RemoteSpectateTests`.)
  @Test func aNodeThatNamesNoAddressAtAllRedirectsItsSpectators() throws {
    var n1 = try Node("n1")
    var n2 = try Node("n2", firstTable: 1000)
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    let created = n1.send(#"{"type":"createTable","game":"set","seats":2}"#, from: Self.ada)
    _ = n2.hear(Self.heard(created, url: nil))
    _ = n2.send(#"{"type":"hello","name":"Cy"}"#, from: Self.cy)
    let asked = n2.send(#"{"type":"spectate","id":9,"table":"t1"}"#, from: Self.cy)
    let answer = try #require(try ClusterLobbyTests.messages(asked, to: Self.cy).first)
    #expect(answer["type"]?.stringValue == "redirect" && answer["role"]?.stringValue == "spectator")
  }

  @Test func aLostLinkIsLookedForAgainAndATableGoneLetsItsSpectatorsGo() throws {
    var n1 = try Node("n1")
    var n2 = try Node("n2", firstTable: 1000)
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    let created = n1.send(#"{"type":"createTable","game":"set","seats":2}"#, from: Self.ada)
    _ = n2.hear(Self.heard(created, url: Self.n1URL))
    _ = n2.send(#"{"type":"hello","name":"Cy"}"#, from: Self.cy)
    _ = n2.send(#"{"type":"spectate","id":9,"table":"t1"}"#, from: Self.cy)
    let opened = n2.state.handle(.linkOpened(.link(1)), now: 1)
    _ = try Self.back(Self.over(opened, to: &n1, link: .link(1)), to: &n2, link: .link(1))
    // The link goes: after a pause n2 looks where t1 is (still n1's) and links again.
    #expect(n2.state.disconnected(.link(1), now: 2).isEmpty)
    let again = n2.state.advance(to: 3.5)
    #expect(RemoteWatchTests.lines(again) == ["connect link2 \(Self.n1URL)"])
    // It is gone this time, and the table with it (off the list): n2 looks again a second
    // apart, as long as a dead node's takeover may take, then Cy hears that she left it.
    #expect(n2.state.disconnected(.link(2), now: 4).isEmpty)
    _ = n2.hear(.changes(node: "n1", [.remove(id: "t1")]), now: 4)
    var letGo: [LobbyAction] = []
    var time = 4.0
    while letGo.isEmpty && time < 40 {
      time += 1
      letGo = n2.state.advance(to: time)
    }
    #expect(time > 20)
    #expect(
      try ClusterLobbyTests.messages(letGo, to: Self.cy).map { $0["type"]?.stringValue } == ["left"]
    )
    #expect(n2.state.remote.table(watchedBy: Self.cy) == nil)
  }

  @Test func aLinkTellsItsCountAndTheTablesNodeCountsItsSpectatorsAsThatMany() throws {
    var (n1, n2) = try Self.twoWatchingFromN2()
    // A second later n2's link tells n1 it watches for two; n1's count takes them, and Ada
    // hears it (the link alone counted one before).
    let told = n2.state.advance(to: 2)
    #expect(RemoteWatchTests.lines(told) == ["send [link1] watching -"])
    _ = Self.over(told, to: &n1, link: .link(1))
    let heard = n1.state.advance(to: 3)
    let counts = try ClusterLobbyTests.messages(heard, to: Self.ada).filter {
      $0["type"]?.stringValue == "spectators"
    }
    #expect(counts.last?["count"]?.intValue == 2)
    // Nothing changed: nothing more told. Dee goes: one.
    #expect(n2.state.advance(to: 3).isEmpty)
    _ = n2.state.disconnected(Self.dee, now: 3.5)
    #expect(RemoteWatchTests.lines(n2.state.advance(to: 4)) == ["send [link1] watching -"])
  }

  @Test func aCountWithoutTheClustersKeyOrFromAPlayerIsRefused() throws {
    var n1 = try Node("n1", linkKey: "k")
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: Self.ada)
    _ = n1.send(#"{"type":"createTable","game":"set","seats":2}"#, from: Self.ada)
    _ = n1.send(#"{"type":"hello","name":"Eve"}"#, from: Self.cy)
    _ = n1.send(#"{"type":"spectate","table":"t1"}"#, from: Self.cy)
    let forged = n1.send(#"{"type":"watching","id":1,"count":9000,"key":"guess"}"#, from: Self.cy)
    #expect(
      try ClusterLobbyTests.messages(forged, to: Self.cy).first?["code"]?.stringValue == "badField")
    let seated = n1.send(#"{"type":"watching","id":2,"count":9000,"key":"k"}"#, from: Self.ada)
    #expect(
      try ClusterLobbyTests.messages(seated, to: Self.ada).first?["code"]?.stringValue
        == "notAtTable")
    #expect(n1.state.hosts["t1"]?.table.spectators == 1)
    // Without a cluster, no key works.
    var alone = try Node("n9", cluster: false)
    _ = alone.send(#"{"type":"hello","name":"Eve"}"#, from: Self.cy)
    let refused = alone.send(#"{"type":"watching","id":1,"count":1,"key":"k"}"#, from: Self.cy)
    #expect(
      try ClusterLobbyTests.messages(refused, to: Self.cy).first?["code"]?.stringValue == "badField"
    )
  }

  @Test func aSpectatorOnAnotherNodeChatsAtTheTableUnderItsOwnName() throws {
    var (n1, n2) = try Self.twoWatchingFromN2()
    let said = n2.send(#"{"type":"chat","id":7,"text":"go Ada"}"#, from: Self.cy)
    let atN1 = Self.over(said, to: &n1, link: .link(1))
    // Ada, at the table, reads Cy's line under Cy's name.
    let adaReads = try ClusterLobbyTests.messages(atN1, to: Self.ada).filter {
      $0["type"]?.stringValue == "chat"
    }
    #expect(
      adaReads.count == 1 && "\(adaReads[0])".contains("Cy") && "\(adaReads[0])".contains("go Ada"))
    // Back on n2: Cy's answer (her id) and Dee's line.
    let back = try Self.back(atN1, to: &n2, link: .link(1))
    #expect(try ClusterLobbyTests.messages(back, to: Self.cy).map { $0["replyTo"] } == [.int(7)])
    #expect(
      try ClusterLobbyTests.messages(back, to: Self.dee).map { $0["type"]?.stringValue } == ["chat"]
    )
    // Not in the lobby's chat.
    #expect(n2.state.lobbyWatchers.isEmpty)
    // A line for someone without the key is refused.
    _ = n1.send(#"{"type":"hello","name":"Eve"}"#, from: Self.bob)
    _ = n1.send(#"{"type":"spectate","table":"t1"}"#, from: Self.bob)
    let forged = n1.send(
      #"{"type":"watcherChat","id":1,"name":"Ada","text":"I quit","key":"x"}"#, from: Self.bob)
    #expect(
      try ClusterLobbyTests.messages(forged, to: Self.bob).first?["code"]?.stringValue == "badField"
    )
  }
}
