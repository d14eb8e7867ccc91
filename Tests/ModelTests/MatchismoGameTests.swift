import Model
import Testing

@Suite("Matchismo game flow")
struct MatchismoGameTests {
  @Test(
    "A Matchismo game deals 24 cards and keeps matched cards on the board until none match",
    arguments: [2, 3])
  func playToTheEnd(matchSize: Int) throws {
    for seed in UInt64(0)..<20 {
      var game = CardMatchingGame<PlayingCard>(
        settings: .matchismo(matchSize: matchSize), seed: seed)
      let board = game.board
      #expect(board.count == 24)
      #expect(Set(board).count == 24)
      #expect(game.deckCount == 28)
      var points = 0
      var claims = 0
      while !game.isOver && claims < 24 {
        let match = try #require(firstMatch(in: game))
        var events: [GameEvent<PlayingCard>] = []
        for card in match {
          events = accept(.choose(seat: 0, card: game.handle(of: card)), in: &game)
        }
        claims += 1
        points += PlayingCard.matchScore(match) * 4
        // Matched cards stay where they were; nothing is dealt.
        #expect(game.board == board)
        #expect(game.deckCount == 28)
        #expect(match.allSatisfy { game.matchedOnBoard.contains($0.id) })
        // The game is over exactly when no cards left in play can match.
        let anyMatchLeft = combinations(of: game.playableCards, choose: matchSize).contains {
          PlayingCard.matchScore($0) > 0
        }
        #expect(game.isOver == !anyMatchLeft, "seed \(seed)")
        #expect(endings(in: events).count == (game.isOver ? 1 : 0))
      }
      #expect(game.isOver)
      #expect(game.players[0].matches == claims)
      #expect(game.players[0].score == points - matchSize * claims)
      #expect(game.playableCards.count + game.matchedOnBoard.count == 24)
      if matchSize == 2 {
        // No two cards left share a suit or a rank, so at most four remain.
        #expect(game.playableCards.count <= 4)
      }
      let card = try #require(game.board.first)
      expectRejection(.choose(seat: 0, card: game.handle(of: card)), in: &game, is: .gameOver)
    }
  }
}
