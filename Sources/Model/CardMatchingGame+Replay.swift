extension CardMatchingGame {
  /// Rebuilds the game that `record` describes, with every event in order.
  public static func replay(_ record: GameRecord) throws(ReplayError) -> (
    game: CardMatchingGame, events: [GameEvent<Card>]
  ) {
    var game = CardMatchingGame(settings: record.settings, seed: record.seed)
    var events: [GameEvent<Card>] = []
    for (index, move) in record.moves.enumerated() {
      do {
        events += try game.apply(move)
      } catch {
        throw ReplayError(index: index, rejection: error)
      }
    }
    return (game, events)
  }
}
