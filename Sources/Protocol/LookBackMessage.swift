import Model

extension ServerMessage {
  /// A game's look back as a `record` answer carries it (PROTOCOL.md, "The look back"): every
  /// match made (`found`: seat, cards, `at` and `seconds` it had been there), the matches left
  /// untaken (`missed`: cards, `from`, `until`, `seconds`), and each of `seats` seats' reaction
  /// times (`players`: seat, `found`, `fastest`, `mean`), times in seconds to one decimal.
  /// `boardSeen` is false for a face-down game: a match's time is then the time since the
  /// previous one, and nothing is missed.
  public static func lookBack(_ lookBack: GameLookBack, seats: Int) -> JSONValue {
    .object([
      ("boardSeen", .bool(lookBack.boardSeen)),
      (
        "found",
        .array(
          lookBack.found.map {
            .object([
              ("seat", .int($0.seat)), ("cards", .array($0.cards.map { .int($0) })),
              ("at", .double(tenths($0.at))), ("seconds", .double(tenths($0.seconds))),
            ])
          })
      ),
      (
        "missed",
        .array(
          lookBack.missed.map {
            .object([
              ("cards", .array($0.cards.map { .int($0) })), ("from", .double(tenths($0.from))),
              ("until", .double(tenths($0.until))), ("seconds", .double(tenths($0.seconds))),
            ])
          })
      ),
      (
        "players",
        .array(
          lookBack.reactions(seats: seats).map { seat in
            .object([
              ("seat", .int(seat.seat)), ("found", .int(seat.seconds.count)),
              ("fastest", seat.fastest.map { .double(tenths($0)) } ?? .null),
              ("mean", seat.mean.map { .double(tenths($0)) } ?? .null),
            ])
          })
      ),
    ])
  }
}
