/// One run of a styled status line: the wire form of a piece of an attributed string.
///
/// A text run has only `text` (and maybe `color`); a card run names the card and carries how
/// to draw it small.
public struct StyledRun: Hashable, Sendable {
  /// The text, or for a card the symbol glyph repeated `count` times (a plain-text fallback).
  public var text: String {
    didSet { tail = nil }
  }
  /// A CSS hex colour, or nil for the default.
  public var color: String? {
    didSet { tail = nil }
  }
  /// The id of the card this run shows, for card runs.
  public var card: Int?
  /// The card's symbol name (Set), for card runs.
  public var symbol: String? {
    didSet { tail = nil }
  }
  /// How many symbols the card shows (Set), for card runs.
  public var count: Int? {
    didSet { tail = nil }
  }
  /// The card's shading name (Set), for card runs.
  public var shading: String? {
    didSet { tail = nil }
  }
  /// Fill opacity: 1 solid, 0.35 striped, 0 open.
  public var alpha: Double? {
    didSet { tail = nil }
  }
  /// Outline width in pixels.
  public var stroke: Double? {
    didSet { tail = nil }
  }
  /// What a screen reader says for a card run ("three striped green ovals", "queen of hearts").
  public var label: String? {
    didSet { tail = nil }
  }
  /// For a run that names a player: their seat (a client marks it in the seat's colour).
  public var seat: Int? {
    didSet { tail = nil }
  }

  /// The run's bytes from `"text"` on, written once (``cachingItsBytes()``): a card's run is
  /// written many times as it was made, its five strings escaped each time. Any change to a
  /// field written after `card` drops it.
  private var tail: WrittenTail?

  /// A plain text run.
  public static func text(_ text: String, color: String? = nil) -> StyledRun {
    StyledRun(text: text, color: color)
  }

  /// A run naming the player at `seat`.
  public static func name(_ name: String, seat: Int) -> StyledRun {
    StyledRun(text: name, seat: seat)
  }

  /// Creates a run; prefer ``text(_:color:)`` or a card's ``WireCard/statusRun``.
  public init(
    text: String, color: String? = nil, card: Int? = nil, symbol: String? = nil,
    count: Int? = nil, shading: String? = nil, alpha: Double? = nil, stroke: Double? = nil,
    label: String? = nil, seat: Int? = nil
  ) {
    self.text = text
    self.color = color
    self.card = card
    self.symbol = symbol
    self.count = count
    self.shading = shading
    self.alpha = alpha
    self.stroke = stroke
    self.label = label
    self.seat = seat
  }

  /// The run as a JSON object, with card fields only when present.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = []
    if let card { members.append(("card", .int(card))) }
    members.append(("text", .string(text)))
    if let seat { members.append(("seat", .int(seat))) }
    if let symbol { members.append(("symbol", .string(symbol))) }
    if let count { members.append(("count", .int(count))) }
    if let color { members.append(("color", .string(color))) }
    if let shading { members.append(("shading", .string(shading))) }
    if let alpha { members.append(("alpha", .double(alpha))) }
    if let stroke { members.append(("stroke", .double(stroke))) }
    if let label { members.append(("label", .string(label))) }
    return .object(members)
  }
}

extension StyledRun {
  /// This run, with the bytes it writes after its `card` kept: for runs made once and written
  /// often (each card's run, ``WireCard/statusRun``). Writes the same bytes as without.
  public func cachingItsBytes() -> StyledRun {
    var plain = self
    plain.card = nil
    var out = JSONWriter()
    plain.write(to: &out)
    var run = self
    run.tail = WrittenTail(bytes: Array(out.bytes.dropFirst()))
    return run
  }

  /// Writes the run: the same bytes as ``json``, without building it.
  public func write(to out: inout JSONWriter) {
    if let tail {
      if let card {
        out.raw(#"{"card":"#)
        out.int(card)
        out.byte(UInt8(ascii: ","))
      } else {
        out.byte(UInt8(ascii: "{"))
      }
      out.bytes.append(contentsOf: tail.bytes)
      return
    }
    if let card {
      out.raw(#"{"card":"#)
      out.int(card)
      out.raw(#","text":"#)
    } else {
      out.raw(#"{"text":"#)
    }
    out.string(text)
    if let seat {
      out.raw(#","seat":"#)
      out.int(seat)
    }
    if let symbol {
      out.raw(#","symbol":"#)
      out.string(symbol)
    }
    if let count {
      out.raw(#","count":"#)
      out.int(count)
    }
    if let color {
      out.raw(#","color":"#)
      out.string(color)
    }
    if let shading {
      out.raw(#","shading":"#)
      out.string(shading)
    }
    if let alpha {
      out.raw(#","alpha":"#)
      out.double(alpha)
    }
    if let stroke {
      out.raw(#","stroke":"#)
      out.double(stroke)
    }
    if let label {
      out.raw(#","label":"#)
      out.string(label)
    }
    out.byte(UInt8(ascii: "}"))
  }
}

/// Colours the status line uses for points.
public enum StatusColor {
  /// Points won.
  public static let gain = "#1a7f37"
  /// Points lost.
  public static let loss = "#c62828"
}

extension StyledRun {
  /// Runs are equal when their fields are: the bytes a run keeps follow from them.
  public static func == (a: StyledRun, b: StyledRun) -> Bool {
    a.text == b.text && a.color == b.color && a.card == b.card && a.symbol == b.symbol
      && a.count == b.count && a.shading == b.shading && a.alpha == b.alpha
      && a.stroke == b.stroke && a.label == b.label && a.seat == b.seat
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(text)
    hasher.combine(color)
    hasher.combine(card)
    hasher.combine(symbol)
    hasher.combine(count)
    hasher.combine(shading)
    hasher.combine(alpha)
    hasher.combine(stroke)
    hasher.combine(label)
    hasher.combine(seat)
  }
}

/// The bytes a run writes after its `card` (``StyledRun/cachingItsBytes()``), shared by every
/// copy of the run.
private final class WrittenTail: Sendable {
  let bytes: [UInt8]

  init(bytes: [UInt8]) { self.bytes = bytes }
}
