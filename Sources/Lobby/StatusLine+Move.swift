import Model
import Protocol

extension StatusLine {
  /// The line everyone reads after `move` made `events`: what happened, a pass said first.
  static func runs<Card: WireCard>(
    after move: Move, events: [GameEvent<Card>], names: [String], naming: CardNaming<Card>,
    entries: [HistoryEntry] = []
  ) -> [StyledRun] {
    var line = runs(for: events, names: names, naming: naming, choiceCosts: costs(entries))
    if case .pass(let seat) = move { line.insert(contentsOf: passes(seat, names), at: 0) }
    return line
  }

  /// "Ada passes. ", said before what a pass made.
  static func passes(_ seat: Int, _ names: [String]) -> [StyledRun] {
    [.name(names[seat], seat: seat), .text(" passes. ")]
  }

  /// The line seat `viewer` reads after `move` made `events`, of which it saw `seen`, when
  /// players do not see each other's selections: an opponent's choice says that they chose
  /// (or let go of) a card, not which.
  static func runs<Card: WireCard>(
    seenBy viewer: Int, after move: Move, seen: [GameEvent<Card>], events: [GameEvent<Card>],
    names: [String], naming: CardNaming<Card>, entries: [HistoryEntry] = []
  ) -> [StyledRun] {
    var line = runs(for: seen, names: names, naming: naming, choiceCosts: costs(entries))
    if line.isEmpty, move.seat != viewer, case .choose = move {
      var verb = "chose"
      if let first = events.first, case .deselected = first { verb = "let go of" }
      line = [.name(names[move.seat], seat: move.seat), .text(" \(verb) a card.")]
    }
    if case .pass(let seat) = move { line.insert(contentsOf: passes(seat, names), at: 0) }
    return line
  }

  /// What each seat judged in a move paid for its choices, from the move's history entries.
  static func costs(_ entries: [HistoryEntry]) -> [Int: Int] {
    var costs: [Int: Int] = [:]
    for entry in entries where entry.choiceCost > 0 { costs[entry.seat] = entry.choiceCost }
    return costs
  }
}
