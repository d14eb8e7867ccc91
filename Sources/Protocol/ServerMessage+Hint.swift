/// The answers to `hint` and `countMatches` (`docs/PROTOCOL.md`).
extension ServerMessage {
  /// Answers `hint`: the handles of a match a player may claim now (a chain set's chain card
  /// first), or none when the board holds none.
  public static func hint(replyTo: MessageID?, cards: [Int]) -> JSONValue {
    object("hint", replyTo: replyTo, [("cards", .array(cards.map { .int($0) }))])
  }

  /// Answers `countMatches`: how many matches a player may claim now.
  public static func matchCount(replyTo: MessageID?, count: Int) -> JSONValue {
    object("matchCount", replyTo: replyTo, [("count", .int(count))])
  }
}
