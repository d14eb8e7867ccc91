import Testing

@testable import Model

/// The look back at a finished game (issue 21): every set found with how long it had been on
/// the board, every set that was there and left untaken, and each seat's reaction times —
/// checked against a brute-force count made move by move with a plain triple loop.
@Suite struct GameLookBackTests {
  /// Every set among `cards` by brute force: all triples, the rule checked attribute by
  /// attribute.
  static func bruteForceSets(_ cards: [SetCard]) -> Set<[Int]> {
    var sets: Set<[Int]> = []
    for i in cards.indices {
      for j in cards.indices where j > i {
        for k in cards.indices where k > j {
          let ok = (0..<4).allSatisfy { attribute in
            let values = Set([cards[i], cards[j], cards[k]].map { $0.value(attribute) })
            return values.count != 2
          }
          if ok { sets.insert([cards[i].id, cards[j].id, cards[k].id].sorted()) }
        }
      }
    }
    return sets
  }

  /// The first three cards of `board` (in board order) that are not a set; none when every
  /// three are.
  static func firstNonSet(_ board: [SetCard]) -> [SetCard] {
    for i in board.indices {
      for j in (i + 1)..<board.count {
        for k in (j + 1)..<board.count where !SetCard.isSet(board[i], board[j], board[k]) {
          return [board[i], board[j], board[k]]
        }
      }
    }
    return []
  }

  /// A solo Set game played to its end by a player who takes, every `pace` seconds, the set
  /// that `pick` chooses among those on the board, with a mismatch now and then.
  static func play(seed: UInt64, seats: Int = 1, pick: (Int) -> Int) -> (
    settings: GameSettings, moves: [Move], times: [Double]
  ) {
    let settings = GameSettings.set(seats: seats, scoring: .classic)
    var game = CardMatchingGame<SetCard>(settings: settings, seed: seed)
    var moves: [Move] = []
    var times: [Double] = []
    var clock = 0.0
    var turn = 0
    while !game.isOver {
      let sets = SetCard.allSets(in: game.playableCards)
      guard !sets.isEmpty else { break }
      let seat = turn % seats
      if turn % 7 == 3 {
        // A mismatch: three cards that are not a set, chosen and let go.
        for card in firstNonSet(game.playableCards) {
          clock += 0.3
          _ = try? game.apply(.choose(seat: seat, card: card.id))
          moves.append(.choose(seat: seat, card: card.id))
          times.append(clock)
        }
      }
      let chosen = sets[pick(turn) % sets.count]
      for card in chosen {
        clock += Double(1 + (turn * 7 + card.id) % 5) / 2
        _ = try? game.apply(.choose(seat: seat, card: card.id))
        moves.append(.choose(seat: seat, card: card.id))
        times.append(clock)
      }
      turn += 1
    }
    #expect(game.isOver)
    return (settings, moves, times)
  }

  /// The same look back, made move by move by brute force.
  static func bruteForce(settings: GameSettings, seed: UInt64, moves: [Move], times: [Double])
    -> (found: [GameLookBack.Found], missed: [GameLookBack.Missed])
  {
    var game = CardMatchingGame<SetCard>(settings: settings, seed: seed)
    var since: [[Int]: Double] = [:]
    for set in bruteForceSets(game.board) { since[set] = 0 }
    var found: [GameLookBack.Found] = []
    var missed: [GameLookBack.Missed] = []
    for (move, at) in zip(moves, times) {
      let events = (try? game.apply(move)) ?? []
      var taken: [Int]?
      for case .matched(let seat, let cards, _) in events {
        taken = cards.map(\.id).sorted()
        found.append(
          GameLookBack.Found(seat: seat, cards: taken!, at: at, seconds: at - since[taken!]!))
      }
      let now = bruteForceSets(game.board)
      for (set, from) in since.sorted(by: {
        $0.value != $1.value ? $0.value < $1.value : $0.key.lexicographicallyPrecedes($1.key)
      }) where !now.contains(set) {
        since[set] = nil
        if set != taken { missed.append(GameLookBack.Missed(cards: set, from: from, until: at)) }
      }
      for set in now where since[set] == nil { since[set] = at }
    }
    return (found, missed)
  }

  @Test(arguments: [(UInt64(1), 1), (7, 1), (42, 2), (2026, 3)])
  func theMissedSetsAreExactlyTheBruteForceCount(seed: UInt64, seats: Int) throws {
    let (settings, moves, times) = Self.play(seed: seed, seats: seats) { $0 * 5 + 1 }
    let lookBack = try #require(
      GameLookBack.of(SetCard.self, settings: settings, seed: seed, moves: moves, times: times))
    let expected = Self.bruteForce(settings: settings, seed: seed, moves: moves, times: times)
    #expect(lookBack.boardSeen)
    #expect(lookBack.found == expected.found)
    #expect(lookBack.missed == expected.missed)
    // A whole game: 27 sets at most, each found once, and some sets were passed over.
    #expect(!lookBack.found.isEmpty && lookBack.found.count <= 27)
    #expect(!lookBack.missed.isEmpty)
    #expect(lookBack.missed.allSatisfy { $0.seconds > 0 })
    #expect(lookBack.found.allSatisfy { $0.seconds >= 0 && $0.seconds <= $0.at })
    // Each seat's reactions are its own finds' times.
    let reactions = lookBack.reactions(seats: seats)
    #expect(reactions.map(\.seconds.count).reduce(0, +) == lookBack.found.count)
    for seat in reactions where !seat.seconds.isEmpty {
      #expect(seat.fastest == seat.seconds.min())
      #expect(abs(seat.mean! - seat.seconds.reduce(0, +) / Double(seat.seconds.count)) < 1e-9)
    }
  }

  @Test func aSetTakenAtOnceWasThereFromTheDealAndOneLeftBehindIsMissed() throws {
    let settings = GameSettings.set(seats: 1, scoring: .classic)
    let game = CardMatchingGame<SetCard>(settings: settings, seed: 11)
    let sets = Self.bruteForceSets(game.board).sorted { $0.lexicographicallyPrecedes($1) }
    // Two sets that share a card: taking one takes the other's card away.
    let (first, second) = try #require(
      sets.lazy.flatMap { a in sets.lazy.map { (a, $0) } }
        .first { $0 != $1 && !Set($0).isDisjoint(with: $1) })
    let moves = first.map { Move.choose(seat: 0, card: $0) }
    let lookBack = try #require(
      GameLookBack.of(
        SetCard.self, settings: settings, seed: 11, moves: moves, times: [2, 3, 4.5]))
    #expect(lookBack.found == [GameLookBack.Found(seat: 0, cards: first, at: 4.5, seconds: 4.5)])
    #expect(lookBack.missed.contains(GameLookBack.Missed(cards: second, from: 0, until: 4.5)))
    #expect(!lookBack.missed.contains { $0.cards == first })
  }

  @Test func aFaceDownGameTimesEachMatchFromThePreviousAndMissesNothing() throws {
    let settings = GameSettings.concentration(pairs: 4)
    var game = CardMatchingGame<EmojiCard>(settings: settings, seed: 3)
    var moves: [Move] = []
    var times: [Double] = []
    // Take the pairs in board order, one every 10 s.
    var clock = 0.0
    while !game.isOver {
      let board = game.playableCards
      let first = board[0]
      let partner = try #require(board.dropFirst().first { EmojiCard.matchScore([first, $0]) > 0 })
      for card in [first, partner] {
        clock += 5
        let handle = game.handle(of: card)
        _ = try game.apply(.choose(seat: 0, card: handle))
        moves.append(.choose(seat: 0, card: handle))
        times.append(clock)
      }
    }
    let lookBack = try #require(
      GameLookBack.of(EmojiCard.self, settings: settings, seed: 3, moves: moves, times: times))
    #expect(!lookBack.boardSeen && lookBack.missed.isEmpty)
    #expect(lookBack.found.map(\.seconds) == [10, 10, 10, 10])
    #expect(lookBack.reactions(seats: 1).first?.mean == 10)
  }

  @Test func movesThatDoNotReplayHaveNoLookBack() {
    let settings = GameSettings.set(seats: 1)
    #expect(
      GameLookBack.of(
        SetCard.self, settings: settings, seed: 1, moves: [.choose(seat: 0, card: 999)],
        times: [1]) == nil)
    #expect(
      GameLookBack.of(SetCard.self, settings: settings, seed: 1, moves: [], times: [1]) == nil)
  }
}
