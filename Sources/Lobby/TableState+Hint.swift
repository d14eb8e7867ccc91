import Model
import Protocol

/// Hints: a match on the board, found by the game's own rule (``CardMatchingGame/hint``), for
/// a player alone at a face-up table. With others a hint would be an edge; on a face-down board
/// it would show cards nobody has turned up.
extension TableState {
  /// The `hint` answer for `seat`: the handles of a match it may claim now (a chain set's chain
  /// card first), none when the board holds none; or the refusal: `noHints` (face-down cards),
  /// `hintsAlone` (a table of several seats), `notPlaying` or `gameOver`. Changes nothing.
  public func hint(for seat: Int, replyTo: MessageID?) -> Result<JSONValue, ProtocolError> {
    guard game.settings.offersHints else {
      return .failure(
        ProtocolError(
          .noHints, "This game offers no hints: its cards are face down.", replyTo: replyTo))
    }
    guard seats.count == 1 else {
      return .failure(
        ProtocolError(
          .hintsAlone, "Hints are for a player alone at a table, not a race.", replyTo: replyTo))
    }
    if let refusal = refusal(toPlay: .choose(seat: seat, card: 0), replyTo: replyTo) {
      return .failure(refusal)
    }
    guard !game.isOver else {
      return .failure(
        ProtocolError(.gameOver, "The game is over; deal again to play on.", replyTo: replyTo))
    }
    let cards = game.hint?.map { game.handle(of: $0) } ?? []
    return .success(ServerMessage.hint(replyTo: replyTo, cards: cards))
  }
}
