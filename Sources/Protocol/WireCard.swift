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
}

extension WireCard {
  public func writeWireObject(to out: inout JSONWriter) {
    out.value(wireObject)
  }
}

extension SetCard: WireCard {
  /// The colour of each Set colour value, as CSS hex, in value order (red, green, purple).
  public static let colorHex = ["#d6204e", "#1a9b4b", "#6a3fb5"]
  /// A plain-text glyph for each symbol value (diamond, squiggle, oval).
  public static let glyphs = ["◆", "∿", "⬬"]

  public static var gameName: String { "set" }

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

  public var statusRun: StyledRun {
    let alpha = [1.0, 0.35, 0.0][shading]
    return StyledRun(
      text: String(repeating: Self.glyphs[symbol], count: number), color: Self.colorHex[color],
      card: id, symbol: valueName(1), count: number, shading: valueName(2), alpha: alpha,
      stroke: [0.0, 1.0, 2.0][shading])
  }
}

extension PlayingCard: WireCard {
  public static var gameName: String { "matchismo" }

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
    StyledRun(text: description, color: suit == 1 || suit == 2 ? "#c62828" : "#1b1b1b", card: id)
  }
}
