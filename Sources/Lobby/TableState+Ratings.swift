import Model
import Protocol

/// Ratings at the table: whether its games count (``rated``), and the players' ratings beside
/// their names, as the lobby tells them (``rate(_:)``).
extension TableState {
  /// Whether the games at this table count for ratings: a public table of two seats or more
  /// (quick match's tables, and public ones opened with `createTable`), not a daily puzzle.
  /// Solo and private tables, and tables where computers sit, do not count.
  public var rated: Bool {
    (!isPrivate || sprint != nil) && daily == nil && game.settings.seats >= 2 && !hasBots
  }

  public var seatedPlayers: [String] { seats.compactMap { $0?.player } }

  /// The rating shown at `seat`, if any is known.
  func shownRating(at seat: Int) -> PlayerRating? {
    guard seats.indices.contains(seat), let player = seats[seat]?.player else { return nil }
    return knownRatings[player]
  }

  public mutating func rate(_ known: [String: PlayerRating]) -> Frame? {
    knownRatings.merge(known) { _, new in new }
    // Only the people seated, and those about to sit (just told): at most a table's worth.
    let keep = Set(seatedPlayers).union(known.keys)
    knownRatings = knownRatings.filter { keep.contains($0.key) }
    var now: [Int: PlayerRating] = [:]
    for seat in seats.indices { now[seat] = shownRating(at: seat) }
    guard now != shownRatings else { return nil }
    shownRatings = now
    return Frame(ServerMessage.seatRatings(tableID: id, now.sorted { $0.key < $1.key }))
  }

  public mutating func takeRatedPlayers() -> [String]? {
    defer { ratedAtEnd = nil }
    return ratedAtEnd
  }
}
