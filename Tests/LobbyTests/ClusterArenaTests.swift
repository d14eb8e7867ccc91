import Protocol
import TestSupport
import Testing

@testable import Lobby

/// Arenas across the nodes of a cluster, as pure values: an arena is published as a private row
/// of the directory; another node lists the public ones and sends a request for one to the node
/// that holds it; the schedule's arena, opened by two nodes at once, is kept by one.
@Suite struct ClusterArenaTests {
  typealias Node = ClusterLobbyTests.Node
  let ada = ClusterLobbyTests.ada
  let bob = ClusterLobbyTests.bob

  @Test func anotherNodesArenaIsFoundByItsCodeAndTheRequestSentThere() throws {
    var n1 = try Node("n1")
    var n2 = try Node("n2", firstTable: 1000)
    _ = n1.send(#"{"type":"hello","name":"Ada"}"#, from: ada)
    let created = n1.send(#"{"type":"createArena","id":2,"game":"set","minutes":10}"#, from: ada)
    let arena = try #require(
      ClusterLobbyTests.messages(created, to: ada).first { $0["type"] == "arena" })
    let code = try #require(arena["arena"]?["code"]?.stringValue)
    let id = try #require(arena["arena"]?["id"]?.stringValue)
    // Its row goes to the directory, private, its summary with it.
    let published = ClusterLobbyTests.publications(created + n1.state.advance(to: 1))
    #expect(published.map(\.id).contains(id))
    _ = n2.hear(.changes(node: "n1", published))
    _ = n2.send(#"{"type":"hello","name":"Bob"}"#, from: bob)
    // A private arena is not listed elsewhere, nor found by its id; by its code, Bob is sent on.
    let list = try #require(
      ClusterLobbyTests.messages(n2.send(#"{"type":"arenas","id":3}"#, from: bob), to: bob).first)
    #expect(list["arenas"]?.elements?.contains { $0["id"] == .string(id) } == false)
    let byID = try #require(
      ClusterLobbyTests.messages(
        n2.send(#"{"type":"joinArena","id":4,"arena":"\#(id)"}"#, from: bob), to: bob
      ).first)
    #expect(byID["code"] == "unknownArena")
    let sent = try #require(
      ClusterLobbyTests.messages(
        n2.send(#"{"type":"joinArena","id":5,"code":"\#(code)"}"#, from: bob), to: bob
      ).first)
    #expect(sent["type"] == "redirect" && sent["replyTo"] == .int(5))
    #expect(sent["role"] == "arenaPlayer" && sent["code"] == .string(code))
    #expect(sent["node"] == "n1" && sent["table"] == .string(id))
  }

  @Test func theSchedulesArenaOpenedByTwoNodesIsKeptByOne() throws {
    var n1 = try Node("n1")
    var n2 = try Node("n2", firstTable: 1000)
    let one = n1.state.takeAllPublications()
    let two = n2.state.takeAllPublications()
    _ = n1.state.takeActions()
    _ = n2.state.takeActions()
    #expect(one.isEmpty && two.isEmpty)
    n1.state.openScheduledArenas(now: 1)
    n2.state.openScheduledArenas(now: 1)
    let fromOne = ClusterLobbyTests.publications(n1.state.advance(to: 1))
    let fromTwo = ClusterLobbyTests.publications(n2.state.advance(to: 1))
    let id = try #require(fromOne.first?.id)
    #expect(fromTwo.map(\.id) == [id])
    // Each hears the other: n2 gives it up and lists n1's; n1 publishes its row again.
    let again = ClusterLobbyTests.publications(n1.hear(.changes(node: "n2", fromTwo)))
    _ = n2.hear(.changes(node: "n1", fromOne))
    #expect(again.map(\.id) == [id])
    #expect(n1.state.arenaBook.arenas[id] != nil && n2.state.arenaBook.arenas[id] == nil)
    _ = n2.send(#"{"type":"hello","name":"Bob"}"#, from: bob)
    let list = try #require(
      ClusterLobbyTests.messages(n2.send(#"{"type":"arenas","id":3}"#, from: bob), to: bob).first)
    #expect(list["arenas"]?.elements?.map { $0["id"]?.stringValue } == [id])
    let sent = try #require(
      ClusterLobbyTests.messages(
        n2.send(#"{"type":"joinArena","id":4,"arena":"\#(id)"}"#, from: bob), to: bob
      ).first)
    #expect(sent["type"] == "redirect" && sent["node"] == "n1" && sent["role"] == "arenaPlayer")
  }
}
