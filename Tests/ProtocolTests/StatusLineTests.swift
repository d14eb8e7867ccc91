import Protocol
import TestSupport
import Testing

@testable import Model

@Suite struct StatusLineTests {
  /// The card run PROTOCOL.md describes for Set card `id`, worked out from the id alone.
  static func documentedRun(_ id: Int) -> StyledRun {
    let number = id / 27 + 1
    let symbol = id / 9 % 3
    let shading = id / 3 % 3
    let color = id % 3
    return StyledRun(
      text: String(repeating: ["◆", "∿", "⬬"][symbol], count: number),
      color: ["#d6204e", "#1a9b4b", "#6a3fb5"][color], card: id,
      symbol: ["diamond", "squiggle", "oval"][symbol], count: number,
      shading: ["solid", "striped", "open"][shading], alpha: [1, 0.35, 0][shading],
      stroke: [0, 1, 2][shading],
      label:
        "\(["one", "two", "three"][number - 1]) \(["solid", "striped", "open"][shading]) "
        + "\(["red", "green", "purple"][color]) "
        + "\(["diamond", "squiggle", "oval"][symbol])\(number > 1 ? "s" : "")")
  }

  static func card(_ id: Int) -> SetCard { SetCard.fullDeck[id] }
  static func run(_ id: Int) -> StyledRun { documentedRun(id) }

  @Test func setCardRunsCarryHowToDrawTheCard() {
    for card in SetCard.fullDeck {
      #expect(card.statusRun == Self.documentedRun(card.id))
    }
    // The example's shapes: a striped card is 0.35 opaque with a thin outline, an open one stroked.
    let striped = Self.card(40).statusRun.json
    #expect(striped["alpha"] == .double(0.35))
    #expect(striped["stroke"] == .int(1))
    #expect(
      striped.keys == [
        "card", "text", "symbol", "count", "color", "shading", "alpha", "stroke", "label",
      ])
    #expect(striped["label"] == .string("two striped green squiggles"))
    #expect(
      Self.card(17).statusRun.json.text.hasSuffix(
        #""alpha":0,"stroke":2,"label":"one open purple squiggle"}"#))
    #expect(
      Self.card(63).statusRun.json.text.hasSuffix(
        #""alpha":1,"stroke":0,"label":"three solid red squiggles"}"#))
  }

  /// A card's run keeps the bytes it writes (``StyledRun/cachingItsBytes()``): they are the
  /// bytes of the same run made afresh, named by any handle, and a change to any field after
  /// `card` writes the change.
  @Test func cardRunsWriteTheBytesOfTheRunMadeAfresh() {
    func written(_ run: StyledRun) -> String {
      var out = JSONWriter()
      run.write(to: &out)
      return String(decoding: out.bytes, as: UTF8.self)
    }
    let kept = SetCard.fullDeck.map(\.statusRun) + JuniorSetCard.fullDeck.map(\.statusRun)
    for run in kept {
      let fresh = StyledRun(
        text: run.text, color: run.color, card: run.card, symbol: run.symbol, count: run.count,
        shading: run.shading, alpha: run.alpha, stroke: run.stroke, label: run.label,
        seat: run.seat)
      #expect(run == fresh)
      #expect(written(run) == written(fresh))
      #expect(written(run) == run.json.text)
      for handle in [nil, 0, 11, 80] as [Int?] {
        var named = run
        named.card = handle
        var freshNamed = fresh
        freshNamed.card = handle
        #expect(written(named) == written(freshNamed))
      }
      var changes: [(inout StyledRun) -> Void] = [
        { $0.text = "\"x\"" }, { $0.color = nil }, { $0.symbol = "é" }, { $0.count = 9 },
        { $0.shading = nil }, { $0.alpha = 0.5 }, { $0.stroke = nil }, { $0.label = "l" },
        { $0.seat = 2 },
      ]
      changes.shuffle()
      for change in changes.prefix(3) {
        var changed = run
        change(&changed)
        #expect(written(changed) == changed.json.text)
      }
    }
  }

  @Test func textRunsCarryOnlyTextAndColor() {
    #expect(StyledRun.text("plain").json.text == #"{"text":"plain"}"#)
    #expect(
      StyledRun.text("+12", color: "#1a7f37").json.text == ##"{"text":"+12","color":"#1a7f37"}"##)
  }

  @Test func match() {
    let cards = [17, 40, 63].map(Self.card)
    let events: [GameEvent<SetCard>] = [
      .selected(seat: 0, card: cards[2]), .scored(seat: 0, score: 7),
      .matched(seat: 0, cards: cards, points: 12), .scored(seat: 0, score: 19),
      .replaced(slot: 1, card: Self.card(5)), .deckCount(60),
    ]
    let expected: [StyledRun] = [
      .name("Ada", seat: 0), .text(" matched "), Self.run(17), .text(" "), Self.run(40), .text(" "),
      Self.run(63),
      .text(" for "), .text("+12", color: "#1a7f37"), .text("."),
    ]
    #expect(StatusLine.runs(for: events, names: ["Ada"]) == expected)
    #expect(expected.dropLast().last?.color == StatusColor.gain)
  }

  @Test func mismatch() {
    let cards = [0, 1, 5].map(Self.card)
    let events: [GameEvent<SetCard>] = [
      .selected(seat: 0, card: cards[2]), .scored(seat: 0, score: -3),
      .mismatched(seat: 0, cards: cards, penalty: 2), .scored(seat: 0, score: -5),
      .deselected(seat: 0, card: cards[0]), .deselected(seat: 0, card: cards[1]),
    ]
    // Who mismatched is said (issue 21: the line named nobody), and the sentence ends.
    let expected: [StyledRun] = [
      .name("Ada", seat: 0), .text("'s"), .text(" "), Self.run(0), .text(" "), Self.run(1),
      .text(" "), Self.run(5), .text(" don't match: "), .text("−2", color: "#c62828"), .text("."),
    ]
    #expect(StatusLine.runs(for: events, names: ["Ada"]) == expected)
    #expect(expected.dropLast().last?.color == StatusColor.loss)
    #expect(
      Array(StatusLine.runs(for: events, names: ["Gus"]).prefix(3)) == [
        .name("Gus", seat: 0), .text("'"), .text(" "),
      ])
    var free = events
    free[2] = .mismatched(seat: 0, cards: cards, penalty: 0)
    #expect(StatusLine.runs(for: free, names: ["Ada"]).last == .text(" don't match."))
    // What the choices since the last match or mismatch cost is said beside the penalty, so
    // that the points shown add up to the score's change (issue 34, point 5).
    #expect(
      Array(StatusLine.runs(for: events, names: ["Ada"], choiceCosts: [0: 3]).suffix(5)) == [
        .text("−2", color: StatusColor.loss), .text(", "), .text("−3", color: StatusColor.loss),
        .text(" for the choices"), .text("."),
      ])
    #expect(
      Array(StatusLine.runs(for: free, names: ["Ada"], choiceCosts: [0: 1]).suffix(5)) == [
        .text(" don't match"), .text(": "), .text("−1", color: StatusColor.loss),
        .text(" for a choice"), .text("."),
      ])
  }

  @Test func aMatchThatTakesAnotherSeatsCardSaysOnlyWhoMatched() {
    let cards = [17, 40, 63].map(Self.card)
    let events: [GameEvent<SetCard>] = [
      .selected(seat: 1, card: cards[2]), .scored(seat: 1, score: -1),
      .matched(seat: 1, cards: cards, points: 12), .scored(seat: 1, score: 11),
      .deselected(seat: 0, card: cards[0]),
    ]
    let expected: [StyledRun] = [
      .name("Bob", seat: 1), .text(" matched "), Self.run(17), .text(" "), Self.run(40), .text(" "),
      Self.run(63),
      .text(" for "), .text("+12", color: "#1a7f37"), .text("."),
    ]
    #expect(StatusLine.runs(for: events, names: ["Ada", "Bob"]) == expected)
  }

  @Test func chooseAndUnchoose() {
    let chose: [GameEvent<SetCard>] = [
      .selected(seat: 0, card: Self.card(17)), .scored(seat: 0, score: -1),
    ]
    #expect(
      StatusLine.runs(for: chose, names: ["Ada"])
        == [.name("Ada", seat: 0), .text(" chose "), Self.run(17)])
    let letGo: [GameEvent<SetCard>] = [.deselected(seat: 0, card: Self.card(17))]
    #expect(
      StatusLine.runs(for: letGo, names: ["Ada"])
        == [.name("Ada", seat: 0), .text(" let go of "), Self.run(17)])
    // A seat with no name is called by its number.
    #expect(
      Array(StatusLine.runs(for: chose, names: []).prefix(2)) == [
        .name("Seat 1", seat: 0), .text(" chose "),
      ])
  }

  @Test func extraDeal() {
    let dealt = [3, 4, 8].map(Self.card)
    let only: [GameEvent<SetCard>] = [.dealt(dealt, reason: .noMatch), .deckCount(30)]
    #expect(
      StatusLine.runs(for: only, names: ["Ada"])
        == [.text("No match on the table: 3 more cards dealt.")])

    let cards = [17, 40, 63].map(Self.card)
    let afterMatch: [GameEvent<SetCard>] = [
      .selected(seat: 0, card: cards[2]), .matched(seat: 0, cards: cards, points: 12),
      .removed(cards), .dealt(dealt, reason: .noMatch), .deckCount(27),
    ]
    let expected: [StyledRun] = [
      .name("Ada", seat: 0), .text(" matched "), Self.run(17), .text(" "), Self.run(40), .text(" "),
      Self.run(63),
      .text(" for "), .text("+12", color: "#1a7f37"), .text("."), .text(" "),
      .text("No match on the table: 3 more cards dealt."),
    ]
    // Sentences are separated (issue 21: "…for +12 No match on the table…").
    #expect(StatusLine.runs(for: afterMatch, names: ["Ada"]) == expected)
    // A choice followed by another sentence gets its full stop.
    let choseThenDealt: [GameEvent<SetCard>] = [
      .selected(seat: 0, card: cards[0]), .dealt(dealt, reason: .noMatch),
    ]
    #expect(
      StatusLine.runs(for: choseThenDealt, names: ["Ada"])
        == [
          .name("Ada", seat: 0), .text(" chose "), Self.run(17), .text("."), .text(" "),
          .text("No match on the table: 3 more cards dealt."),
        ])
  }

  @Test func redeal() {
    let events: [GameEvent<SetCard>] = [.redealt(board: [Self.card(0)], deckCount: 80)]
    #expect(
      StatusLine.runs(for: events, names: ["Ada"]) == [.text("New deal. "), .text("Find a set!")])
    #expect(StatusLine.newGame == [.text("Find a set!")])
  }

  @Test func gameOverSolo() {
    let cards = [17, 40, 63].map(Self.card)
    let events: [GameEvent<SetCard>] = [
      .matched(seat: 0, cards: cards, points: 12), .removed(cards),
      .ended([Standing(seat: 0, score: 41, matches: 25, rank: 1)]),
    ]
    let runs = StatusLine.runs(for: events, names: ["Ada"])
    #expect(runs.suffix(2) == [.text(" "), .text("Game over: 41 points from 25 matches.")])
    let overOnly: [GameEvent<SetCard>] = [
      .ended([Standing(seat: 0, score: -4, matches: 0, rank: 1)])
    ]
    #expect(
      StatusLine.runs(for: overOnly, names: ["Ada"])
        == [.text("Game over: -4 points from 0 matches.")])
  }

  @Test func gameOverWithATieAndWithAWinner() {
    let tie: [GameEvent<SetCard>] = [
      .ended([
        Standing(seat: 1, score: 30, matches: 3, rank: 1),
        Standing(seat: 0, score: 30, matches: 4, rank: 1),
        Standing(seat: 2, score: 9, matches: 1, rank: 3),
      ])
    ]
    #expect(
      StatusLine.runs(for: tie, names: ["Ada", "Bob", "Cy"])
        == [
          .text("Game over: "), .name("Bob", seat: 1), .text(" and "), .name("Ada", seat: 0),
          .text(" tie with 30."),
        ])
    let win: [GameEvent<SetCard>] = [
      .ended([
        Standing(seat: 1, score: 30, matches: 3, rank: 1),
        Standing(seat: 0, score: 12, matches: 4, rank: 2),
      ])
    ]
    #expect(
      StatusLine.runs(for: win, names: ["Ada", "Bob"])
        == [.text("Game over: "), .name("Bob", seat: 1), .text(" wins with 30.")])
  }

  /// A run naming a player carries their seat (a client marks the name in the seat's colour),
  /// written right after the text, the same bytes from the JSON value and from the fast
  /// writer; and every sentence that names a player names them with such a run (the sentences
  /// the lobby adds are in `MoveStatusLineTests`).
  @Test func everySentenceNamesItsPlayerWithASeatRun() {
    let ada = StyledRun.name("Ada", seat: 0)
    #expect(ada == StyledRun(text: "Ada", seat: 0))
    #expect(ada.json.text == #"{"text":"Ada","seat":0}"#)
    #expect(ada.json.keys == ["text", "seat"])
    func written(_ run: StyledRun) -> String {
      var out = JSONWriter()
      run.write(to: &out)
      return String(decoding: out.bytes, as: UTF8.self)
    }
    #expect(written(ada) == #"{"text":"Ada","seat":0}"#)
    let coloured = StyledRun(text: "Bob", color: "#123456", seat: 1)
    #expect(written(coloured) == ##"{"text":"Bob","seat":1,"color":"#123456"}"##)
    for run in [ada, coloured, .name("Seat 3", seat: 2), .text("Ada"), Self.run(40)] {
      #expect(written(run) == run.json.text)
    }
    #expect(StyledRun.text("Ada").seat == nil)
    #expect(Self.run(40).seat == nil)

    let names = ["Ada", "Bob"]
    let bob = StyledRun.name("Bob", seat: 1)
    let cards = [17, 40, 63].map(Self.card)
    let missed = [0, 1, 5].map(Self.card)
    func line(_ events: [GameEvent<SetCard>], _ names: [String] = names) -> [StyledRun] {
      StatusLine.runs(for: events, names: names)
    }
    // Choosing and letting go.
    #expect(line([.selected(seat: 1, card: cards[0])]) == [bob, .text(" chose "), Self.run(17)])
    #expect(
      line([.deselected(seat: 1, card: cards[0])]) == [bob, .text(" let go of "), Self.run(17)])
    // A match, a mismatch (the possessive is a run of its own), a turn.
    #expect(
      line([.matched(seat: 1, cards: cards, points: 12)]) == [
        bob, .text(" matched "), Self.run(17), .text(" "), Self.run(40), .text(" "),
        Self.run(63), .text(" for "), .text("+12", color: StatusColor.gain), .text("."),
      ])
    #expect(
      line([.mismatched(seat: 1, cards: missed, penalty: 0)]) == [
        bob, .text("'s"), .text(" "), Self.run(0), .text(" "), Self.run(1), .text(" "),
        Self.run(5), .text(" don't match."),
      ])
    #expect(
      Array(line([.mismatched(seat: 0, cards: missed, penalty: 2)], ["Gus"]).prefix(3)) == [
        .name("Gus", seat: 0), .text("'"), .text(" "),
      ])
    #expect(line([.turn(seat: 1)]) == [bob, .text("'s"), .text(" turn.")])
    #expect(
      line([.turn(seat: 0)], ["Gus"]) == [.name("Gus", seat: 0), .text("'"), .text(" turn.")])
    // A seat without a name is named by its number, with its seat.
    #expect(line([.turn(seat: 2)]) == [.name("Seat 3", seat: 2), .text("'s"), .text(" turn.")])
    // Game over: a winner, a tie.
    #expect(
      line([
        .ended([
          Standing(seat: 1, score: 12, matches: 4, rank: 1),
          Standing(seat: 0, score: 9, matches: 3, rank: 2),
        ])
      ]) == [.text("Game over: "), bob, .text(" wins with 12.")])
    #expect(
      line([
        .ended([
          Standing(seat: 0, score: 9, matches: 3, rank: 1),
          Standing(seat: 1, score: 9, matches: 4, rank: 1),
        ])
      ]) == [.text("Game over: "), ada, .text(" and "), bob, .text(" tie with 9.")])
    // A history entry's runs start with the name run.
    let entry = HistoryEntry(
      number: 1, at: 2, seat: 1, kind: .mismatch, points: 2, cards: [0, 1, 5])
    let runs = entry.json(names: names, naming: .byID, as: SetCard.self)["runs"]?.elements
    #expect(runs?.prefix(2).map { $0 } == [bob.json, StyledRun.text(" missed with ").json])
  }

  @Test func nothingToSayIsAnEmptyLine() {
    let events: [GameEvent<SetCard>] = [.scored(seat: 0, score: 3), .deckCount(3)]
    #expect(StatusLine.runs(for: events, names: ["Ada"]).isEmpty)
  }

  /// The status line of real games: a mismatch never mentions letting go, a match never
  /// mentions choosing.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func statusOfRealMoves(seed: UInt64) throws {
    var game = CardMatchingGame<SetCard>(settings: .set(), seed: seed)
    var player = SetPlayer(seed: seed)
    for _ in 0..<300 where !game.isOver {
      guard let events = try? game.apply(player.nextMove(in: game)) else { continue }
      let text = StatusLine.runs(for: events, names: ["Ada"]).map(\.text).joined()
      if events.contains(where: { if case .mismatched = $0 { true } else { false } }) {
        #expect(!text.contains("let go of"), "\(text)")
        #expect(text.hasPrefix("Ada's "), "\(text)")
        #expect(text.hasSuffix(" don't match: −2."), "\(text)")
      }
      if events.contains(where: { if case .matched = $0 { true } else { false } }) {
        #expect(text.hasPrefix("Ada matched "), "\(text)")
        #expect(!text.contains("chose"), "\(text)")
      }
    }
  }
}
