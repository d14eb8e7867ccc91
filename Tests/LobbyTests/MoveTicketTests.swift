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
    // The one test of a move a shard decides alone: a decoded `choose`, by a seated player, at a
    // table that does not take turns.
    let choose = ClientMessageDecoder.decode(Array(#"{"type":"choose","id":4,"card":7}"#.utf8))
    let move = try #require(state.shardMove(choose, from: ada))
    #expect(move.shard == 1 && move.ticket == set && move.card == 7 && move.replyTo == .int(4))
    #expect(state.shardMove(choose, from: bob) == nil, "a turn-based table's move")
    #expect(state.shardMove(choose, from: cy) == nil, "at no table")
    let redeal = ClientMessageDecoder.decode(Array(#"{"type":"redeal"}"#.utf8))
    #expect(state.shardMove(redeal, from: ada) == nil, "not a move")
    let broken = ClientMessageDecoder.decode(Array(#"{"type":"choose","card":"x"}"#.utf8))
    #expect(state.shardMove(broken, from: ada) == nil, "not decoded")

    state.journalAvailable(false)
    #expect(state.moveTicket(of: ada) == nil)
    #expect(state.shardMove(choose, from: ada) == nil, "the journal is down")
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

    func choose(_ card: Int) -> Result<ClientEnvelope, ProtocolError> {
      ClientMessageDecoder.decode(Array(#"{"type":"choose","card":\#(card)}"#.utf8))
    }
    // A card on the board: the first one a throwaway copy of the lobby accepts.
    let card = try #require(
      (0..<81).first { card in
        var probe = state
        guard let move = probe.shardMove(choose(card), from: ada) else { return false }
        var shards = probe.lendShards()
        defer { probe.takeBack(shards) }
        return LobbyState.play(move, in: &shards[move.shard], now: 10).accepted
      })
    #expect(state.table("t1")?.version == version, "the probes played on copies")
    var shards = state.lendShards()
    #expect(shards.count == 3)
    let move = try #require(
      state.shardMove(choose(card), from: ada), "moves are asked for while the shards are lent")
    let (actions, accepted) = LobbyState.play(move, in: &shards[move.shard], now: 10)
    #expect(accepted)
    #expect(actions.contains { if case .send = $0 { true } else { false } })
    state.takeBack(shards)

    #expect(state.table("t1")?.version == version + 1)
    #expect(state.movesAccepted == 1)
    #expect(before.table("t1")?.version == version, "the copy made before is its own")
    #expect(before.movesAccepted == 0)
    // Within the whole state, the same move plays on the state's own shard, the same way.
    var copy = state
    _ = copy.receive(choose(card), from: ada, now: 10)
    #expect(copy.movesAccepted == 2)
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
