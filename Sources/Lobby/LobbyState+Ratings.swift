import Model
import Protocol

/// Ratings beside names: read from the store (the only place they change, in the transaction
/// that keeps a rated game) when a person says hello and after each rated game, remembered
/// here, shown at their tables and in the lobby's list.
extension LobbyState {
  /// Asks the store for the ratings of the person whose session `connection` holds, when the
  /// server keeps records and they gave a player token.
  mutating func askRatings(of session: SessionRegistry.Session, for connection: ConnectionID) {
    guard configuration.journal, let player = session.player else { return }
    out.append(
      .query(
        RecordRequest(
          connection: connection, replyTo: nil, kind: .ratings(players: [player], table: nil))))
  }

  /// What the store said of `players`' ratings (`ratings`): remembered, then shown at `table`
  /// (nil: the table of `connection`'s session).
  mutating func heard(
    _ ratings: [PlayerRating], players: [String], connection: ConnectionID, table: String?,
    now: Double
  ) {
    for player in players {
      if ratingsKnown[player] == nil, ratingsKnown.count >= max(1, configuration.ratingsKept),
        let forgotten = ratingsKnown.keys.first
      {
        ratingsKnown[forgotten] = nil
      }
      var games: [String: PlayerRating] = [:]
      for rating in ratings where rating.player == player { games[rating.game] = rating }
      ratingsKnown[player] = games
    }
    guard let id = table ?? desk.session(for: connection)?.tableID else { return }
    showRatings(at: id, now: now)
    publishRow(of: id, now: now)
  }

  /// The ratings at `game` known of `players`: a person read from the store and never rated at
  /// it has the starting rating.
  func knownRatings(of players: [String], game: String) -> [String: PlayerRating] {
    var known: [String: PlayerRating] = [:]
    for player in players {
      guard let games = ratingsKnown[player] else { continue }
      known[player] =
        games[game]
        ?? PlayerRating(player: player, game: game, rating: Rating.initial, games: 0)
    }
    return known
  }

  /// Gives table `id` what is known of its players' ratings; its members hear of any change.
  /// Its row in the lobby shows them once the caller publishes it.
  mutating func showRatings(at id: String, now: Double) {
    guard let (players, game) = hosts.readTable(id, { ($0.seatedPlayers, $0.gameName) }) else {
      return
    }
    handle(.ratings(knownRatings(of: players, game: game)), at: id, now: now)
  }

  /// What is known of the ratings of table `id`'s players and of `newcomer`, about to sit:
  /// what the sit carries in (``TableHost/Event/sit(token:name:player:ratings:connection:replyTo:)``).
  func ratingsAtSit(_ id: String, newcomer: String) -> [String: PlayerRating] {
    guard let table = hosts[id]?.table else { return [:] }
    return knownRatings(of: table.seatedPlayers + [newcomer], game: table.gameName)
  }

  /// A `ratings` question: the asking person's rating at `game` and its history, from the
  /// store; without a player token they have none.
  mutating func ratings(
    _ game: String, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID
  ) {
    guard checkGame(game, replyTo: replyTo, connection), checkRecordsKept(replyTo, connection)
    else { return }
    guard let player = session.player else {
      send(
        ServerMessage.ratings(
          RatingHistory(rating: nil, entries: []), game: game, replyTo: replyTo),
        to: connection)
      return
    }
    out.append(
      .query(
        RecordRequest(
          connection: connection, replyTo: replyTo,
          kind: .ratingHistory(player: player, game: game))))
  }
}
