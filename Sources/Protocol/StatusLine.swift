import Model

/// Turns a move's events into the styled status line players see, e.g.
/// "Ada matched ◆ ∿∿ ⬬⬬⬬ for +12".
public enum StatusLine {
  /// The line shown when a table opens or a new game is dealt.
  public static let newGame: [StyledRun] = [.text("Find a set!")]

  /// The status line for the events of one accepted move by `seat`; card runs name their
  /// cards as `naming` does.
  public static func runs<Card: WireCard>(
    for events: [GameEvent<Card>], names: [String], naming: CardNaming<Card> = .byID
  ) -> [StyledRun] {
    func run(_ card: Card) -> StyledRun {
      var run = card.statusRun
      run.card = naming.handle(card)
      return run
    }
    func cardList(_ cards: [Card]) -> [StyledRun] {
      var runs: [StyledRun] = []
      for (i, card) in cards.enumerated() {
        if i > 0 { runs.append(.text(" ")) }
        runs.append(run(card))
      }
      return runs
    }
    var sentences: [[StyledRun]] = []
    var selectionNews: [StyledRun]?
    // Once a selection is judged, the deselections that follow are its consequences (the
    // mismatched cards let go, or other seats losing matched cards), not news of their own.
    var judged = false
    for event in events {
      switch event {
      case .selected(let seat, let card):
        selectionNews = [.text("\(name(seat, names)) chose "), run(card)]
      case .deselected(let seat, let card) where selectionNews == nil && !judged:
        selectionNews = [.text("\(name(seat, names)) let go of "), run(card)]
      case .matched(let seat, let cards, let points):
        selectionNews = nil
        judged = true
        sentences.append(
          [.text("\(name(seat, names)) matched ")] + cardList(cards) + [
            .text(" for "), .text("+\(points)", color: StatusColor.gain),
          ])
      case .mismatched(_, let cards, let penalty):
        selectionNews = nil
        judged = true
        sentences.append(
          cardList(cards)
            + (penalty == 0
              ? [.text(" don't match.")]
              : [.text(" don't match: "), .text("−\(penalty)", color: StatusColor.loss)]))
      case .turn(let seat):
        sentences.append([.text("\(name(seat, names))'s turn.")])
      case .dealt(let cards, .noMatch):
        sentences.append([.text("No match on the table: \(cards.count) more cards dealt.")])
      case .redealt:
        sentences.append([.text("New deal. ")] + newGame)
      case .ended(let standings):
        sentences.append(gameOver(standings, names: names))
      case .deselected, .scored, .replaced, .removed, .deckCount, .turnedUp, .turnedDown:
        break
      }
    }
    if let selectionNews { sentences.insert(selectionNews, at: 0) }
    var runs: [StyledRun] = []
    for (i, sentence) in sentences.enumerated() {
      if i > 0 { runs.append(.text(" ")) }
      runs += sentence
    }
    return runs
  }

  private static func gameOver(_ standings: [Standing], names: [String]) -> [StyledRun] {
    guard let best = standings.first else { return [.text("Game over.")] }
    if standings.count == 1 {
      return [
        .text("Game over: \(best.score) points from \(best.matches) matches.")
      ]
    }
    let winners = standings.filter { $0.rank == 1 }.map { name($0.seat, names) }
    if winners.count > 1 {
      return [
        .text("Game over: \(winners.joined(separator: " and ")) tie with \(best.score).")
      ]
    }
    return [.text("Game over: \(winners[0]) wins with \(best.score).")]
  }

  private static func name(_ seat: Int, _ names: [String]) -> String {
    ServerMessage.name(of: seat, in: names)
  }
}
