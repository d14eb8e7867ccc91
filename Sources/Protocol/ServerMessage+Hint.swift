/// The answer to `hint` (`docs/PROTOCOL.md`).
extension ServerMessage {
  /// Answers `hint`: the handles of a match a player may claim now (a chain set's chain card
  /// first), or none when the board holds none.
  public static func hint(replyTo: MessageID?, cards: [Int]) -> JSONValue {
    object("hint", replyTo: replyTo, [("cards", .array(cards.map { .int($0) }))])
  }
}
