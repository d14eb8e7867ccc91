import Lobby
import Model
import Protocol
import TestSupport
import Testing

/// Helpers for multiplayer tables built with the waiting-table initializer.
enum Multi {
  typealias State = TableState<SetCard>

  static func rules(countdown: Double = 3, grace: Double = 60, ringSize: Int = 64) -> TableRules {
    var rules = TableRules()
    rules.countdown = countdown
    rules.reconnectGrace = grace
    rules.ringSize = ringSize
    return rules
  }

  static func table(
    seats: Int, seed: UInt64 = 42, countdown: Double = 3, grace: Double = 60,
    ringSize: Int = 64, isPrivate: Bool = false, code: String = "ABCDEF", now: Double = 0
  ) -> State {
    State(
      id: "t1", code: code, isPrivate: isPrivate, settings: .set(seats: seats), seed: seed,
      rules: rules(countdown: countdown, grace: grace, ringSize: ringSize), now: now)
  }

  /// Seats `name` (token "tok-<name>"), which must succeed.
  static func sit(
    _ name: String, at state: inout State, replyTo: MessageID? = nil, now: Double = 0,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (seat: Int, broadcast: State.Broadcast) {
    switch state.sit(token: "tok-\(name)", name: name, replyTo: replyTo, now: now) {
    case .success(let result): return result
    case .failure(let error):
      Issue.record("\(name) could not sit: \(error)", sourceLocation: sourceLocation)
      throw TableStateTests.Refused()
    }
  }

  /// The broadcast of a successful result.
  static func success(
    _ result: Result<State.Broadcast, ProtocolError>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> State.Broadcast {
    switch result {
    case .success(let b): return b
    case .failure(let error):
      Issue.record("refused: \(error)", sourceLocation: sourceLocation)
      throw TableStateTests.Refused()
    }
  }

  /// The error of a failed result.
  static func failure<T>(
    _ result: Result<T, ProtocolError>, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> ProtocolError {
    switch result {
    case .success:
      Issue.record("accepted", sourceLocation: sourceLocation)
      throw TableStateTests.Refused()
    case .failure(let error): return error
    }
  }

  /// `value`, which must not be nil (a function, so that mutating calls can be its argument).
  static func must<T>(_ value: T?, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    try #require(value, sourceLocation: sourceLocation)
  }

  static func events(_ diff: JSONValue) -> [JSONValue] { diff["events"]?.elements ?? [] }

  static func parse(_ text: String) -> [JSONValue] {
    JSONValue.parse(text)?.elements ?? [.string("unparsable: \(text)")]
  }

  static func redealEvent(_ game: CardMatchingGame<SetCard>) -> JSONValue {
    Written.json(GameEvent<SetCard>.redealt(board: game.board, deckCount: game.deckCount))
  }
}

@Suite struct MultiplayerTableStateTests {
  typealias State = Multi.State

  @Test func aNewTableWaitsEmpty() {
    let state = Multi.table(seats: 4, now: 5)
    #expect(state.version == 0)
    #expect(state.phase == .waiting)
    #expect(state.seats == [nil, nil, nil, nil])
    #expect(state.host == nil)
    #expect(state.emptySince == 5)
    #expect(state.nextDeadline == nil)
    #expect(
      state.listing
        == TableListing(
          id: "t1", game: "set", seats: 4, seated: 0, spectators: 0, phase: .waiting,
          settings: ServerMessage.settings(state.game.settings)))
  }

  @Test func seatsFillLowestFirstAndTheFirstSitterHosts() throws {
    var state = Multi.table(seats: 3)
    let ada = try Multi.sit("Ada", at: &state, replyTo: .int(7))
    #expect(ada.seat == 0)
    #expect(ada.broadcast.version == 1)
    #expect(ada.broadcast.diff["seat"] == .int(0))
    #expect(ada.broadcast.diff["replyTo"] == .int(7))
    #expect(
      Multi.events(ada.broadcast.diff)
        == Multi.parse(
          #"[{"kind":"join","seat":0,"name":"Ada"},{"kind":"host","seat":0}]"#))
    #expect(
      ada.broadcast.diff["status"]
        == JSONValue.parse(#"[{"text":"Ada","seat":0},{"text":" joined."}]"#))
    #expect(ada.broadcast.diff["version"] == .int(1))
    #expect(state.host == 0)
    #expect(state.emptySince == nil)

    let bob = try Multi.sit("Bob", at: &state)
    #expect(bob.seat == 1)
    #expect(
      Multi.events(bob.broadcast.diff) == Multi.parse(#"[{"kind":"join","seat":1,"name":"Bob"}]"#))
    #expect(state.seat(of: "tok-Bob") == 1)

    // Ada leaves: Bob hosts, and the next sitter takes seat 0 again.
    let left = try Multi.must(state.release(seat: 0, now: 1))
    #expect(left.version == 3)
    #expect(left.diff["seat"] == nil)
    #expect(
      Multi.events(left.diff)
        == Multi.parse(#"[{"kind":"leave","seat":0},{"kind":"host","seat":1}]"#))
    let cy = try Multi.sit("Cy", at: &state)
    #expect(cy.seat == 0)
    #expect(
      Multi.events(cy.broadcast.diff) == Multi.parse(#"[{"kind":"join","seat":0,"name":"Cy"}]"#))
    #expect(state.host == 1)
    #expect(state.phase == .waiting)
    #expect(state.seatedCount == 2)
    #expect(state.listing.seated == 2)
  }

  @Test func aFullTableCountsDownAndTickDeals() throws {
    var state = Multi.table(seats: 2, countdown: 2.5)
    _ = try Multi.sit("Ada", at: &state, now: 10)
    let bob = try Multi.sit("Bob", at: &state, now: 10)
    #expect(
      Multi.events(bob.broadcast.diff)
        == Multi.parse(
          #"[{"kind":"join","seat":1,"name":"Bob"},{"kind":"phase","phase":"countdown","countdown":3}]"#
        ))
    #expect(
      bob.broadcast.diff["status"]
        == JSONValue.parse(
          #"[{"text":"Bob","seat":1},{"text":" joined. "},{"text":"Starting in 3…"}]"#))
    #expect(state.phase == .countdown)
    #expect(state.countdownEnds == 12.5)
    #expect(state.nextDeadline == 12.5)
    #expect(state.listing.phase == .countdown)

    let early = state.tick(now: 12.4)
    #expect(early.broadcasts.isEmpty)
    #expect(early.released.isEmpty)
    #expect(state.phase == .countdown)
    #expect(state.version == 2)

    let due = state.tick(now: 12.5)
    try #require(due.broadcasts.count == 1)
    #expect(due.released.isEmpty)
    let deal = due.broadcasts[0]
    #expect(deal.version == 3)
    #expect(deal.diff["seat"] == nil)
    #expect(
      Multi.events(deal.diff)
        == [
          JSONValue.parse(#"{"kind":"phase","phase":"playing"}"#)!, Multi.redealEvent(state.game),
        ])
    #expect(state.game.board.count == 12)
    #expect(state.phase == .playing)
    #expect(state.countdownEnds == nil)
    #expect(state.nextDeadline == nil)
    // Once playing, a tick does nothing more.
    #expect(state.tick(now: 100).broadcasts.isEmpty)
    #expect(state.version == 3)
  }

  @Test func withoutACountdownPlayStartsAtOnce() throws {
    var state = Multi.table(seats: 2, countdown: 0)
    _ = try Multi.sit("Ada", at: &state)
    let bob = try Multi.sit("Bob", at: &state)
    #expect(
      Multi.events(bob.broadcast.diff)
        == [
          JSONValue.parse(#"{"kind":"join","seat":1,"name":"Bob"}"#)!,
          JSONValue.parse(#"{"kind":"phase","phase":"playing"}"#)!, Multi.redealEvent(state.game),
        ])
    #expect(state.phase == .playing)
    #expect(state.countdownEnds == nil)

    // The host's start also plays at once.
    var other = Multi.table(seats: 3, countdown: 0)
    _ = try Multi.sit("Ada", at: &other)
    let start = try Multi.success(other.start(by: 0, replyTo: .int(4), now: 0))
    #expect(
      Multi.events(start.diff)
        == [
          JSONValue.parse(#"{"kind":"phase","phase":"playing"}"#)!, Multi.redealEvent(other.game),
        ])
    #expect(start.diff["seat"] == .int(0))
    #expect(start.diff["replyTo"] == .int(4))
    #expect(other.phase == .playing)
  }

  @Test func onlyTheHostStartsAndOnlyOnce() throws {
    var state = Multi.table(seats: 3, countdown: 3)
    _ = try Multi.sit("Ada", at: &state)
    _ = try Multi.sit("Bob", at: &state)
    let notHost = try Multi.failure(state.start(by: 1, replyTo: .int(1), now: 0))
    #expect(notHost.code == .notHost)
    #expect(notHost.replyTo == .int(1))
    #expect(state.version == 2)
    #expect(state.phase == .waiting)

    let start = try Multi.success(state.start(by: 0, replyTo: .string("go"), now: 20))
    #expect(start.version == 3)
    #expect(
      Multi.events(start.diff)
        == Multi.parse(#"[{"kind":"phase","phase":"countdown","countdown":3}]"#))
    #expect(state.countdownEnds == 23)

    let again = try Multi.failure(state.start(by: 0, replyTo: .int(2), now: 21))
    #expect(again.code == .alreadyStarted)
    #expect(again.replyTo == .int(2))
    // A free seat, but the game has started.
    let late = try Multi.failure(state.sit(token: "tok-Cy", name: "Cy", replyTo: .int(3), now: 21))
    #expect(late.code == .alreadyStarted)
    #expect(late.replyTo == .int(3))
    #expect(state.version == 3)
    #expect(state.seatedCount == 2)

    _ = state.tick(now: 23)
    #expect(state.phase == .playing)
    #expect(try Multi.failure(state.start(by: 0, replyTo: nil, now: 24)).code == .alreadyStarted)
    #expect(try Multi.failure(state.start(by: 1, replyTo: nil, now: 24)).code == .notHost)
  }

  @Test func aFullTableSaysSo() throws {
    var state = Multi.table(seats: 2, countdown: 3)
    _ = try Multi.sit("Ada", at: &state)
    _ = try Multi.sit("Bob", at: &state)
    let full = try Multi.failure(state.sit(token: "tok-Cy", name: "Cy", replyTo: .int(9), now: 0))
    #expect(full.code == .tableFull)
    #expect(full.replyTo == .int(9))
    #expect(state.version == 2)
    _ = state.tick(now: 3)
    #expect(
      try Multi.failure(state.sit(token: "tok-Cy", name: "Cy", replyTo: nil, now: 4)).code
        == .tableFull)
  }

  @Test func choosingBeforePlayIsNotPlaying() throws {
    var state = Multi.table(seats: 2, countdown: 3)
    _ = try Multi.sit("Ada", at: &state)
    let card = state.game.board[0].id
    let waiting = try TableStateTests.reject(
      .choose(seat: 0, card: card), replyTo: .int(5), in: &state)
    #expect(waiting.code == .notPlaying)
    #expect(waiting.replyTo == .int(5))
    _ = try Multi.sit("Bob", at: &state)
    #expect(state.phase == .countdown)
    let counting = try TableStateTests.reject(.choose(seat: 1, card: card), in: &state)
    #expect(counting.code == .notPlaying)
    #expect(state.version == 2)
    #expect(state.record.moves.isEmpty)
    #expect(state.game.players.allSatisfy { $0.selection.isEmpty && $0.score == 0 })
  }

  @Test func reDealingBeforePlayIsNotPlaying() throws {
    var state = Multi.table(seats: 3, countdown: 3)
    _ = try Multi.sit("Ada", at: &state)
    _ = try Multi.sit("Bob", at: &state)
    let version = state.version
    for seat in [0, 1] {
      guard case .failure(let error) = state.requestRedeal(by: seat, replyTo: .int(seat)) else {
        Issue.record("a re-deal before play was accepted")
        return
      }
      #expect(error.code == .notPlaying)
      #expect(error.replyTo == .int(seat))
    }
    #expect(state.version == version)
    #expect(state.votes.isEmpty)
    #expect(state.phase == .waiting)
  }

  @Test func releasingTheHostPassesHostToTheLowestOccupiedSeat() throws {
    var state = Multi.table(seats: 4)
    for name in ["Ada", "Bob", "Cy"] { _ = try Multi.sit(name, at: &state) }
    _ = try Multi.must(state.release(seat: 1, now: 0))
    #expect(state.host == 0)
    let hostLeaves = try Multi.must(state.release(seat: 0, now: 0))
    #expect(
      Multi.events(hostLeaves.diff)
        == Multi.parse(#"[{"kind":"leave","seat":0},{"kind":"host","seat":2}]"#))
    #expect(
      hostLeaves.diff["status"] == JSONValue.parse(#"[{"text":"Ada","seat":0},{"text":" left."}]"#))
    #expect(state.host == 2)
    #expect(state.release(seat: 0, now: 0) == nil)
    #expect(state.release(seat: 9, now: 0) == nil)
    let last = try Multi.must(state.release(seat: 2, now: 30))
    // Nobody is left to host: a host event without a seat says so.
    #expect(
      Multi.events(last.diff) == Multi.parse(#"[{"kind":"leave","seat":2},{"kind":"host"}]"#))
    #expect(state.host == nil)
    #expect(state.emptySince == 30)
    #expect(state.version == 6)
  }

  @Test func theLastPlayerLeavingACountdownStopsIt() throws {
    var state = Multi.table(seats: 2)
    _ = try Multi.sit("Ada", at: &state)
    _ = try Multi.sit("Bob", at: &state)
    _ = try Multi.must(state.release(seat: 0, now: 1))
    #expect(state.phase == .countdown)
    let last = try Multi.must(state.release(seat: 1, now: 2))
    #expect(
      Multi.events(last.diff)
        == Multi.parse(
          #"[{"kind":"leave","seat":1},{"kind":"host"},{"kind":"phase","phase":"waiting"}]"#))
    #expect(state.phase == .waiting)
    #expect(state.countdownEnds == nil)
    #expect(state.nextDeadline == nil)
  }

  @Test func disconnectHoldsTheSeatAndReconnectTakesItBack() throws {
    var state = Multi.table(seats: 3, grace: 29.5)
    _ = try Multi.sit("Ada", at: &state)
    _ = try Multi.sit("Bob", at: &state)
    let away = try Multi.must(state.disconnect(seat: 1, now: 100))
    #expect(away.version == 3)
    #expect(away.diff["seat"] == nil)
    #expect(Multi.events(away.diff) == Multi.parse(#"[{"kind":"away","seat":1,"seconds":30}]"#))
    #expect(
      away.diff["status"]
        == JSONValue.parse(#"[{"text":"Bob","seat":1},{"text":" is reconnecting…"}]"#))
    #expect(state.seats[1]?.awayUntil == 129.5)
    #expect(state.connectedCount == 1)
    #expect(state.seatedCount == 2)
    // Released once the time is past awayUntil: the deadline is the next instant.
    #expect(state.nextDeadline == (129.5).nextUp)
    #expect(state.disconnect(seat: 1, now: 101) == nil)
    #expect(state.disconnect(seat: 2, now: 101) == nil)
    #expect(state.reconnect(seat: 0) == nil)

    let back = try Multi.must(state.reconnect(seat: 1))
    #expect(back.version == 4)
    #expect(back.diff["seat"] == .int(1))
    #expect(Multi.events(back.diff) == Multi.parse(#"[{"kind":"back","seat":1}]"#))
    #expect(
      back.diff["status"] == JSONValue.parse(#"[{"text":"Bob","seat":1},{"text":" is back."}]"#))
    #expect(state.seats[1]?.awayUntil == nil)
    #expect(state.reconnect(seat: 1) == nil)
    #expect(state.version == 4)
  }

  @Test func theSeatIsReleasedOnlyAfterTheGrace() throws {
    var state = Multi.table(seats: 3, grace: 30)
    _ = try Multi.sit("Ada", at: &state)
    _ = try Multi.sit("Bob", at: &state)
    _ = try Multi.must(state.disconnect(seat: 0, now: 100))
    let atGrace = state.tick(now: 130)
    #expect(atGrace.broadcasts.isEmpty)
    #expect(atGrace.released.isEmpty)
    #expect(state.seats[0]?.name == "Ada")

    let past = state.tick(now: 130.25)
    #expect(past.released == ["tok-Ada"])
    try #require(past.broadcasts.count == 1)
    #expect(past.broadcasts[0].version == 4)
    #expect(past.broadcasts[0].diff["seat"] == nil)
    #expect(
      Multi.events(past.broadcasts[0].diff)
        == Multi.parse(#"[{"kind":"leave","seat":0},{"kind":"host","seat":1}]"#))
    #expect(state.seats[0] == nil)
    #expect(state.seat(of: "tok-Ada") == nil)
    #expect(state.host == 1)
    #expect(state.tick(now: 500).released.isEmpty)
  }

  @Test func theSpectatorsCountIsNoChangeOfTheGame() throws {
    var state = Multi.table(seats: 2)
    _ = try Multi.sit("Ada", at: &state)
    let status = state.status
    let version = state.version
    state.setSpectators(2)
    // Shown where the table is described, but no version and no diff: the host tells it.
    #expect(state.version == version)
    #expect(state.diffs(after: version)?.isEmpty == true)
    #expect(state.status == status)
    #expect(state.listing.spectators == 2)
    #expect(state.snapshot(replyTo: nil, you: nil)["table"]?["spectators"] == .int(2))
    state.setSpectators(0)
    #expect(state.listing.spectators == 0)
    #expect(state.version == version)
  }

  /// Seat 0 plays a whole game; seats 1 and 2 only pay for one choice each; seat 3 never sits.
  @Test func theEndOfTheGameRanksOnlySeatsThatWereTaken() throws {
    var state = Multi.table(seats: 4, seed: 11, countdown: 0)
    for name in ["Ada", "Bob", "Cy"] { _ = try Multi.sit(name, at: &state) }
    _ = try Multi.success(state.start(by: 0, replyTo: nil, now: 0))
    let card = state.game.board[0].id
    for seat in [1, 2] {
      _ = try TableStateTests.accept(.choose(seat: seat, card: card), in: &state)
      _ = try TableStateTests.accept(.choose(seat: seat, card: card), in: &state)
    }
    var player = SetPlayer(seed: 11)
    var last: JSONValue?
    for _ in 0..<5000 where !state.game.isOver {
      if case .accepted(_, _, let diff, _) = state.apply(
        player.nextMove(in: state.game, seat: 0), replyTo: nil)
      {
        last = diff
      }
    }
    try #require(state.game.isOver)
    let ada = state.game.players[0]
    try #require(ada.score > 0)
    let events = Multi.events(try #require(last))
    try #require(events.count >= 2)
    let standings = try #require(events[events.count - 2]["standings"])
    #expect(events[events.count - 2]["kind"] == "over")
    // Bob and Cy tie at -1 and share rank 2; seat 3 (score 0, never taken) is not ranked.
    #expect(
      standings
        == JSONValue.parse(
          #"[{"seat":0,"name":"Ada","score":\#(ada.score),"matches":\#(ada.matches),"rank":1},"#
            + #"{"seat":1,"name":"Bob","score":-1,"matches":0,"rank":2},"#
            + #"{"seat":2,"name":"Cy","score":-1,"matches":0,"rank":2}]"#))
    #expect(events.last == JSONValue.parse(#"{"kind":"phase","phase":"finished"}"#))
    #expect(state.phase == .finished)
    #expect(state.listing.phase == .finished)
    let snapshot = state.snapshot(replyTo: nil, you: 0)
    #expect(snapshot["table"]?["standings"] == standings)
    #expect(snapshot["table"]?["phase"] == "finished")
    #expect(snapshot["table"]?["over"] == .bool(true))

    // A choice now is refused; a re-deal voted by a majority plays again.
    let card2 = state.game.board[0].id
    #expect(try TableStateTests.reject(.choose(seat: 1, card: card2), in: &state).code == .gameOver)
    _ = try Multi.success(state.requestRedeal(by: 1, replyTo: .int(2)))
    let again = try Multi.success(state.requestRedeal(by: 0, replyTo: .int(3)))
    #expect(
      Multi.events(again.diff)
        == [
          JSONValue.parse(#"{"kind":"vote","seats":[],"needed":2}"#)!,
          JSONValue.parse(#"{"kind":"phase","phase":"playing"}"#)!, Multi.redealEvent(state.game),
        ])
    #expect(state.phase == .playing)
    #expect(!state.game.isOver)
  }

  @Test func theStandingsOfAPlayerWhoLeftStillCount() throws {
    var state = Multi.table(seats: 2, seed: 5, countdown: 0)
    _ = try Multi.sit("Ada", at: &state)
    _ = try Multi.sit("Bob", at: &state)
    let card = state.game.board[0].id
    _ = try TableStateTests.accept(.choose(seat: 1, card: card), in: &state)
    _ = try Multi.must(state.release(seat: 1, now: 1))
    var player = SetPlayer(seed: 5)
    var last: JSONValue?
    for _ in 0..<5000 where !state.game.isOver {
      if case .accepted(_, _, let diff, _) = state.apply(
        player.nextMove(in: state.game, seat: 0), replyTo: nil)
      {
        last = diff
      }
    }
    try #require(state.game.isOver)
    let events = Multi.events(try #require(last))
    let over = try #require(events.first { $0["kind"] == "over" })
    let seats = over["standings"]?.elements?.map { $0["seat"] }
    #expect(seats == [.int(0), .int(1)])
    // A client that joins now sees the same final standings as those who saw the game end.
    #expect(state.snapshot(replyTo: nil, you: nil)["table"]?["standings"] == over["standings"])
  }

  /// Three connected players, host at 0.
  static func threePlaying() throws -> State {
    var state = Multi.table(seats: 3, countdown: 0)
    for name in ["Ada", "Bob", "Cy"] { _ = try Multi.sit(name, at: &state) }
    #expect(state.phase == .playing)
    return state
  }

  @Test func aMajorityOfVotesRedeals() throws {
    var state = try Self.threePlaying()
    #expect(state.votesNeeded == 2)
    let board = state.game.board
    let first = try Multi.success(state.requestRedeal(by: 1, replyTo: .int(1)))
    #expect(first.version == 4)
    #expect(first.diff["seat"] == .int(1))
    #expect(first.diff["replyTo"] == .int(1))
    #expect(Multi.events(first.diff) == Multi.parse(#"[{"kind":"vote","seats":[1],"needed":2}]"#))
    #expect(state.votes == [1])
    #expect(state.game.board == board)
    #expect(state.record.moves.isEmpty)

    let second = try Multi.success(state.requestRedeal(by: 2, replyTo: .int(2)))
    #expect(second.version == 5)
    #expect(second.diff["seat"] == .int(2))
    #expect(
      Multi.events(second.diff)
        == [
          JSONValue.parse(#"{"kind":"vote","seats":[],"needed":2}"#)!,
          Multi.redealEvent(state.game),
        ])
    #expect(state.votes.isEmpty)
    #expect(state.game.board != board)
    // The re-deal started a new game, whose record starts at the new deal.
    #expect(state.lastMove == .redeal(seat: 2))
    #expect(state.movesAccepted == 1)
    #expect(state.record.moves.isEmpty)
    #expect(state.record.seed == state.game.dealSeed)
  }

  @Test func votingTwiceIsOneVote() throws {
    var state = try Self.threePlaying()
    _ = try Multi.success(state.requestRedeal(by: 1, replyTo: nil))
    let again = try Multi.success(state.requestRedeal(by: 1, replyTo: nil))
    #expect(Multi.events(again.diff) == Multi.parse(#"[{"kind":"vote","seats":[1],"needed":2}]"#))
    #expect(state.votes == [1])
    #expect(state.record.moves.isEmpty)
  }

  @Test func theHostsRedealIsOneVoteLikeAnyOther() throws {
    var state = try Self.threePlaying()
    let board = state.game.board
    // Alone, the host cannot wipe the others' scores.
    let host = try Multi.success(state.requestRedeal(by: 0, replyTo: nil))
    #expect(Multi.events(host.diff) == Multi.parse(#"[{"kind":"vote","seats":[0],"needed":2}]"#))
    #expect(state.game.board == board)
    let second = try Multi.success(state.requestRedeal(by: 2, replyTo: nil))
    #expect(
      Multi.events(second.diff)
        == [
          JSONValue.parse(#"{"kind":"vote","seats":[],"needed":2}"#)!,
          Multi.redealEvent(state.game),
        ])
    #expect(state.votes.isEmpty)
  }

  @Test func aVoterWhoLeavesTakesTheVoteAlong() throws {
    var state = Multi.table(seats: 4, countdown: 0)
    for name in ["Ada", "Bob", "Cy", "Dee"] { _ = try Multi.sit(name, at: &state) }
    #expect(state.votesNeeded == 3)
    _ = try Multi.success(state.requestRedeal(by: 1, replyTo: nil))
    let two = try Multi.success(state.requestRedeal(by: 3, replyTo: nil))
    #expect(Multi.events(two.diff) == Multi.parse(#"[{"kind":"vote","seats":[1,3],"needed":3}]"#))
    let left = try Multi.must(state.release(seat: 1, now: 0))
    #expect(
      Multi.events(left.diff)
        == Multi.parse(#"[{"kind":"leave","seat":1},{"kind":"vote","seats":[3],"needed":2}]"#))
    #expect(state.votes == [3])
    // A non-voter leaving says nothing about the vote.
    let other = try Multi.must(state.release(seat: 2, now: 0))
    #expect(Multi.events(other.diff) == Multi.parse(#"[{"kind":"leave","seat":2}]"#))
  }

  @Test func aVoteThatReachesItsMajorityByADropIsCarriedOutOnTheNextTick() throws {
    var state = Multi.table(seats: 4, countdown: 0)
    for name in ["Ada", "Bob", "Cy", "Dee"] { _ = try Multi.sit(name, at: &state) }
    _ = try Multi.success(state.requestRedeal(by: 1, replyTo: nil))
    _ = try Multi.success(state.requestRedeal(by: 3, replyTo: nil))
    #expect(state.votes == [1, 3])
    let board = state.game.board
    _ = try Multi.must(state.disconnect(seat: 2, now: 10))
    #expect(state.votesNeeded == 2)
    let (broadcasts, released) = state.tick(now: 10.25)
    #expect(released.isEmpty)
    try #require(broadcasts.count == 1)
    let kinds = Multi.events(broadcasts[0].diff).compactMap { $0["kind"]?.stringValue }
    #expect(kinds == ["vote", "redeal"])
    #expect(state.votes.isEmpty)
    #expect(state.game.board != board)
    // Nothing more to do on the next tick.
    #expect(state.tick(now: 10.5).broadcasts.isEmpty)
  }

  @Test func everyBroadcastAddsExactlyOneVersion() throws {
    var state = Multi.table(seats: 3, countdown: 1)
    var versions: [Int] = []
    versions.append(try Multi.sit("Ada", at: &state).broadcast.version)
    versions.append(try Multi.sit("Bob", at: &state).broadcast.version)
    versions.append(try Multi.must(state.disconnect(seat: 1, now: 0)).version)
    versions.append(try Multi.must(state.reconnect(seat: 1)).version)
    versions.append(try Multi.success(state.start(by: 0, replyTo: nil, now: 0)).version)
    versions += state.tick(now: 1).broadcasts.map(\.version)
    versions.append(
      try TableStateTests.accept(.choose(seat: 1, card: state.game.board[0].id), in: &state).version
    )
    versions.append(try Multi.success(state.requestRedeal(by: 1, replyTo: nil)).version)
    versions.append(try Multi.must(state.release(seat: 1, now: 2)).version)
    #expect(versions == Array(1...9))
    #expect(state.version == 9)
  }

  @Test func missedDiffsComeFromTheRing() throws {
    var state = Multi.table(seats: 3, ringSize: 4)
    var sent: [[UInt8]] = []
    sent.append(try Multi.sit("Ada", at: &state).broadcast.frame.payload)
    sent.append(try Multi.sit("Bob", at: &state).broadcast.frame.payload)
    for step in 0..<4 {
      let b = step.isMultiple(of: 2) ? state.disconnect(seat: 1, now: 0) : state.reconnect(seat: 1)
      sent.append(try Multi.must(b).frame.payload)
    }
    #expect(state.version == 6)
    #expect(state.diffs(after: 6)?.map(\.payload) == [])
    #expect(state.diffs(after: 5)?.map(\.payload) == [sent[5]])
    #expect(state.diffs(after: 3)?.map(\.payload) == Array(sent[3...]))
    #expect(state.diffs(after: 2)?.map(\.payload) == Array(sent[2...]))
    #expect(state.diffs(after: 1) == nil)
    #expect(state.diffs(after: 0) == nil)
    #expect(state.diffs(after: 7) == nil)
    #expect(state.diffs(after: -1) == nil)

    let fresh = Multi.table(seats: 2)
    #expect(fresh.diffs(after: 0)?.isEmpty == true)
  }

  @Test func theSnapshotShowsTheTableAroundTheGame() throws {
    var state = Multi.table(seats: 4, countdown: 3, grace: 60, isPrivate: true, code: "XY23ZK")
    for name in ["Ada", "Bob", "Cy"] { _ = try Multi.sit(name, at: &state, now: 50) }
    _ = try Multi.must(state.disconnect(seat: 1, now: 50))
    state.setSpectators(2)
    let waiting = try Multi.must(state.snapshot(replyTo: .int(8), you: 2, now: 60.5)["table"])
    let text: String =
      #"{"id":"t1","game":"set","version":4,"you":2,"phase":"waiting","code":"XY23ZK","#
      + #""private":true,"seats":4,"host":0,"spectators":2,"over":false,"deckCount":81,"#
      + #""settings":{"boardSize":12,"matchSize":3,"costToChoose":1,"mismatchPenalty":2,"matchBonus":4,"#
      + #""scoring":"course"},"#
      + #""board":[],"players":["#
      + #"{"seat":0,"name":"Ada","score":0,"matches":0,"selection":[],"connected":true},"#
      + #"{"seat":1,"name":"Bob","score":0,"matches":0,"selection":[],"connected":false,"away":50},"#
      + #"{"seat":2,"name":"Cy","score":0,"matches":0,"selection":[],"connected":true}],"#
      + #""status":[{"text":"Bob","seat":1},{"text":" is reconnecting…"}]}"#
    let expected = try #require(JSONValue.parse(text))
    #expect(waiting == expected)
    #expect(state.snapshot(replyTo: .int(8), you: 2, now: 60.5)["replyTo"] == .int(8))
    #expect(state.snapshot(replyTo: nil, you: nil, now: 60.5)["table"]?["you"] == nil)

    _ = try Multi.success(state.start(by: 0, replyTo: nil, now: 70))
    let counting = try Multi.must(state.snapshot(replyTo: nil, you: 0, now: 71.2)["table"])
    #expect(counting["phase"] == "countdown")
    #expect(counting["countdown"] == .int(2))
    #expect(counting["board"] == .array([]))
    #expect(counting["deckCount"] == .int(81))

    _ = state.tick(now: 73)
    _ = try Multi.success(state.requestRedeal(by: 2, replyTo: nil))
    let playing = try Multi.must(state.snapshot(replyTo: nil, you: 0, now: 73)["table"])
    #expect(playing["phase"] == "playing")
    #expect(playing["countdown"] == nil)
    #expect(playing["board"] == .array(state.game.board.map(\.wireObject)))
    #expect(playing["deckCount"] == .int(state.game.deckCount))
    // Two connected players: a majority is 2.
    #expect(playing["vote"] == JSONValue.parse(#"{"seats":[2],"needed":2}"#))
    #expect(playing["players"]?.elements?.map { $0["seat"] } == [.int(0), .int(1), .int(2)])
    #expect(playing["players"]?.elements?[1]["away"] == .int(37))
  }

  @Test func aClientFollowingEveryDiffSeesTheSnapshot() throws {
    var state = Multi.table(seats: 3, countdown: 2, grace: 10)
    var view = try TableClientView(snapshot: state.snapshot(replyTo: nil, you: nil))
    func follow(_ b: State.Broadcast?) throws {
      let b = try #require(b)
      try view.apply(diff: b.diff)
      let fresh = try TableClientView(snapshot: state.snapshot(replyTo: nil, you: nil))
      #expect(view == fresh, "\(view)\n\(fresh)")
    }
    try follow(try Multi.sit("Ada", at: &state).broadcast)
    try follow(try Multi.sit("Bob", at: &state).broadcast)
    try follow(state.release(seat: 0, now: 1))
    try follow(try Multi.sit("Cy", at: &state).broadcast)
    try follow(state.disconnect(seat: 1, now: 1))
    try follow(try Multi.success(state.start(by: 1, replyTo: nil, now: 1)))
    try follow(state.tick(now: 3).broadcasts.first)
    try follow(state.reconnect(seat: 1))
    try follow(try Multi.success(state.requestRedeal(by: 0, replyTo: nil)))
    try follow(state.disconnect(seat: 0, now: 5))
    try follow(state.tick(now: 15.5).broadcasts.first)
    #expect(view.players.keys.sorted() == [1])
    #expect(view.phase == "playing")
  }
}
