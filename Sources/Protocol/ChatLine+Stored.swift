extension ChatLine {
  /// Appends the line as `Codable` writes it (the same keys and values), for the records a
  /// store keeps (a table's last lines, a finished game's chat).
  public func writeStored(to out: inout JSONWriter) {
    out.raw(#"{"name":"#)
    out.string(name)
    if let seat {
      out.raw(#","seat":"#)
      out.int(seat)
    }
    out.raw(#","spectator":"#)
    out.bool(spectator)
    out.raw(#","text":"#)
    out.string(text)
    out.raw(#","deal":"#)
    out.int(deal)
    out.raw(#","at":"#)
    out.double(at)
    out.byte(UInt8(ascii: "}"))
  }

  /// Appends the lines as a JSON array (``writeStored(to:)`` each).
  public static func writeStored(_ lines: [ChatLine], to out: inout JSONWriter) {
    out.byte(UInt8(ascii: "["))
    out.separated(lines) { $1.writeStored(to: &$0) }
    out.byte(UInt8(ascii: "]"))
  }
}
