import Model
import Protocol

/// Hints: a match on the board, found by the game's own rule (``CardMatchingGame/hint``), and
/// the count of matches on it (``CardMatchingGame/claimableMatches``, for practice), for a
/// player alone at a face-up table. With others a hint would be an edge; on a face-down board
/// it would show cards nobody has turned up; a daily puzzle is everyone's same deal, played
/// without help.
extension TableState {
  /// The `hint` answer for `seat`: the handles of a match it may claim now (a chain set's chain
  /// card first), none when the board holds none; or the refusal (``helpRefusal(for:replyTo:)``).
  /// Changes nothing.
  public func hint(for seat: Int, replyTo: MessageID?) -> Result<JSONValue, ProtocolError> {
    if let refusal = helpRefusal(for: seat, replyTo: replyTo) { return .failure(refusal) }
    let cards = game.hint?.map { game.handle(of: $0) } ?? []
    return .success(ServerMessage.hint(replyTo: replyTo, cards: cards))
  }

  /// The `countMatches` answer for `seat`: how many matches it may claim now; or the refusal
  /// (``helpRefusal(for:replyTo:)``). Changes nothing.
  public func matchCount(for seat: Int, replyTo: MessageID?) -> Result<JSONValue, ProtocolError> {
    if let refusal = helpRefusal(for: seat, replyTo: replyTo) { return .failure(refusal) }
    return .success(ServerMessage.matchCount(replyTo: replyTo, count: game.claimableMatches.count))
  }

  /// Why `seat` may not be helped: `noHints` (face-down cards), `dailyNoHints` (a daily
  /// puzzle), `hintsAlone` (a table of several seats), `notPlaying` or `gameOver`; nil when it
  /// may.
  func helpRefusal(for seat: Int, replyTo: MessageID?) -> ProtocolError? {
    guard game.settings.offersHints else {
      return ProtocolError(
        .noHints, "This game offers no hints: its cards are face down.", replyTo: replyTo)
    }
    guard daily == nil else {
      return ProtocolError(
        .dailyNoHints, "The daily puzzle is played without hints: everyone gets the same deal.",
        replyTo: replyTo)
    }
    guard seats.count == 1 else {
      return ProtocolError(
        .hintsAlone, "Hints are for a player alone at a table, not a race.", replyTo: replyTo)
    }
    if let refusal = refusal(toPlay: .choose(seat: seat, card: 0), replyTo: replyTo) {
      return refusal
    }
    guard !game.isOver else {
      return ProtocolError(.gameOver, "The game is over; deal again to play on.", replyTo: replyTo)
    }
    return nil
  }
}
