import Model

/// Turns a move's events into the styled status line players see, e.g.
/// "Ada matched ◆ ∿∿ ⬬⬬⬬ for +12".
public enum StatusLine {
  /// The line shown when a table of Set opens or a new game of it is dealt.
  public static let newGame: [StyledRun] = [.text("Find a set!")]

  /// The line shown when a game of `Card` is dealt (``WireCard/newGameLine``).
  public static func newGame<Card: WireCard>(_: Card.Type) -> [StyledRun] {
    Card.newGameLine
  }

  /// The status line for the events of one accepted move by `seat`; card runs name their
  /// cards as `naming` does. `choiceCosts`: what each seat judged in this move paid for its
  /// choices since its previous match or mismatch (said beside the match's points or the
  /// mismatch's penalty, so that the points shown add up to the score's change).
  public static func runs<Card: WireCard>(
    for events: [GameEvent<Card>], names: [String], naming: CardNaming<Card> = .byID,
    choiceCosts: [Int: Int] = [:]
  ) -> [StyledRun] {
    func run(_ card: Card) -> StyledRun {
      var run = card.statusRun
      run.card = naming.handle(card)
      return run
    }
    func cardList(_ cards: [Card]) -> [StyledRun] {
      var runs: [StyledRun] = []
      for (i, card) in cards.enumerated() {
        if i > 0 { runs.append(Runs.space) }
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
        selectionNews = [name(seat, names), Runs.chose, run(card)]
      case .deselected(let seat, let card) where selectionNews == nil && !judged:
        selectionNews = [name(seat, names), Runs.letGoOf, run(card)]
      case .matched(let seat, let cards, let points):
        selectionNews = nil
        judged = true
        sentences.append(
          [name(seat, names), Runs.matched] + cardList(cards) + [
            Runs.forPoints, .text("+\(points)", color: StatusColor.gain),
          ] + choiceRuns(choiceCosts[seat] ?? 0, after: true) + [Runs.fullStop])
      case .mismatched(let seat, let cards, let penalty):
        selectionNews = nil
        judged = true
        let choices = choiceRuns(choiceCosts[seat] ?? 0, after: penalty > 0)
        sentences.append(
          possessive(seat, names) + [Runs.space] + cardList(cards)
            + (penalty == 0 && choices.isEmpty
              ? [Runs.dontMatchFullStop]
              : (penalty == 0
                ? [Runs.dontMatch]
                : [Runs.dontMatchColon, .text("−\(penalty)", color: StatusColor.loss)])
                + choices + [Runs.fullStop]))
      case .turn(let seat):
        sentences.append(possessive(seat, names) + [Runs.turn])
      case .dealt(let cards, .noMatch):
        sentences.append([.text("No match on the table: \(cards.count) more cards dealt.")])
      case .redealt:
        sentences.append([.text("New deal. ")] + newGame(Card.self))
      case .ended(let standings):
        sentences.append(gameOver(standings, names: names))
      case .deselected, .scored, .replaced, .removed, .deckCount, .turnedUp, .turnedDown,
        .chained:
        break
      }
    }
    if let selectionNews { sentences.insert(selectionNews, at: 0) }
    // Most moves say one sentence ("Ada chose …"): it is the line, not copied run by run.
    if sentences.count == 1 { return sentences[0] }
    var runs: [StyledRun] = []
    for (i, sentence) in sentences.enumerated() {
      if i > 0 {
        // A sentence without its full stop ("Ada chose ◆") gets one before the next.
        if let last = runs.last?.text.last, !".!?…".contains(last) { runs.append(Runs.fullStop) }
        runs.append(Runs.space)
      }
      runs += sentence
    }
    return runs
  }

  /// What choices cost beside a match's points or a mismatch's penalty (`after`: whether
  /// points were just said): ", −3 for 3 choices" (nothing when they cost nothing).
  public static func choiceRuns(_ cost: Int, after: Bool) -> [StyledRun] {
    guard cost > 0 else { return [] }
    return [
      after ? Runs.comma : Runs.colon, .text("−\(cost)", color: StatusColor.loss),
      cost == 1 ? Runs.forAChoice : Runs.forTheChoices,
    ]
  }

  public static func gameOver(_ standings: [Standing], names: [String]) -> [StyledRun] {
    guard let best = standings.first else { return [.text("Game over.")] }
    if standings.count == 1 {
      return [
        .text("Game over: \(best.score) points from \(best.matches) matches.")
      ]
    }
    var runs: [StyledRun] = [Runs.gameOverColon]
    let winners = standings.filter { $0.rank == 1 }
    for (i, winner) in winners.enumerated() {
      if i > 0 { runs.append(Runs.and) }
      runs.append(name(winner.seat, names))
    }
    runs.append(.text(winners.count > 1 ? " tie with \(best.score)." : " wins with \(best.score)."))
    return runs
  }

  /// The run that makes `name` possessive: "'s", or "'" after an s ("Ada's", "Gus'").
  static func possessiveEnding(_ name: String) -> StyledRun {
    name.hasSuffix("s") || name.hasSuffix("S") ? Runs.apostrophe : Runs.apostropheS
  }

  /// The run naming the player at `seat`, then its possessive ending: "Ada" "'s".
  public static func possessive(_ seat: Int, _ names: [String]) -> [StyledRun] {
    let run = name(seat, names)
    return [run, possessiveEnding(run.text)]
  }

  /// The run naming the player at `seat` (marked with the seat, for its colour).
  public static func name(_ seat: Int, _ names: [String]) -> StyledRun {
    .name(ServerMessage.name(of: seat, in: names), seat: seat)
  }
}
