import Model

/// A card type the protocol can put on the wire.
public protocol WireCard: MatchableCard {
  /// The game's name on the wire, e.g. "set".
  static var gameName: String { get }
  /// What a player sees of the card, as a JSON object with its `id`.
  var wireObject: JSONValue { get }
  /// The card as a status-line run.
  var statusRun: StyledRun { get }
  /// Writes ``wireObject`` (the same bytes, without building it).
  func writeWireObject(to out: inout JSONWriter)
  /// The card's face without its id, as the members of a JSON object: what a face-down card
  /// shows once turned up (``faceObject(handle:matched:)``).
  var faceMembers: [(String, JSONValue)] { get }
  /// What a screen reader says for the card.
  var spokenName: String { get }
  /// The status line shown when a game of these cards is dealt, e.g. "Find a set!".
  static var newGameLine: [StyledRun] { get }
}

extension WireCard {
  public func writeWireObject(to out: inout JSONWriter) {
    out.value(wireObject)
  }

  /// A board entry of a face-down game: the slot `handle` as its id, and the face only when
  /// `faceUp` (`matched` cards are face up and out of play).
  public func faceObject(handle: Int, faceUp: Bool, matched: Bool = false) -> JSONValue {
    var members: [(String, JSONValue)] = [("id", .int(handle)), ("faceUp", .bool(faceUp))]
    if faceUp { members += faceMembers }
    if matched { members.append(("matched", .bool(true))) }
    return .object(members)
  }
}

/// How a table names its cards on the wire: by card id when every card is face up (Set), by
/// board slot when cards are dealt face down (a card's id would give it away).
public struct CardNaming<Card: WireCard> {
  /// The board whose slots name the cards, or nil to name them by id.
  public let faceDownBoard: [Card]?

  /// Naming by card id.
  public static var byID: CardNaming { CardNaming(faceDownBoard: nil) }

  /// The naming `game` uses now.
  public init(_ game: CardMatchingGame<Card>) {
    faceDownBoard = game.settings.faceDown ? game.board : nil
  }

  private init(faceDownBoard: [Card]?) { self.faceDownBoard = faceDownBoard }

  /// What the wire calls `card`.
  public func handle(_ card: Card) -> Int {
    guard let faceDownBoard else { return card.id }
    return faceDownBoard.firstIndex(of: card) ?? -1
  }

  /// A card as it arrives on the board (dealt, replaced, re-dealt): whole when face up, a
  /// face-down entry for slot `slot` otherwise.
  public func arriving(_ card: Card, slot: Int) -> JSONValue {
    faceDownBoard == nil ? card.wireObject : faceDownObject(handle: slot)
  }

  /// A card turned up: its face, under its handle.
  public func turnedUp(_ card: Card) -> JSONValue {
    faceDownBoard == nil ? card.wireObject : card.faceObject(handle: handle(card), faceUp: true)
  }
}

/// A face-down board entry as the protocol shows it before the card is turned up.
public func faceDownObject(handle: Int) -> JSONValue {
  .object([("id", .int(handle)), ("faceUp", .bool(false))])
}

extension SetCard: WireCard {
  /// The colour of each Set colour value, as CSS hex, in value order (red, green, purple).
  /// The web client's stylesheet and default palette copy these values (it has no build step to
  /// derive them); `web-client/tests/set-colours.test.js` fails when a copy differs.
  public static let colorHex = ["#d6204e", "#1a9b4b", "#6a3fb5"]
  /// A plain-text glyph for each symbol value (diamond, squiggle, oval).
  public static let glyphs = ["◆", "∿", "⬬"]

  public static var gameName: String { "set" }

  public static var newGameLine: [StyledRun] { StatusLine.newGame }

  public var wireObject: JSONValue {
    .object([
      ("id", .int(id)),
      ("number", .int(number)),
      ("symbol", .string(valueName(1))),
      ("shading", .string(valueName(2))),
      ("color", .string(valueName(3))),
    ])
  }

  public func writeWireObject(to out: inout JSONWriter) {
    writeWireObject(to: &out, id: id)
  }

  /// ``writeWireObject(to:)`` under another card's `id`: Set Junior's cards go on the wire as
  /// the solid Set cards they look like, named by their own ids.
  func writeWireObject(to out: inout JSONWriter, id: Int) {
    out.raw(#"{"id":"#)
    out.int(id)
    out.raw(#","number":"#)
    out.int(number)
    out.raw(#","symbol":"#)
    out.string(valueName(1))
    out.raw(#","shading":"#)
    out.string(valueName(2))
    out.raw(#","color":"#)
    out.string(valueName(3))
    out.byte(UInt8(ascii: "}"))
  }

  /// The card's run, made once per card: every match and mismatch names three cards, in the
  /// status line and again in the history entry, and making a run (its glyphs, its spoken
  /// name) cost more than the rest of a match's diff (callgrind, docs/BENCHMARKS.md).
  public var statusRun: StyledRun { Self.statusRuns[id] }

  /// Every card's run, by card id.
  private static let statusRuns = fullDeck.map { $0.madeStatusRun.cachingItsBytes() }

  private var madeStatusRun: StyledRun {
    let alpha = [1.0, 0.35, 0.0][shading]
    return StyledRun(
      text: String(repeating: Self.glyphs[symbol], count: number), color: Self.colorHex[color],
      card: id, symbol: valueName(1), count: number, shading: valueName(2), alpha: alpha,
      stroke: [0.0, 1.0, 2.0][shading], label: spokenName)
  }

  public var faceMembers: [(String, JSONValue)] {
    [
      ("number", .int(number)), ("symbol", .string(valueName(1))),
      ("shading", .string(valueName(2))), ("color", .string(valueName(3))),
    ]
  }

  /// "two striped green squiggles".
  public var spokenName: String {
    let count = ["one", "two", "three"][number - 1]
    let shape = valueName(1) + (number > 1 ? "s" : "")
    return "\(count) \(valueName(2)) \(valueName(3)) \(shape)"
  }
}

extension PlayingCard: WireCard {
  public static var gameName: String { "matchismo" }

  public static var newGameLine: [StyledRun] { [.text("Turn up cards that match!")] }

  public var wireObject: JSONValue {
    .object([
      ("id", .int(id)), ("rank", .int(rank)), ("suit", .string(Self.suits[suit])),
    ])
  }

  public func writeWireObject(to out: inout JSONWriter) {
    out.raw(#"{"id":"#)
    out.int(id)
    out.raw(#","rank":"#)
    out.int(rank)
    out.raw(#","suit":"#)
    out.string(Self.suits[suit])
    out.byte(UInt8(ascii: "}"))
  }

  public var statusRun: StyledRun {
    StyledRun(
      text: description, color: suit == 1 || suit == 2 ? "#c62828" : "#1b1b1b", card: id,
      label: spokenName)
  }

  public var faceMembers: [(String, JSONValue)] {
    [("rank", .int(rank)), ("suit", .string(Self.suits[suit]))]
  }

  /// "queen of hearts".
  public var spokenName: String {
    let ranks = [
      "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
      "queen", "king",
    ]
    return "\(ranks[rank - 1]) of \(["spades", "hearts", "diamonds", "clubs"][suit])"
  }
}

extension EmojiCard: WireCard {
  public static var gameName: String { "concentration" }

  public static var newGameLine: [StyledRun] { [.text("Find the pairs!")] }

  public var wireObject: JSONValue {
    .object([("id", .int(id)), ("emoji", .string(glyph))])
  }

  public var statusRun: StyledRun {
    StyledRun(text: glyph, card: id, label: name)
  }

  public var faceMembers: [(String, JSONValue)] { [("emoji", .string(glyph))] }

  public var spokenName: String { name }
}
