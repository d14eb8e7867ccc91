import Lobby
import Model
import Protocol
import Testing

/// A table's host driven alone, without a lobby around it: an event goes in, its frames,
/// journal entries and what the router must know come out.
struct TableHostTests {
  let ada = ConnectionID(1)
  let bob = ConnectionID(2)
  let eve = ConnectionID(3)

  /// A waiting two-seat Set table that journals, in a host that closes 30 s after it empties.
  func host(countdown: Double = 3) -> TableHost {
    var rules = TableRules()
    rules.journals = true
    rules.countdown = countdown
    let table = TableState<SetCard>(
      id: "t1", code: "ABCD", isPrivate: false, settings: .set(seats: 2), seed: 7, rules: rules,
      now: 0)
    return TableHost(table: table, creator: "token-ada", emptyTableGrace: 30)
  }

  func sit(_ connection: ConnectionID, _ name: String, in host: inout TableHost, now: Double)
    -> TableHost.Outcome
  {
    host.handle(
      .sit(token: "token-\(name)", name: name, player: nil, connection: connection, replyTo: nil),
      now: now)
  }

  /// The connections each send action goes to, in order.
  func recipients(_ outcome: TableHost.Outcome) -> [[ConnectionID]] {
    outcome.actions.compactMap {
      switch $0 {
      case .send(_, let to), .sendToCrowd(_, let to): to
      default: nil
      }
    }
  }

  @Test func aNewcomerGetsASnapshotAndThoseAlreadyThereTheDiff() {
    var host = host()
    let first = sit(ada, "ada", in: &host, now: 1)
    #expect(first.seat == 0)
    #expect(recipients(first) == [[ada]])
    let second = sit(bob, "bob", in: &host, now: 2)
    #expect(second.seat == 1)
    // The diff to Ada first, then Bob's snapshot.
    #expect(recipients(second) == [[ada], [bob]])
    #expect(host.members == [ada: .player(seat: 0), bob: .player(seat: 1)])
    #expect(host.recipients == [ada, bob])
    // Sitting changes the table; its journal entries come with the clock that follows.
    #expect(second.journal.isEmpty)
    #expect(!host.handle(.clock, now: 2).journal.isEmpty)
  }

  @Test func aRefusedMoveAnswersOnlyTheMoverAndChangesNothing() {
    var host = host()
    _ = sit(ada, "ada", in: &host, now: 1)
    _ = host.handle(.clock, now: 1)
    let version = host.table.version
    // Nobody plays at a table still waiting for its second player.
    let outcome = host.handle(
      .choose(card: 0, seat: 0, connection: ada, replyTo: .int(9)), now: 2)
    #expect(outcome.refusal != nil)
    #expect(recipients(outcome) == [[ada]])
    #expect(outcome.journal.isEmpty)
    #expect(host.table.version == version)
  }

  @Test func aMoveIsJournaledAndGoesToEveryMember() throws {
    var host = host(countdown: 0)
    _ = sit(ada, "ada", in: &host, now: 1)
    _ = sit(bob, "bob", in: &host, now: 1)
    _ = host.handle(.watch(token: "token-eve", connection: eve, replyTo: nil), now: 1)
    _ = host.handle(.clock, now: 1)
    let card = try #require((host.table as? TableState<SetCard>)?.game.board.first).id
    let outcome = host.handle(.choose(card: card, seat: 0, connection: ada, replyTo: nil), now: 2)
    #expect(outcome.refusal == nil)
    // The players first, then the crowd.
    #expect(recipients(outcome) == [[ada, bob], [eve]])
    // The move's journal entry goes in the one channel every event's entries go in, never
    // among the frames; emitted, it comes first, ahead of the frame it holds back.
    #expect(!outcome.actions.contains { if case .journal = $0 { true } else { false } })
    guard case .move(let move) = outcome.journal.first, outcome.journal.count == 1 else {
      Issue.record("the move's journal entry is not the outcome's: \(outcome.journal)")
      return
    }
    #expect(move.index == 0 && move.move == .choose(seat: 0, card: card))
    var emitted: [LobbyAction] = []
    outcome.emit(into: &emitted)
    guard case .journal(.move(move)) = emitted.first else {
      Issue.record("the move's journal entry does not come first: \(emitted)")
      return
    }
    #expect(emitted.count == 3)
  }

  @Test func aDroppedPlayerKeepsTheSeatAndASpectatorLeaves() {
    var host = host()
    _ = sit(ada, "ada", in: &host, now: 1)
    _ = sit(bob, "bob", in: &host, now: 1)
    _ = host.handle(.watch(token: "token-eve", connection: eve, replyTo: nil), now: 1)
    #expect(host.table.spectators == 1)
    let player = host.handle(.drop(connection: bob), now: 2)
    #expect(player.role == .player(seat: 1))
    // The players first, then the crowd.
    #expect(recipients(player) == [[ada], [eve]])
    #expect(host.table.seat(of: "token-bob") == 1)
    let spectator = host.handle(.drop(connection: eve), now: 2)
    #expect(spectator.role == .spectator)
    #expect(host.table.spectators == 0)
    #expect(host.recipients == [ada])
  }

  @Test func anEmptyTableClosesOnceItsGraceIsOver() {
    var host = host()
    _ = sit(ada, "ada", in: &host, now: 1)
    _ = host.handle(.leave(token: "token-ada", connection: ada, seat: 0), now: 5)
    let waiting = host.handle(.clock, now: 5)
    #expect(!waiting.closes)
    #expect(waiting.deadline == 35)
    #expect(!host.handle(.clock, now: 34.9).closes)
    #expect(host.handle(.clock, now: 35).closes)
  }

  @Test func aRejoinCatchesUpFromTheVersionItSaw() {
    var host = host()
    _ = sit(ada, "ada", in: &host, now: 1)
    let seen = host.table.version
    _ = sit(bob, "bob", in: &host, now: 2)
    _ = host.handle(.drop(connection: ada), now: 3)
    let back = ConnectionID(4)
    let outcome = host.handle(
      .rejoin(token: "token-ada", connection: back, replacing: ada, seat: 0, version: seen), now: 4)
    // The diffs Ada missed (Bob sitting, her own seat held) to her new connection, then the
    // seat taken back, to everyone.
    let sent = recipients(outcome)
    #expect(sent.first == [back])
    #expect(sent.last == [bob, back])
    #expect(host.members[back] == .player(seat: 0))
    #expect(host.members[ada] == nil)
  }

  /// The host says where every event took its sessions; the router's desk writes nothing else.
  @Test func theHostReportsWhereItsSessionsWent() {
    var host = host()
    #expect(sit(ada, "ada", in: &host, now: 1).placed == [.seated("token-ada", seat: 0)])
    #expect(sit(bob, "bob", in: &host, now: 1).placed == [.seated("token-bob", seat: 1)])
    let watch = host.handle(.watch(token: "token-eve", connection: eve, replyTo: nil), now: 1)
    #expect(watch.placed == [.watching("token-eve")])
    #expect(host.sessions == [ada: "token-ada", bob: "token-bob", eve: "token-eve"])
    // A dropped player keeps the seat (and the session its place); a spectator is gone.
    #expect(host.handle(.drop(connection: bob), now: 2).placed.isEmpty)
    #expect(host.handle(.drop(connection: eve), now: 2).placed == [.gone("token-eve")])
    #expect(host.tableSessions == ["token-ada", "token-bob"])
    // Given up to another node, the table hands on its member's session and the held seat's.
    #expect(host.retire(.givenUp).placed == [.handedOn("token-ada"), .handedOn("token-bob")])
    #expect(host.retire(.closed).placed == [.gone("token-ada"), .gone("token-bob")])
    // The clock gives the held seat back once the grace is over: that session is gone too.
    let released = host.handle(.clock, now: 10_000)
    #expect(released.placed == [.gone("token-bob")])
    #expect(host.tableSessions == ["token-ada"])
    let leave = host.handle(.leave(token: "token-ada", connection: ada, seat: 0), now: 10_001)
    #expect(leave.placed == [.gone("token-ada")])
    #expect(host.sessions.isEmpty && host.tableSessions.isEmpty)
  }
}
