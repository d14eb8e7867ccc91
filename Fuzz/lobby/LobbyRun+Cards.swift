import Lobby
import Model
import Protocol

/// The cards a run's moves name: mostly on the sender's board, often toward a set.
extension LobbyRun {
  /// A card id: mostly one on the board of the sender's table, sometimes any number. With
  /// `choice & 0x40`, a card on the board that makes a set with what the sender has selected
  /// (or starts one), when there is one: a match then takes three events rather than a search,
  /// so that short inputs still get games to where matches and new deals happen.
  mutating func card(choice: UInt8, slot: Int) -> Int {
    let pick = input.byte()
    if choice & 0x80 != 0 { return Int(pick) - 8 }
    guard let session = state.session(for: connections[slot]),
      let tableID = session.tableID, let table = state.table(tableID)
    else { return Int(pick) % 81 }
    // The cards a snapshot of the table shows, in its order: the board once the game is
    // dealt, none before. Read off the game; another game's table is asked for a snapshot.
    if let table = table as? TableState<SetCard> {
      let board = table.game.board
      guard table.phase == .playing || table.phase == .finished, !board.isEmpty else {
        return Int(pick) % 81
      }
      if choice & 0x40 != 0 {
        let selection = session.seat.map { table.game.players[$0].selection } ?? []
        if let id = Self.cardTowardSet(board: board, selection: selection, from: Int(pick)) {
          return id
        }
      }
      return board[Int(pick) % board.count].id
    }
    guard
      case .array(let cards)? = table.snapshot(replyTo: nil, you: session.seat, now: now)[
        "table"]?["board"]
    else { return Int(pick) % 81 }
    let ids = cards.compactMap { card -> Int? in
      if case .int(let id)? = card["id"] { id } else { nil }
    }
    return ids.isEmpty ? Int(pick) % 81 : ids[Int(pick) % ids.count]
  }

  /// A card of `board` that can still make a set with `selection`: the third when two are
  /// selected, one that makes a set on the board with a selected card, or with none selected the
  /// first card of a set. The board is searched from index `start` on, round; nil when no set
  /// can be made.
  static func cardTowardSet(board: [SetCard], selection: [Int], from start: Int) -> Int? {
    // The board as 81 bits, to look cards up without building anything.
    var onBoard: (low: UInt64, high: UInt64) = (0, 0)
    for card in board {
      if card.id < 64 {
        onBoard.low |= 1 << UInt64(card.id)
      } else {
        onBoard.high |= 1 << UInt64(card.id - 64)
      }
    }
    func isOnBoard(_ id: Int) -> Bool {
      id < 64 ? onBoard.low >> UInt64(id) & 1 == 1 : onBoard.high >> UInt64(id - 64) & 1 == 1
    }
    let count = board.count
    switch selection.count {
    case 2:
      let third = SetCard.thirdCard(SetCard.fullDeck[selection[0]], SetCard.fullDeck[selection[1]])
        .id
      return isOnBoard(third) ? third : nil
    case 1:
      let selected = SetCard.fullDeck[selection[0]]
      for offset in 0..<count {
        let card = board[(start + offset) % count]
        if card.id != selected.id && isOnBoard(SetCard.thirdCard(selected, card).id) {
          return card.id
        }
      }
      return nil
    case 0:
      for offset in 0..<count {
        let first = board[(start + offset) % count]
        for card in board where card.id != first.id && isOnBoard(SetCard.thirdCard(first, card).id)
        {
          return first.id
        }
      }
      return nil
    default:
      return nil
    }
  }
}
