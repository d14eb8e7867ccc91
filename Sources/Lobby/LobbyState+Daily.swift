import Model
import Protocol

/// The daily puzzle: the day's deal of a game for everyone, one attempt each.
extension LobbyState {
  /// `session` plays today's daily puzzle of `game`: a solo table dealt from the day's seed
  /// (``DailyDeal``), with the game's solo settings. A session or player that started it today
  /// on this node is refused (`alreadyPlayed`): one attempt each. The game it ends is kept as
  /// their result (``FinishedGame/dailySource(day:game:who:)``): a store keeps the first.
  mutating func playDaily(
    _ game: String, _ session: SessionRegistry.Session, replyTo: MessageID?,
    _ connection: ConnectionID, now: Double
  ) {
    guard checkGame(game, replyTo: replyTo, connection),
      checkRecordsKept(replyTo, connection),
      let setup = checkSetup(game, seats: 1, TableOptions(), replyTo: replyTo, connection),
      checkCanOpen(session, replyTo: replyTo, connection)
    else { return }
    let day = entropy.today()
    let source = FinishedGame.dailySource(
      day: day, game: game, who: session.player ?? session.token)
    guard !dailyStarted.contains(source) else {
      reply(
        ProtocolError(
          .alreadyPlayed,
          "You have played today's daily puzzle; a new one is dealt at midnight UTC.",
          replyTo: replyTo), to: connection)
      return
    }
    // Only today's attempts matter: yesterday's go when the day turns.
    if day != dailyStartedDay {
      dailyStarted.removeAll()
      dailyStartedDay = day
    }
    if dailyStarted.count >= configuration.dailyAttemptsKept { dailyStarted.removeAll() }
    dailyStarted.insert(source)
    leaveTable(session, now: now)
    let id = openTable(
      setup, isPrivate: true, creator: session.token, solo: true, name: session.name,
      player: session.player, seed: DailyDeal.seed(game: game, day: day), daily: day, now: now)
    enterSolo(session, connection, at: id, replyTo: replyTo, now: now)
  }
}
