import Foundation
import Lobby
import Protocol

extension JournalStore {
  /// The message that answers `request` from this store: the page of high scores or the game
  /// with its replay, or the error that says why not. A store that fails is reported to
  /// `failed` (for the operator) and answered with `unavailable`.
  public func answer(_ request: RecordRequest, failed: (String) -> Void = { _ in }) -> Frame {
    var replays = ReplayCache(capacity: 0)
    return answer(request, replays: &replays, failed: failed)
  }

  /// ``answer(_:failed:)``, taking a game's replay from `replays` when it is there (no read
  /// of the store, no replay) and keeping there each replay it makes.
  public func answer(
    _ request: RecordRequest, replays: inout ReplayCache, failed: (String) -> Void = { _ in }
  ) -> Frame {
    let replyTo = request.replyTo
    do {
      switch request.kind {
      case .scores(let query):
        return Frame(ServerMessage.scores(try scores(query), query: query, replyTo: replyTo))
      case .ratingHistory(let player, let game):
        return Frame(
          ServerMessage.ratings(
            try ratingHistory(player: player, game: game), game: game, replyTo: replyTo))
      case .ratings:
        // Told to the lobby (``RecordReader``), never answered to a connection.
        return Frame(
          ServerMessage.error(
            ProtocolError(.unavailable, "Ratings are told to the lobby.", replyTo: replyTo)))
      case .daily(let game, let day, let who, let started):
        let board = DailyBoard(game: game, day: day, games: try daily(game: game, day: day))
        return Frame(ServerMessage.daily(board, who: who, started: started, replyTo: replyTo))
      case .record(let id):
        if let kept = replays.replay(id: id) { return kept.answer(replyTo: replyTo) }
        guard let game = try finishedGame(id: id) else {
          return Frame(
            ServerMessage.error(
              ProtocolError(.unknownRecord, "There is no finished game \(id).", replyTo: replyTo)))
        }
        let tooLong = ProtocolError(
          .unavailable,
          "Game \(id) is too long to replay here (\(game.moves.count) moves).", replyTo: replyTo)
        guard game.moves.count <= FinishedGameReplay.mostMoves else {
          return Frame(ServerMessage.error(tooLong))
        }
        guard let replay = FinishedGameReplay.replay(game) else {
          failed("finished game \(id) does not replay")
          return Frame(
            ServerMessage.error(
              ProtocolError(.unavailable, "Game \(id) cannot be replayed.", replyTo: replyTo)))
        }
        guard replay.size <= FinishedGameReplay.mostBytes else {
          return Frame(ServerMessage.error(tooLong))
        }
        // A daily puzzle's game compares with the day's others, who may still be playing: its
        // answer is made afresh each time (one player's game: small), never kept.
        if let (day, who) = game.dailyDayAndWho {
          return try comparedWithTheDay(replay, day: day, who: who).answer(replyTo: replyTo)
        }
        // Under the game's own id (a store may read "g007" as g7): kept once.
        replays.keep(replay, id: game.id)
        return replay.answer(replyTo: replyTo)
      }
    } catch {
      failed("records cannot be read: \(error)")
      return Frame(
        ServerMessage.error(
          ProtocolError(
            .unavailable, "The records cannot be read right now; try again in a moment.",
            replyTo: replyTo)))
    }
  }
}

extension ScoresQuery {
  /// The SQL `ORDER BY` terms of the query's order over `finished_game` (columns `ended_at`,
  /// `score`, `seconds`, `number`), ties as ``ScoresPage/select(_:from:)`` breaks them: the
  /// later game first.
  var orderBy: String {
    let direction = descending ? "DESC" : "ASC"
    switch sort {
    case .date: return "ended_at \(direction), number DESC"
    case .score: return "score \(direction), ended_at DESC, number DESC"
    case .duration: return "seconds \(direction), ended_at DESC, number DESC"
    }
  }
}

extension FinishedGame {
  /// A game as a database store reads it back: its record (kept without its id), with the id
  /// its number gives it.
  static func kept(number: Int, record: String, decoder: JSONDecoder) throws -> FinishedGame {
    var game = try decoder.decode(FinishedGame.self, from: Data(record.utf8))
    game.id = id(number: number)
    return game
  }
}

extension JournalStore {
  /// A daily puzzle's `replay` with its look back's `daily` part: how its player (`who`)
  /// compares with everyone's result of `day` (``DailyComparison``).
  func comparedWithTheDay(_ replay: RecordReplay, day: String, who: String) throws -> RecordReplay {
    let game = replay.game
    let board = DailyBoard(game: game.game, day: day, games: try daily(game: game.game, day: day))
    guard replay.lookBack != nil, let comparison = DailyComparison(board: board, who: who)
    else { return replay }
    return RecordReplay(
      game: game, table: replay.table, diffs: replay.diffs, lookBack: replay.lookBack,
      daily: comparison.json(day: day))
  }
}

extension FinishedGame {
  /// The game with each rated player's change (``FinishedPlayer/rating``) from `changes`: the
  /// `rating_change` rows read for a page of games, by game number, then by player.
  func withRatingChanges(_ changes: [Int: [String: RatingChange]]) -> FinishedGame {
    guard let number = FinishedGame.number(ofID: id), let rated = changes[number] else {
      return self
    }
    var game = self
    for i in game.players.indices {
      game.players[i].rating = game.players[i].player.flatMap { rated[$0] }
    }
    return game
  }
}
