import Testing

@testable import Lobby

/// An arena's rules as a pure value (issue 33, part 2): who may join, the pairing pass (free
/// players paired within one pass, nearest in points then rating, nobody with themselves or at
/// two games at once, last opponents kept apart when a swap allows), points and streaks, the
/// standings and the end.
@Suite struct ArenaTests {
  static func arena(seats: Int = 2) -> Arena {
    Arena(id: "a1", game: "set", seats: seats, starts: 100, ends: 700)
  }

  static func joined(_ players: [(String, Double)], at now: Double = 50) -> Arena {
    var arena = arena()
    for (player, rating) in players {
      #expect(throws: Never.self) {
        try arena.join(player: player, name: player.uppercased(), rating: rating, now: now).get()
      }
    }
    return arena
  }

  @Test func joiningTwiceOrAfterTheEndIsRefusedAndALeaverComesBackWithTheirPoints() {
    var arena = Self.joined([("ada", 1500)])
    let answer1 = refusal(arena.join(player: "ada", name: "Ada", rating: 1500, now: 60))
    #expect(answer1 == .alreadyJoined)
    let answer2 = refusal(arena.join(player: "bob", name: "Bob", rating: 1500, now: 700))
    #expect(answer2 == .finished)
    let answer3 = refusal(arena.leave(player: "bob"))
    #expect(answer3 == .notJoined)
    let answer4 = refusal(arena.leave(player: "ada"))
    #expect(answer4 == nil)
    let answer5 = refusal(arena.leave(player: "ada"))
    #expect(answer5 == .notJoined)
    #expect(!arena.isIn("ada") && arena.standings.map(\.player) == ["ada"])
    let answer6 = refusal(arena.join(player: "ada", name: "Ada", rating: 1500, now: 200))
    #expect(answer6 == nil)
    #expect(arena.isIn("ada"))
  }

  @Test func nobodyIsPairedBeforeTheStartAndEveryFreePlayerWithinOnePass() {
    var arena = Self.joined([("a", 1500), ("b", 1600), ("c", 1400), ("d", 1550), ("e", 1450)])
    let made1 = arena.pair(now: 99)
    #expect(made1.isEmpty)
    // The pass is due a pairing wait after the start (everyone free from it).
    #expect(arena.nextPairing(now: 99) == 101)
    let groups = arena.pair(now: 100)
    // Four of five paired, by rating while points are equal: b-d, a-e; c waits.
    #expect(groups == [["b", "d"], ["a", "e"]])
    let paired = groups.flatMap { $0 }
    #expect(Set(paired).count == paired.count, "nobody twice")
    #expect(groups.allSatisfy { Set($0).count == $0.count }, "nobody with themselves")
    #expect(arena.freePlayers.map(\.player) == ["c"])
    // One free player alone is not a game: no pass is due.
    #expect(arena.nextPairing(now: 100) == nil)
    // Nobody is paired again while at a game.
    let made2 = arena.pair(now: 101)
    #expect(made2.isEmpty)
  }

  @Test func pointsStreaksAndTheNearestInPoints() {
    var arena = Self.joined([("a", 1500), ("b", 1500), ("c", 1500), ("d", 1500)])
    func play(_ winner: String, _ loser: String, at now: Double) {
      arena.started(table: "t-\(winner)-\(now)", players: [winner, loser])
      let recorded = arena.record(
        .init(table: "t-\(winner)-\(now)", ranks: [winner: 1, loser: 2]), now: now)
      #expect(recorded)
    }
    // The first pass: two games, both drawn (1 point each).
    for (n, group) in arena.pair(now: 100).enumerated() {
      arena.started(table: "first-\(n)", players: group)
      arena.record(.init(table: "first-\(n)", ranks: [group[0]: 1, group[1]: 1]), now: 105)
    }
    #expect(arena.standings.allSatisfy { $0.points == 1 && $0.played == 1 })
    play("a", "b", at: 110)
    play("a", "c", at: 120)
    // Two wins in a row: a is on fire, and the third win counts double.
    #expect(arena.standings.first { $0.player == "a" }?.onFire == true)
    play("a", "d", at: 130)
    #expect(arena.entrants["a"]?.points == 1 + 2 + 2 + 4)
    // A loss breaks the streak: the next win is worth 2 again.
    play("b", "a", at: 140)
    #expect(arena.entrants["a"]?.streak == 0)
    play("a", "c", at: 150)
    #expect(arena.entrants["a"]?.points == 9 + 2)
    #expect(Arena.points(for: .drawn, streak: 5) == 1 && Arena.points(for: .lost, streak: 5) == 0)
    // Free again after each game; paired with the nearest in points: a (11) with b (3), then
    // c (1) with d (1).
    let groups = arena.pair(now: 151)
    #expect(groups == [["a", "b"], ["c", "d"]])
  }

  @Test func lastOpponentsAreKeptApartWhenASwapAllows() {
    var arena = Self.joined([("a", 1600), ("b", 1590), ("c", 1400), ("d", 1390)])
    let made3 = arena.pair(now: 100)
    #expect(made3 == [["a", "b"], ["c", "d"]])
    arena.started(table: "t1", players: ["a", "b"])
    arena.started(table: "t2", players: ["c", "d"])
    arena.record(.init(table: "t1", ranks: ["a": 1, "b": 1]), now: 110)
    arena.record(.init(table: "t2", ranks: ["c": 1, "d": 1]), now: 110)
    // Equal points: a and b would meet again; the swap gives a-c and b-d.
    let made4 = arena.pair(now: 111)
    #expect(made4 == [["a", "c"], ["b", "d"]])
  }

  @Test func aLeaverLosesTheGameAndStaysInTheStandings() {
    var arena = Self.joined([("a", 1500), ("b", 1500)])
    let made5 = arena.pair(now: 100)
    #expect(made5 == [["a", "b"]])
    arena.started(table: "t1", players: ["a", "b"])
    let answer7 = refusal(arena.leave(player: "b"))
    #expect(answer7 == nil)
    // The table ranks the leaver last.
    arena.record(.init(table: "t1", ranks: ["a": 1, "b": 2]), now: 120)
    #expect(arena.entrants["a"]?.points == 2 && arena.entrants["b"]?.points == 0)
    #expect(arena.standings.map(\.player) == ["a", "b"] && arena.standings[1].left)
    #expect(arena.freePlayers.map(\.player) == ["a"], "the leaver is not free to play")
  }

  @Test func atTheEndGamesInProgressFinishAndNoNewOneStarts() {
    var arena = Self.joined([("a", 1500), ("b", 1500), ("c", 1500), ("d", 1500)])
    _ = arena.pair(now: 100)
    arena.started(table: "t1", players: ["a", "b"])
    arena.started(table: "t2", players: ["c", "d"])
    arena.record(.init(table: "t1", ranks: ["a": 1, "b": 2]), now: 650)
    #expect(arena.phase(at: 699) == .running)
    // Past the end, t2 is still played: the arena runs until it ends.
    #expect(arena.phase(at: 710) == .running && arena.winner(at: 710) == nil)
    let late = arena.pair(now: 710)
    #expect(late.isEmpty && arena.nextPairing(now: 710) == nil)
    arena.record(.init(table: "t2", ranks: ["c": 1, "d": 2]), now: 720)
    #expect(arena.phase(at: 720) == .finished)
    let after = arena.pair(now: 720)
    #expect(after.isEmpty && arena.nextPairing(now: 720) == nil, "no game after the end")
    // a and c both won once: they share the first rank; the winner is the first of them.
    let standings = arena.standings
    #expect(standings.map(\.rank) == [1, 1, 3, 3])
    #expect(arena.winner(at: 720)?.player == "a")
    // A result for a table that is not the arena's changes nothing.
    let made6 = arena.record(.init(table: "t9", ranks: ["a": 1]), now: 730)
    #expect(!made6)
  }

  @Test func biggerTablesTakeTheirSeatsInGroups() {
    var arena = Arena(id: "a2", game: "set", seats: 3, starts: 0, ends: 600)
    for player in ["a", "b", "c", "d", "e", "f", "g"] {
      _ = arena.join(player: player, name: player, rating: 1500, now: 0)
    }
    let groups = arena.pair(now: 1)
    #expect(groups.count == 2 && groups.allSatisfy { $0.count == 3 })
    #expect(arena.freePlayers.count == 1)
    let result = Arena.GameResult(table: "t", ranks: ["a": 1, "b": 1, "c": 3])
    #expect(result.outcome(of: "a") == .drawn && result.outcome(of: "c") == .lost)
  }
}

/// The refusal of an arena request, or nil when it was accepted.
private func refusal(_ result: Result<Void, Arena.Refusal>) -> Arena.Refusal? {
  if case .failure(let refusal) = result { return refusal }
  return nil
}
