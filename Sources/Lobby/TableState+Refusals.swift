import Model
import Protocol

/// Why a move is refused, in the wire's words.
extension TableState {
  /// Why `move` cannot be played in this phase, or nil when it can (a re-deal always can).
  func refusal(toPlay move: Move, replyTo: MessageID?) -> ProtocolError? {
    guard move.isPlay, phase != .playing else { return nil }
    let message =
      phase == .finished
      ? "The game is over; deal again to play on." : "The game has not started yet."
    return ProtocolError(phase == .finished ? .gameOver : .notPlaying, message, replyTo: replyTo)
  }

  /// The refusal of a move the game rejected: a card that lost the race to someone's match
  /// names who took which cards (when cards are face up: a face-down game names them by slot).
  func refusal(for rejection: MoveRejection, replyTo: MessageID?) -> ProtocolError {
    if case .cardNotOnTable(let id) = rejection, !game.settings.faceDown,
      let taken = historyLog.match(taking: id)
    {
      let cards = taken.cards.map { Card.fullDeck[$0].spokenName }.joined(separator: ", ")
      return ProtocolError(
        .cardNotOnTable,
        "\(ServerMessage.name(of: taken.seat, in: names)) took those cards first: \(cards).",
        replyTo: replyTo)
    }
    return Self.protocolError(for: rejection, replyTo: replyTo)
  }

  /// The wire error for a refused move.
  public static func protocolError(for rejection: MoveRejection, replyTo: MessageID?)
    -> ProtocolError
  {
    switch rejection {
    case .unknownCard(let id):
      ProtocolError(.unknownCard, "There is no card \(id) in this game.", replyTo: replyTo)
    case .cardNotOnTable(let id):
      ProtocolError(.cardNotOnTable, "Card \(id) is not on the table.", replyTo: replyTo)
    case .cardAlreadyMatched(let id):
      ProtocolError(.cardNotOnTable, "Card \(id) is already matched.", replyTo: replyTo)
    case .gameOver:
      ProtocolError(.gameOver, "The game is over; deal again to play on.", replyTo: replyTo)
    case .unknownSeat:
      ProtocolError(.notAtTable, "You have no seat at this table.", replyTo: replyTo)
    case .notYourTurn:
      ProtocolError(.notYourTurn, "It is not your turn; wait for it.", replyTo: replyTo)
    case .notTurnBased:
      ProtocolError(.badField, "This game has no turns to pass.", replyTo: replyTo)
    case .alreadyChosen(let id):
      ProtocolError(
        .alreadyChosen, "Card \(id) is already turned up; choose another.", replyTo: replyTo)
    case .secondChainCard(let id):
      ProtocolError(
        .chainRule,
        "A chain set takes one card of the chain: let go of the one you chose to take card \(id).",
        replyTo: replyTo)
    case .chainCardNeeded(let id):
      ProtocolError(
        .chainRule,
        "A chain set takes one card of the chain and two of the board: choose a card of the chain"
          + " before card \(id).", replyTo: replyTo)
    }
  }
}
