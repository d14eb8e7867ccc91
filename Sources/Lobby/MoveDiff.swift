import Model
import Protocol

/// One accepted move's diff as data, until it is written into a frame: the table events that
/// come before the game's own (a re-deal closing a vote, starting play), the game's events,
/// each match or mismatch followed by its history entry, and the game's end with the standings
/// as the table ranks them.
struct MoveDiff<Card: WireCard> {
  /// Table events written first.
  let before: [TableEvent]
  /// The game's events, in order.
  let events: [GameEvent<Card>]
  /// The history entries of the matches and mismatches among ``events``, in order.
  let entries: [HistoryEntry]
  /// The standings of a game that ended, ranked among the seats taken this game.
  let ended: [Standing]?
  /// The look back at a game that ended, when there is one.
  var lookBack: EncodedJSON? = nil
  /// The name of each seat.
  let names: [String]
  /// How the diff names cards.
  let naming: CardNaming<Card>

  /// Writes the whole diff, as everyone sees it when selections are visible (and spectators
  /// always).
  func write(to list: inout DiffEvents) {
    for event in before { list.add(event) }
    var nextEntry = 0
    for event in events { write(event, to: &list, nextEntry: &nextEntry) }
  }

  /// Writes the diff as one seat sees it when selections are hidden (`seen`, from
  /// ``HiddenSelectionView``).
  func write(_ seen: [HiddenSelectionView<Card>.Seen], to list: inout DiffEvents) {
    for event in before { list.add(event) }
    var nextEntry = 0
    for event in seen {
      switch event {
      case .game(let event): write(event, to: &list, nextEntry: &nextEntry)
      case .reveal(let card): list.reveal(card, naming: naming)
      }
    }
  }

  /// Writes one game event: the end with the table's standings and its phase, a match or a
  /// mismatch followed by its history entry.
  private func write(_ event: GameEvent<Card>, to list: inout DiffEvents, nextEntry: inout Int) {
    if case .ended = event, let ended {
      list.add(GameEvent<Card>.ended(ended), names: names, naming: naming)
      list.add(TableEvent.phase(.finished, countdown: nil))
      if let lookBack { list.add(TableEvent.lookBack(lookBack)) }
    } else {
      list.add(event, names: names, naming: naming)
    }
    switch event {
    case .matched, .mismatched:
      list.add(entries[nextEntry], names: names, naming: naming)
      nextEntry += 1
    default: break
    }
  }
}
