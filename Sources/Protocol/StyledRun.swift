/// One run of a styled status line: the wire form of a piece of an attributed string.
///
/// A text run has only `text` (and maybe `color`); a card run names the card and carries how
/// to draw it small.
public struct StyledRun: Hashable, Sendable {
  /// Everything but ``card``, shared by every copy of the run: a run is copied many times a
  /// move (into each status line, each diff's writer, each look back), and a copy of ten
  /// fields (five strings) was a retain and a release of each, ~4,000 instructions a move in
  /// real play (callgrind; docs/BENCHMARKS.md). Now one.
  private var shared: SharedRunFields

  /// The text, or for a card the symbol glyph repeated `count` times (a plain-text fallback).
  public var text: String {
    get { shared.fields.text }
    set { change { $0.text = newValue } }
  }
  /// A CSS hex colour, or nil for the default.
  public var color: String? {
    get { shared.fields.color }
    set { change { $0.color = newValue } }
  }
  /// The id of the card this run shows, for card runs.
  public var card: Int?
  /// The card's symbol name (Set), for card runs.
  public var symbol: String? {
    get { shared.fields.symbol }
    set { change { $0.symbol = newValue } }
  }
  /// How many symbols the card shows (Set), for card runs.
  public var count: Int? {
    get { shared.fields.count }
    set { change { $0.count = newValue } }
  }
  /// The card's shading name (Set), for card runs.
  public var shading: String? {
    get { shared.fields.shading }
    set { change { $0.shading = newValue } }
  }
  /// Fill opacity: 1 solid, 0.35 striped, 0 open.
  public var alpha: Double? {
    get { shared.fields.alpha }
    set { change { $0.alpha = newValue } }
  }
  /// Outline width in pixels.
  public var stroke: Double? {
    get { shared.fields.stroke }
    set { change { $0.stroke = newValue } }
  }
  /// What a screen reader says for a card run ("three striped green ovals", "queen of hearts").
  public var label: String? {
    get { shared.fields.label }
    set { change { $0.label = newValue } }
  }
  /// For a run that names a player: their seat (a client marks it in the seat's colour).
  public var seat: Int? {
    get { shared.fields.seat }
    set { change { $0.seat = newValue } }
  }

  /// The run's bytes from `"text"` on, written once (``cachingItsBytes()``): a card's run is
  /// written many times as it was made, its five strings escaped each time. Any change to a
  /// field written after `card` drops it.
  private var tail: [UInt8]? { shared.tail }

  /// Sets fields other than `card`: the shared ones are copied (runs are made, rarely changed)
  /// and the bytes kept for them dropped.
  private mutating func change(_ body: (inout RunFields) -> Void) {
    var fields = shared.fields
    body(&fields)
    shared = SharedRunFields(fields: fields, tail: nil)
  }

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
    self.card = card
    shared = SharedRunFields(
      fields: RunFields(
        text: text, color: color, symbol: symbol, count: count, shading: shading, alpha: alpha,
        stroke: stroke, label: label, seat: seat),
      tail: nil)
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
    run.shared = SharedRunFields(fields: shared.fields, tail: Array(out.bytes.dropFirst()))
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
      out.bytes.append(contentsOf: tail)
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
    if a.shared === b.shared { return a.card == b.card }
    return a.text == b.text && a.color == b.color && a.card == b.card && a.symbol == b.symbol
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

/// A run's fields other than its card (``StyledRun``).
private struct RunFields: Sendable {
  var text: String
  var color: String?
  var symbol: String?
  var count: Int?
  var shading: String?
  var alpha: Double?
  var stroke: Double?
  var label: String?
  var seat: Int?
}

/// A run's fields other than its card, and the bytes it writes after its `card`
/// (``StyledRun/cachingItsBytes()``), shared by every copy of the run; never changed.
private final class SharedRunFields: Sendable {
  let fields: RunFields
  let tail: [UInt8]?

  init(fields: RunFields, tail: [UInt8]?) {
    self.fields = fields
    self.tail = tail
  }
}
