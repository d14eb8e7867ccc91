import Foundation
import Lobby
import Testing

@testable import Server

/// A crowd brought in step with its table's list of spectators (``Crowd/newMembers(_:state:)``)
/// as the lobby changes it (``MemberList``: newcomers at the end, one who leaves replaced by the
/// last): the right members leave and come, and a list changed in few places costs a look-up
/// only for the ids of those places.
@Suite(.ownThread) struct CrowdMembersTests {
  /// The connections of a test, and how many times the crowd looked one up.
  final class Connections {
    var states: [ConnectionID: ConnectionState] = [:]
    var lookUps = 0

    func state(_ id: ConnectionID) -> ConnectionState? {
      lookUps += 1
      return states[id]
    }

    func add(_ number: UInt64) -> ConnectionID {
      let id = ConnectionID(number)
      states[id] = ConnectionState(
        id: id, wsi: OpaquePointer(bitPattern: 1)!, configuration: TransportConfiguration(),
        now: 0)
      return id
    }
  }

  /// Brings `crowd` in step with `list` as the service loop does (those who left leave, those
  /// who came join); returns who left and who came, as sets, and the look-ups it took.
  private static func send(
    _ list: MemberList, to crowd: Crowd, _ connections: Connections
  ) -> (left: Set<ConnectionID>, came: Set<ConnectionID>, lookUps: Int) {
    connections.lookUps = 0
    let (left, came) = crowd.newMembers(list.ids) { connections.state($0) }
    let lookUps = connections.lookUps
    for state in left { _ = crowd.leave(state) }
    for id in came {
      let state = connections.states[id]!
      if let other = state.crowd { _ = other.leave(state) }
      crowd.join(state)
    }
    return (Set(left.map(\.id)), Set(came), lookUps)
  }

  @Test func fewChangesCostLookUpsOnlyWhereTheListChanged() {
    let connections = Connections()
    let crowd = Crowd()
    var list = MemberList()
    for number in 1...400 { list.insert(connections.add(UInt64(number))) }
    let first = Self.send(list, to: crowd, connections)
    #expect(first.came.count == 400 && first.left.isEmpty)

    // 40 newcomers: nobody looked up.
    let newcomers = (401...440).map { connections.add(UInt64($0)) }
    for id in newcomers { list.insert(id) }
    let joined = Self.send(list, to: crowd, connections)
    #expect(joined.came == Set(newcomers) && joined.left.isEmpty)
    #expect(joined.lookUps == 0)

    // 30 leave: each one who left is looked up, nobody else.
    let leaving = stride(from: 5, through: 300, by: 10).map { ConnectionID(UInt64($0)) }
    for id in leaving { list.remove(id) }
    let left = Self.send(list, to: crowd, connections)
    #expect(left.left == Set(leaving) && left.came.isEmpty)
    #expect(left.lookUps == leaving.count)

    // 20 leave and 20 come between two frames.
    let gone = Array(list.ids.filter { $0.rawValue % 7 == 0 }.prefix(20))
    let came = (441...460).map { connections.add(UInt64($0)) }
    for (out, into) in zip(gone, came) {
      list.remove(out)
      list.insert(into)
    }
    let both = Self.send(list, to: crowd, connections)
    #expect(both.left == Set(gone) && both.came == Set(came))
    #expect(both.lookUps <= gone.count)

    // Most of them leave: every id is looked up (the members staying are marked), and the
    // answer is the same.
    let many = list.ids.filter { $0.rawValue % 4 != 0 }
    for id in many { list.remove(id) }
    let most = Self.send(list, to: crowd, connections)
    #expect(most.left == Set(many) && most.came.isEmpty)
    #expect(most.lookUps == list.count)
    #expect(Set(crowd.members.map(\.id)) == Set(list.ids))
  }

  /// Lists changed at random between two frames, in the lobby's ways: the crowd's members are
  /// the list's after every frame, whichever way the crowd told the changes apart.
  @Test func theMembersAreTheListsWhateverChanged() {
    let connections = Connections()
    let crowd = Crowd()
    var list = MemberList()
    var generator = SystemRandomNumberGenerator()
    var next: UInt64 = 1
    var out: [ConnectionID] = []
    for _ in 0..<300 {
      for _ in 0..<Int.random(in: 0...30, using: &generator) {
        // Someone comes (now and then one who watched before), or someone leaves.
        if Bool.random(using: &generator) || list.isEmpty {
          if let back = out.popLast(), Bool.random(using: &generator) {
            list.insert(back)
          } else {
            list.insert(connections.add(next))
            next += 1
          }
        } else {
          let id = list.ids.randomElement(using: &generator)!
          list.remove(id)
          out.append(id)
        }
      }
      let before = Set(crowd.members.map(\.id))
      let step = Self.send(list, to: crowd, connections)
      let now = Set(list.ids)
      #expect(step.left == before.subtracting(now))
      #expect(step.came == now.subtracting(before))
      #expect(Set(crowd.members.map(\.id)) == now)
      #expect(crowd.members.count == list.count)
    }
  }
}
