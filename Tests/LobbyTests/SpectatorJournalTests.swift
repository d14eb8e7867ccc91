import Protocol
import Testing

@testable import Lobby

/// What a spectator's comings and goings write to the journal: on a server on its own, only its
/// session (a restart never puts a spectator back at its table), so a crowd that watches, leaves
/// or drops and comes back writes nothing more; in a cluster, also the table it watches, which
/// another node reads when the session reaches it.
@Suite struct SpectatorJournalTests {
  static let ada = ConnectionID(1)
  static let cy = ConnectionID(3)
  static let cyAgain = ConnectionID(4)

  /// The session entries of `actions`: the record's table (nil: none) or "ended".
  static func sessions(_ actions: [LobbyAction]) -> [String?] {
    ClusterLobbyTests.entries(actions).compactMap { entry -> String?? in
      switch entry {
      case .session(let record): .some(record.tableID)
      case .sessionEnded: .some("ended")
      default: nil
      }
    }
  }

  /// Ada at a table of two, Cy watching it, dropping, resuming and watching again, then
  /// leaving: the session entries of each of Cy's steps.
  static func cysSteps(cluster: Bool) throws -> [[String?]] {
    var node = try ClusterLobbyTests.Node("n1", cluster: cluster)
    _ = node.send(#"{"type":"hello","name":"Ada"}"#, from: ada)
    _ = node.send(#"{"type":"createTable","game":"set","seats":2}"#, from: ada)
    var steps: [[String?]] = []
    steps.append(sessions(node.send(#"{"type":"hello","name":"Cy"}"#, from: cy)))
    steps.append(sessions(node.send(#"{"type":"spectate","table":"t1"}"#, from: cy)))
    #expect(node.state.table("t1")?.spectators == 1)
    steps.append(sessions(node.state.disconnected(cy, now: 2)))
    steps.append(
      sessions(node.send(#"{"type":"hello","resume":"n1-s2"}"#, from: cyAgain, now: 3)))
    #expect(node.state.session(for: cyAgain)?.name == "Cy", "resumed")
    steps.append(sessions(node.send(#"{"type":"spectate","table":"t1"}"#, from: cyAgain)))
    steps.append(sessions(node.send(#"{"type":"leave"}"#, from: cyAgain)))
    #expect(node.state.table("t1")?.spectators == 0)
    // Then Cy sits down and leaves: the seat is written, and given up.
    steps.append(sessions(node.send(#"{"type":"join","table":"t1"}"#, from: cyAgain)))
    steps.append(sessions(node.send(#"{"type":"leave"}"#, from: cyAgain)))
    return steps
  }

  @Test func onAServerOnItsOwnAWatchingCrowdWritesOnlyItsSessions() throws {
    let steps = try Self.cysSteps(cluster: false)
    #expect(steps == [[nil], [], [], [], [], [], ["t1"], [nil]])
  }

  @Test func inAClusterTheTableASpectatorWatchesIsWritten() throws {
    let steps = try Self.cysSteps(cluster: true)
    #expect(steps == [[nil], ["t1"], [nil], [], ["t1"], [nil], ["t1"], [nil]])
  }
}
