import Testing

@testable import Model

/// The rating update (issue 21): pairwise Elo for two or more players — symmetric, zero-sum
/// among established players, Elo exactly for two, provisional players moving faster.
@Suite struct RatingTests {
  typealias Entry = Rating.Entry

  @Test func twoPlayersAreEloExactly() {
    // Equal ratings: the winner gains K/2, the loser loses it.
    let even = Rating.changes([
      Entry(rating: 1500, games: 30, rank: 1), Entry(rating: 1500, games: 30, rank: 2),
    ])
    #expect(even == [16, -16])
    // 1600 beats 1400: expected 1/(1+10^-0.5) ≈ 0.7597, so +7.69.
    let upset = Rating.changes([
      Entry(rating: 1600, games: 30, rank: 1), Entry(rating: 1400, games: 30, rank: 2),
    ])
    #expect(abs(upset[0] - 32 * (1 - 1 / (1 + 0.316_227_766))) < 1e-6)
    #expect(abs(upset[0] + upset[1]) < 1e-9)
    // A draw between unequal players moves them toward each other.
    let draw = Rating.changes([
      Entry(rating: 1600, games: 30, rank: 1), Entry(rating: 1400, games: 30, rank: 1),
    ])
    #expect(draw[0] < 0 && draw[1] > 0 && abs(draw[0] + draw[1]) < 1e-9)
  }

  @Test(arguments: [2, 3, 4, 6, 8])
  func establishedPlayersChangesSumToZeroAndSwappingTwoSwapsTheirChanges(players: Int) {
    var generator = SplitMix64(seed: UInt64(players))
    for _ in 0..<200 {
      let entries = (0..<players).map { _ in
        Entry(
          rating: 1000 + Double(generator.next() % 1000), games: 10 + Int(generator.next() % 50),
          rank: 1 + Int(generator.next() % UInt64(players)))
      }
      let changes = Rating.changes(entries)
      #expect(abs(changes.reduce(0, +)) < 1e-9)
      // Symmetry: the same game with two players' places swapped swaps their changes.
      var swapped = entries
      swapped.swapAt(0, players - 1)
      let again = Rating.changes(swapped)
      #expect(abs(again[0] - changes[players - 1]) < 1e-9)
      #expect(abs(again[players - 1] - changes[0]) < 1e-9)
      // Nobody moves more than K, and a better place never earns less than a worse one
      // between two players of the same rating.
      #expect(changes.allSatisfy { abs($0) <= Rating.k })
    }
  }

  @Test func theWinnerGainsAndTheLastLosesAtAnEvenTable() {
    let entries = (1...4).map { Entry(rating: 1500, games: 20, rank: $0) }
    let changes = Rating.changes(entries)
    #expect(changes == changes.sorted(by: >))
    #expect(changes[0] == 16 && changes[3] == -16)
    #expect(abs(changes[1] - 16.0 / 3) < 1e-9)
  }

  @Test func provisionalPlayersMoveTwiceAsFar() {
    let new = Entry(rating: 1500, games: 0, rank: 1)
    let old = Entry(rating: 1500, games: 40, rank: 2)
    #expect(new.isProvisional && !old.isProvisional)
    #expect(Entry(rating: 1500, games: 9, rank: 1).isProvisional)
    #expect(!Entry(rating: 1500, games: 10, rank: 1).isProvisional)
    let changes = Rating.changes([new, old])
    #expect(changes == [32, -16])
    // Alone, nothing changes.
    #expect(Rating.changes([new]) == [0])
  }
}
