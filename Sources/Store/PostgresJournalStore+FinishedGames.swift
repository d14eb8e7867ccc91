import Protocol

extension PostgresJournalStore {
  public func scores(_ query: ScoresQuery) throws -> ScoresPage {
    if query.mine && query.player == nil {
      return ScoresPage(list: query.list, total: 0, games: [])
    }
    let mine = query.mine ? query.player : nil
    let order = query.orderBy
    return try perform("cannot read the finished games from \(location)") { connection in
      // The game's games (the player's, with `mine`), by list; the latest one's list.
      var lists: [ScoreList: Int] = [:]
      for row in try run(
        """
        SELECT list, COUNT(*) FROM finished_game
        WHERE game = \(query.game) AND (\(mine)::TEXT IS NULL OR number IN
          (SELECT game_number FROM finished_player WHERE player = \(mine)))
        GROUP BY list
        """, on: connection)
      {
        let (id, count) = try row.decode((String, Int).self)
        if let list = ScoreList(id: id) { lists[list] = count }
      }
      let latest = try run(
        """
        SELECT list FROM finished_game
        WHERE game = \(query.game) AND (\(mine)::TEXT IS NULL OR number IN
          (SELECT game_number FROM finished_player WHERE player = \(mine)))
        ORDER BY ended_at DESC, number DESC LIMIT 1
        """, on: connection
      ).first?.decode(String.self)
      guard let list = query.list ?? latest.flatMap(ScoreList.init(id:)) else {
        return ScoresPage(lists: lists, total: 0, games: [])
      }
      func games(_ order: String, limit: Int, offset: Int = 0) throws -> [FinishedGame] {
        try run(
          """
          SELECT number, record FROM finished_game
          WHERE game = \(query.game) AND list = \(list.id) AND (\(mine)::TEXT IS NULL OR number IN
            (SELECT game_number FROM finished_player WHERE player = \(mine)))
          ORDER BY \(unescaped: order) LIMIT \(limit) OFFSET \(offset)
          """, on: connection
        ).map { row in try kept(row) }
      }
      func rated(_ games: [FinishedGame]) throws -> [FinishedGame] {
        try withRatings(games, on: connection)
      }
      return ScoresPage(
        list: list, lists: lists, total: lists[list] ?? 0,
        games: try rated(
          games(order, limit: query.pageSize, offset: query.page * query.pageSize)),
        best: try rated(games("score DESC, ended_at ASC, number ASC", limit: 1)).first,
        shortest: try rated(games("seconds ASC, ended_at ASC, number ASC", limit: 1)).first)
    }
  }

  public func daily(game: String, day: String) throws -> [FinishedGame] {
    try perform("cannot read the daily results from \(location)") { connection in
      try run(
        "SELECT number, record FROM finished_game WHERE game = \(game) AND daily = \(day)",
        on: connection
      ).map { row in try kept(row) }
    }
  }

  public func finishedGame(id: String) throws -> FinishedGame? {
    guard let number = FinishedGame.number(ofID: id) else { return nil }
    return try perform("cannot read the finished games from \(location)") { connection in
      try withRatings(
        run("SELECT number, record FROM finished_game WHERE number = \(number)", on: connection)
          .map { row in try kept(row) }, on: connection
      ).first
    }
  }

  public func removeFinishedGames(endedBefore cutoff: Double, limit: Int) throws -> Int {
    // One statement, so one short transaction, on the writer's connection as lease renewals
    // are: a journal write queued behind it waits for one batch at most.
    try perform("cannot remove finished games from \(location)") { connection in
      try run(
        """
        WITH old AS (
          SELECT number FROM finished_game WHERE ended_at < \(cutoff)
          ORDER BY ended_at LIMIT \(max(0, limit))),
        players AS (
          DELETE FROM finished_player WHERE game_number IN (SELECT number FROM old)),
        changes AS (
          DELETE FROM rating_change WHERE game_number IN (SELECT number FROM old))
        DELETE FROM finished_game WHERE number IN (SELECT number FROM old) RETURNING number
        """, on: connection
      ).reduce(0) { count, _ in count + 1 }
    }
  }

  /// A kept game from its row (number, record).
  private func kept(_ row: PostgresRow) throws -> FinishedGame {
    let (number, record) = try row.decode((Int, String).self)
    return try FinishedGame.kept(number: number, record: record, decoder: decoder)
  }
}
