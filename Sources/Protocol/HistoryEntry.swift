import Model

/// One match or mismatch of a game, as the table's history keeps it: compact (the cards by id),
/// styled only when sent.
public struct HistoryEntry: Hashable, Sendable {
  /// A match or a mismatch.
  public enum Kind: String, Hashable, Sendable {
    case match, mismatch
  }

  /// 1 for the game's first entry, counting on.
  public var number: Int
  /// Seconds since play began.
  public var at: Double
  /// Who made it.
  public var seat: Int
  /// What it was.
  public var kind: Kind
  /// Points won (a match) or lost (a mismatch).
  public var points: Int
  /// The cards, by card id.
  public var cards: [Int]
  /// What the seat's choices since its previous match or mismatch cost it (0: choosing is
  /// free), so that the points an entry shows add up to the score's change.
  public var choiceCost = 0

  /// Creates an entry.
  public init(number: Int, at: Double, seat: Int, kind: Kind, points: Int, cards: [Int]) {
    self.number = number
    self.at = at
    self.seat = seat
    self.kind = kind
    self.points = points
    self.cards = cards
  }

  /// The entry's line, styled like the status line and naming cards as `naming` does:
  /// "Ada matched ◆ ∿∿ ⬬⬬⬬ for +12".
  public func runs<Card: WireCard>(
    names: [String], naming: CardNaming<Card>, as _: Card.Type = Card.self
  ) -> [StyledRun] {
    var runs: [StyledRun] = [StatusLine.name(seat, names)]
    runs.reserveCapacity(2 * cards.count + 6)
    runs.append(kind == .match ? StatusLine.Runs.matched : StatusLine.Runs.missedWith)
    for (i, id) in cards.enumerated() {
      if i > 0 { runs.append(StatusLine.Runs.space) }
      let card = Card.fullDeck[id]
      var run = card.statusRun
      run.card = naming.handle(card)
      runs.append(run)
    }
    switch kind {
    case .match: runs += [StatusLine.Runs.forPoints, .text("+\(points)", color: StatusColor.gain)]
    case .mismatch where points > 0:
      runs += [StatusLine.Runs.colon, .text("−\(points)", color: StatusColor.loss)]
    case .mismatch: break
    }
    runs += StatusLine.choiceRuns(choiceCost, after: kind == .match || points > 0)
    return runs
  }

  /// The time on the wire: seconds to a tenth.
  private var tenths: Double { (at * 10).rounded() / 10 }

  /// The key of the points: `points` for a match, `penalty` for a mismatch.
  private var pointsKey: String { kind == .match ? "points" : "penalty" }

  /// Writes the entry: `{"n","at","seat","kind","points"|"penalty","choices"?,"runs"}`, the
  /// one encoding a diff's `history` event carries, written straight into the frame.
  public func write<Card: WireCard>(
    names: [String], naming: CardNaming<Card>, as _: Card.Type = Card.self,
    to out: inout JSONWriter
  ) {
    out.raw(#"{"n":"#)
    out.int(number)
    out.raw(#","at":"#)
    out.double(tenths)
    out.raw(#","seat":"#)
    out.int(seat)
    out.raw(#","kind":"#)
    out.string(kind.rawValue)
    out.byte(UInt8(ascii: ","))
    out.string(pointsKey)
    out.byte(UInt8(ascii: ":"))
    out.int(points)
    if choiceCost > 0 {
      out.raw(#","choices":"#)
      out.int(choiceCost)
    }
    out.raw(#","runs":["#)
    for (i, run) in runs(names: names, naming: naming).enumerated() {
      if i > 0 { out.byte(UInt8(ascii: ",")) }
      run.write(to: &out)
    }
    out.raw("]}")
  }

  /// The entry as a snapshot's `history` lists it: the same members as ``write(names:naming:as:to:)``
  /// writes, in the same order (a test holds the two to the same bytes).
  public func json<Card: WireCard>(
    names: [String], naming: CardNaming<Card>, as _: Card.Type = Card.self
  ) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("n", .int(number)), ("at", .double(tenths)), ("seat", .int(seat)),
      ("kind", .string(kind.rawValue)), (pointsKey, .int(points)),
    ]
    if choiceCost > 0 { members.append(("choices", .int(choiceCost))) }
    members.append(("runs", .array(runs(names: names, naming: naming).map(\.json))))
    return .object(members)
  }
}
