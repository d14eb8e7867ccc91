import Protocol

/// Chat at a table: the lines kept with it.
extension TableState {
  /// `name` at `seat` (nil: a spectator) says `text` at `now`: the line as kept, stamped with
  /// the deal and how far into its play. The table keeps its last ``chatCap`` lines, in its
  /// journal record too (written before the line is shown), and a game that ends keeps those
  /// said during it.
  public mutating func say(_ text: String, name: String, seat: Int?, now: Double) -> ChatLine {
    let playing = phase == .playing || phase == .finished
    let line = ChatLine(
      name: name, seat: seat, spectator: seat == nil, text: text, deal: deal,
      at: playing ? max(0, now - playStartedAt) : 0)
    chat.append(line)
    if chat.count > Self.chatCap { chat.removeFirst(chat.count - Self.chatCap) }
    journal.tableChanged()
    return line
  }
}
