import Model
import Protocol

/// What each seat sees of a move when players do not see each other's selections: its own
/// choices and the faces it turned up, but no opponent's; every judged claim (a match or a
/// mismatch, its points), with the faces of matched cards it had not seen; and its own cards
/// turning back down, whoever else still holds them up. Spectators always see everything.
///
/// Made from the game just before the move (what each seat saw face up then), asked after it.
struct HiddenSelectionView<Card: WireCard> {
  /// One event of a move as one seat sees it.
  enum Seen {
    /// A game event as it happened.
    case game(GameEvent<Card>)
    /// The face of a card an opponent turned up unseen, shown now that their claim is judged.
    case reveal(Card)
  }

  /// Each seat's selection before the move.
  let selectionsBefore: [[Int]]
  /// The matched cards on the board before the move.
  let matchedBefore: Set<Int>

  /// The view of the move about to be applied to `game`.
  init(before game: CardMatchingGame<Card>) {
    selectionsBefore = game.players.map(\.selection)
    matchedBefore = game.matchedOnBoard
  }

  /// What seat `viewer` sees of a move's `events`; `game` is the game after the move.
  func seen(_ events: [GameEvent<Card>], by viewer: Int, in game: CardMatchingGame<Card>)
    -> [Seen]
  {
    let faceDown = game.settings.faceDown
    // The cards this seat saw face up (beyond the matched ones) before and during the move.
    var seenUp = Set(selectionsBefore[viewer])
    var seen: [Seen] = []
    for event in events {
      switch event {
      case .selected(let seat, _), .deselected(let seat, _):
        if seat == viewer { seen.append(.game(event)) }
      case .turnedUp(let seat, let card):
        if seat == viewer {
          seenUp.insert(card.id)
          seen.append(.game(event))
        }
      case .turnedDown:
        // Worked out for this seat below.
        break
      case .matched(let seat, let cards, _):
        if faceDown && seat != viewer {
          for card in cards
          where !seenUp.contains(card.id) && !matchedBefore.contains(card.id)
            && game.board.contains(card)
          {
            seen.append(.reveal(card))
          }
        }
        seen.append(.game(event))
      default:
        seen.append(.game(event))
      }
    }
    if faceDown {
      let mine = Set(game.players[viewer].selection)
      let down = game.board.filter {
        seenUp.contains($0.id) && !mine.contains($0.id) && !game.matchedOnBoard.contains($0.id)
      }
      if !down.isEmpty { seen.append(.game(.turnedDown(down))) }
    }
    return seen
  }

  /// The diff of `move` as each seat sees it, encoded (seats that see the same diff share one
  /// frame), and the status line each seat reads. `diff` is the whole diff, `game` the game
  /// after the move, `version` the version the move made at table `tableID`.
  func seatDiffs(
    of move: Move, _ diff: MoveDiff<Card>, in game: CardMatchingGame<Card>, tableID: String,
    version: Int, replyTo: MessageID?
  ) -> (frames: [Frame], lines: [[StyledRun]]) {
    var frames: [Frame] = []
    var lines: [[StyledRun]] = []
    for viewer in selectionsBefore.indices {
      let seen = seen(diff.events, by: viewer, in: game)
      var seenGame: [GameEvent<Card>] = []
      for case .game(let event) in seen { seenGame.append(event) }
      let line = StatusLine.runs(
        seenBy: viewer, after: move, seen: seenGame, events: diff.events, names: diff.names,
        naming: diff.naming, entries: diff.entries)
      let frame = ServerMessage.diffFrame(
        tableID: tableID, version: version, seat: move.seat, replyTo: replyTo, status: line
      ) { list in diff.write(seen, to: &list) }
      frames.append(frames.first { $0.hasSamePayload(as: frame) } ?? frame)
      lines.append(line)
    }
    return (frames, lines)
  }
}
