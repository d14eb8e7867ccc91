import Model
import Protocol
import Testing

@testable import Lobby

/// The tables counted by game and phase as they open, change and close (``TableTally``, the
/// metrics' tables gauge), against the same count read table by table.
@Suite struct TableTallyTests {
  typealias Kind = TableTally.Kind

  /// The open tables of `state` by kind, read one by one.
  static func counted(_ state: LobbyState) throws -> [Kind: Int] {
    var kinds: [Kind: Int] = [:]
    for id in state.tableIDs {
      let table = try #require(state.table(id))
      kinds[Kind(game: table.gameName, phase: table.phase), default: 0] += 1
    }
    return kinds
  }

  /// The lobby's tally agrees with the tables read one by one, each kind once.
  static func expectTallyAgrees(_ state: LobbyState, _ comment: Comment? = nil) throws {
    let kinds = try counted(state)
    let tally = state.tableTally
    #expect(Set(tally.counts.map(\.kind)).count == tally.counts.count, "each kind once")
    #expect(tally.total == state.tableCount, comment)
    for count in tally.counts {
      #expect(count.tables == kinds[count.kind] ?? 0, "\(count) \(comment.map { "\($0)" } ?? "")")
    }
  }

  @Test func countsMoveBetweenKindsAndAKindSeenStaysAtZero() {
    var tally = TableTally()
    let waiting = Kind(game: "set", phase: .waiting)
    let playing = Kind(game: "set", phase: .playing)
    let concentration = Kind(game: "concentration", phase: .waiting)
    tally.add(waiting)
    tally.add(waiting)
    tally.add(concentration)
    tally.change(from: waiting, to: playing)
    tally.change(from: playing, to: playing)
    #expect(tally.tables(of: waiting) == 1)
    #expect(tally.tables(of: playing) == 1)
    #expect(tally.total == 3)
    tally.remove(concentration)
    #expect(tally.tables(of: concentration) == 0)
    #expect(tally.counts.map(\.kind) == [waiting, concentration, playing], "in the order seen")
    var other = TableTally()
    other.add(playing)
    other.add(Kind(game: "matchismo", phase: .countdown))
    tally.merge(other)
    #expect(tally.tables(of: playing) == 2)
    #expect(tally.total == 4)
    #expect(tally.counts.count == 4)
  }

  @Test func everyOpenTableIsCountedOnceByItsKind() throws {
    var state = MoveTicketTests.lobby(shards: 3)
    let opens = [
      #"{"type":"playSolo","game":"set"}"#, #"{"type":"playSolo","game":"set"}"#,
      #"{"type":"playSolo","game":"concentration"}"#,
      #"{"type":"createTable","game":"set","seats":2}"#,
      #"{"type":"createTable","game":"matchismo","seats":3}"#,
      #"{"type":"playSolo","game":"set"}"#,
    ]
    for (number, open) in opens.enumerated() {
      let connection = ConnectionID(rawValue: UInt64(number + 1))
      _ = MoveTicketTests.send(
        #"{"type":"hello","name":"P\#(number)"}"#, from: connection, to: &state)
      _ = MoveTicketTests.send(open, from: connection, to: &state)
    }
    #expect(state.tableCount == 6)
    try Self.expectTallyAgrees(state)
    #expect(state.tableTally.tables(of: Kind(game: "set", phase: .playing)) == 3)
    #expect(state.tableTally.tables(of: Kind(game: "set", phase: .waiting)) == 1)

    // A second player makes the two-seat table count down, then play.
    _ = MoveTicketTests.send(#"{"type":"hello","name":"Q"}"#, from: ConnectionID(9), to: &state)
    _ = MoveTicketTests.send(#"{"type":"join","table":"t4"}"#, from: ConnectionID(9), to: &state)
    try Self.expectTallyAgrees(state, "after a join")
    #expect(state.tableTally.tables(of: Kind(game: "set", phase: .waiting)) == 0)
    _ = state.advance(to: 30)
    try Self.expectTallyAgrees(state, "after the countdown")
    #expect(state.tableTally.tables(of: Kind(game: "set", phase: .playing)) == 4)

    // Leaving a solo table closes it; its kind stays, one table fewer.
    _ = MoveTicketTests.send(#"{"type":"leave"}"#, from: ConnectionID(3), to: &state)
    _ = state.advance(to: 60)
    #expect(state.tableCount == 5)
    try Self.expectTallyAgrees(state, "after a close")
    #expect(state.tableTally.tables(of: Kind(game: "concentration", phase: .playing)) == 0)
  }

  /// A game played to its end, its moves decided in the whole state or on the shard lent to
  /// an executor, moves its table from playing to finished in the count.
  @Test(arguments: [false, true])
  func aGamePlayedToItsEndIsCountedFinished(onShards: Bool) throws {
    var state = MoveTicketTests.lobby(shards: 3)
    let ada = ConnectionID(1)
    _ = MoveTicketTests.send(#"{"type":"hello","name":"Ada"}"#, from: ada, to: &state)
    _ = MoveTicketTests.send(#"{"type":"playSolo","game":"set"}"#, from: ada, to: &state)
    _ = state.advance(to: 10)
    let playing = Kind(game: "set", phase: .playing)
    let finished = Kind(game: "set", phase: .finished)
    #expect(state.tableTally.tables(of: playing) == 1)
    var sets = 0
    while let table = state.table("t1") as? TableState<SetCard>, !table.game.isOver {
      let set = try #require(SetCard.allSets(in: table.game.playableCards).first)
      for card in set {
        let choose = ClientMessageDecoder.decode(
          Array(#"{"type":"choose","card":\#(card.id)}"#.utf8))
        if onShards, let move = state.shardMove(choose, from: ada) {
          var shards = state.lendShards()
          _ = LobbyState.play(move, in: &shards[move.shard], now: 10)
          state.takeBack(shards)
        } else {
          _ = state.receive(choose, from: ada, now: 10)
        }
      }
      sets += 1
      try #require(sets < 100, "the game does not end")
    }
    try Self.expectTallyAgrees(state, "at the end")
    #expect(state.tableTally.tables(of: playing) == 0)
    #expect(state.tableTally.tables(of: finished) == 1)
  }
}
