import Protocol
import Testing

@testable import Lobby

/// The checks every move passes, whoever decides it: a ticket only for a seated player while
/// the journal can be written, naming the shard of its table.
@Suite struct MoveTicketTests {
  let ada = ConnectionID(1)
  let bob = ConnectionID(2)
  let cy = ConnectionID(3)

  static func lobby(shards: Int = 3) -> LobbyState {
    let tokens = SessionDeskTests.Counter()
    // Every draw differs, so no two tables draw the same invite code.
    let draws = SessionDeskTests.Counter()
    return LobbyState(
      entropy: LobbyEntropy(
        seed: { 5 }, token: { "s\(tokens.next())" }, below: { draws.next() % $0 }),
      shards: shards)
  }

  static func send(_ text: String, from connection: ConnectionID, to state: inout LobbyState)
    -> [LobbyAction]
  {
    state.receive(ClientMessageDecoder.decode(Array(text.utf8)), from: connection, now: 0)
  }

  @Test func onlyASeatedPlayerGetsATicketForItsTablesShard() throws {
    var state = Self.lobby()
    #expect(state.moveTicket(of: ada) == nil, "no hello yet")
    _ = Self.send(#"{"type":"hello","name":"Ada"}"#, from: ada, to: &state)
    _ = Self.send(#"{"type":"hello","name":"Bob"}"#, from: bob, to: &state)
    _ = Self.send(#"{"type":"hello","name":"Cy"}"#, from: cy, to: &state)
    #expect(state.moveTicket(of: ada) == nil, "at no table")
    _ = Self.send(#"{"type":"playSolo","game":"set"}"#, from: ada, to: &state)
    _ = Self.send(#"{"type":"playSolo","game":"concentration"}"#, from: bob, to: &state)
    _ = Self.send(#"{"type":"spectate","table":"t1"}"#, from: cy, to: &state)
    #expect(state.session(for: cy)?.tableID == nil, "a solo table is private")

    let set = try #require(state.moveTicket(of: ada))
    #expect(set.shard == 1)
    #expect(!set.isTurnBased)
    #expect(state.playingShard(of: ada) == 1)
    let memory = try #require(state.moveTicket(of: bob))
    #expect(memory.shard == 2)
    #expect(memory.isTurnBased)
    #expect(state.playingShard(of: bob) == nil, "a turn-based move needs the whole lobby")

    state.journalAvailable(false)
    #expect(state.moveTicket(of: ada) == nil)
    state.journalAvailable(true)
    #expect(state.moveTicket(of: ada) == set)

    // What a ticket reads of its table is kept apart from the shards (another thread may be
    // changing the table), and follows the tables' opening and closing.
    #expect(state.openTables == ["t1": false, "t2": true])
    _ = Self.send(#"{"type":"leave"}"#, from: ada, to: &state)
    #expect(state.openTables == ["t2": true])
    #expect(state.moveTicket(of: ada) == nil)
  }

  @Test func aSpectatorIsRefusedAndCountedWhateverTheExecutors() throws {
    var state = Self.lobby(shards: 1)
    _ = Self.send(#"{"type":"hello","name":"Ada"}"#, from: ada, to: &state)
    _ = Self.send(#"{"type":"hello","name":"Cy"}"#, from: cy, to: &state)
    _ = Self.send(
      #"{"type":"createTable","game":"set","seats":2,"private":false}"#, from: ada, to: &state)
    _ = Self.send(#"{"type":"spectate","table":"t1"}"#, from: cy, to: &state)
    #expect(state.session(for: cy)?.tableID == "t1")
    #expect(state.moveTicket(of: cy) == nil)
    let actions = Self.send(#"{"type":"choose","id":3,"card":0}"#, from: cy, to: &state)
    guard case .send(let frame, let to)? = actions.first, actions.count == 1 else {
      Issue.record("not one refusal: \(actions)")
      return
    }
    #expect(to == [cy])
    #expect(JSONValue.parse(frame.payload)?["code"] == "spectator")
    #expect(state.statistics.movesRejected == [.spectator: 1])
  }
}
