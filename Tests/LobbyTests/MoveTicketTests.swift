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

  /// The lobby is a value: a copy is a lobby of its own. A shell that plays moves on several
  /// threads borrows its shards (``LobbyState/lendShards()``) and plays each move on the
  /// ticket's shard alone; taken back, the lobby has the move, and the copy made before has not.
  @Test func aLobbyIsAValueAndItsLentShardsComeBackWithTheirMoves() throws {
    var state = Self.lobby()
    _ = Self.send(#"{"type":"hello","name":"Ada"}"#, from: ada, to: &state)
    _ = Self.send(#"{"type":"playSolo","game":"set"}"#, from: ada, to: &state)
    _ = state.advance(to: 10)  // past the countdown
    let before = state
    let version = try #require(state.table("t1")?.version)

    let ticket = try #require(state.moveTicket(of: ada))
    // A card on the board: the first one a throwaway copy of the lobby accepts.
    let card = try #require(
      (0..<81).first { card in
        var probe = state
        return probe.choose(card, replyTo: nil, from: ada, ticket: ticket, now: 10).accepted
      })
    #expect(state.table("t1")?.version == version, "the probes played on copies")
    var shards = state.lendShards()
    #expect(shards.count == 3)
    #expect(state.moveTicket(of: ada) == ticket, "tickets are asked for while the shards are lent")
    let (actions, accepted) = LobbyState.choose(
      card, replyTo: nil, from: ada, ticket: ticket, in: &shards[ticket.shard], now: 10)
    #expect(accepted)
    #expect(actions.contains { if case .send = $0 { true } else { false } })
    state.takeBack(shards)

    #expect(state.table("t1")?.version == version + 1)
    #expect(state.movesAccepted == 1)
    #expect(before.table("t1")?.version == version, "the copy made before is its own")
    #expect(before.movesAccepted == 0)
    // The mutating form plays on the state's own shard, the same way.
    var copy = state
    #expect(copy.choose(card, replyTo: nil, from: ada, ticket: ticket, now: 10).accepted)
    #expect(copy.table("t1")?.version == version + 2)
    #expect(state.table("t1")?.version == version + 1)
  }

  /// Nothing but a ticket may be asked of a lobby whose shards are lent: its tables are not
  /// there, so an answer would be wrong. It stops instead.
  @Test func aLobbyWhoseShardsAreLentDecidesNothing() async {
    await #expect(processExitsWith: .failure) {
      var state = MoveTicketTests.lobby()
      _ = state.lendShards()
      _ = state.handle(.clock, now: 0)
    }
  }
}
