import Protocol

/// What a journal holds once entries are written to it, as a value: the bookkeeping the
/// database stores keep in their tables (each open table's row and its current deal's moves,
/// the sessions, the finished games, the numbers used). `MemoryJournalStore` keeps one behind a
/// lock; the lobby's fuzz target keeps one to start a lobby again from what it journaled.
public struct JournalImage: Sendable {
  /// Every open table's row, by id.
  private var tables: [String: TableRecord] = [:]
  /// Each table's moves, by deal and index (`deal * 1,000,000 + index`).
  private var moves: [String: [Int: JournalMove]] = [:]
  private var sessions: [String: SessionRecord] = [:]
  /// Every arena, by id.
  private var arenas: [String: Arena] = [:]
  /// The finished games kept, oldest first.
  public private(set) var finished: [FinishedGame] = []
  /// The highest number of a table whose row was deleted (numbers are never used again).
  private var highestClosed = 0
  /// Finished games kept so far, deleted ones included (numbers the next).
  private var finishedCount = 0
  /// Each player's rating per game, by ``ratingKey(player:game:)``; a kept game's players
  /// carry what it did to theirs (``FinishedPlayer/rating``).
  public private(set) var ratings: [String: PlayerRating] = [:]

  /// An empty journal.
  public init() {}

  /// Writes `entries`, in order, as a store's transaction does.
  public mutating func write(_ entries: [JournalEntry]) {
    for entry in entries { write(entry) }
  }

  /// Writes one entry.
  public mutating func write(_ entry: JournalEntry) {
    switch entry {
    case .table(let record):
      tables[record.id] = record
      moves[record.id] = moves[record.id]?.filter { $0.value.deal >= record.deal }
    case .move(let move):
      moves[move.table, default: [:]][move.deal * 1_000_000 + move.index] = move
    case .tableClosed(let id):
      tables[id] = nil
      moves[id] = nil
      highestClosed = max(highestClosed, JournalEntry.number(of: id))
    case .session(let session):
      sessions[session.token] = session
    case .sessionEnded(let token):
      sessions[token] = nil
    case .sessionReleased:
      // Nobody else shares this journal: the session stays as it is.
      break
    case .finished(let game):
      keep(game)
    case .finishedInJournal(let game, let table, let deal):
      keep(game.withMoves((moves[table] ?? [:]).values.filter { $0.deal == deal }))
    case .arena(let arena):
      arenas[arena.id] = arena
    }
  }

  /// What a store reads back at start: the open tables in number order, each with its current
  /// deal's moves in order, and the sessions.
  public var contents: JournalContents {
    var loaded = JournalContents()
    for record in tables.values.sorted(by: {
      JournalEntry.number(of: $0.id) < JournalEntry.number(of: $1.id)
    }) {
      let current = (moves[record.id] ?? [:]).values.filter { $0.deal == record.deal }
        .sorted { $0.index < $1.index }
      loaded.tables.append((record, current))
    }
    loaded.sessions = sessions.values.sorted { $0.token < $1.token }
    loaded.arenas = Arena.kept(Array(arenas.values))
    loaded.lastTableNumber = max(
      highestClosed, tables.keys.map { JournalEntry.number(of: $0) }.max() ?? 0)
    return loaded
  }

  /// How many table rows and move rows it holds.
  public var rowCounts: (tables: Int, moves: Int) {
    (tables.count, moves.values.reduce(0) { $0 + $1.count })
  }

  /// Deletes up to `limit` of the finished games that ended before `cutoff`, oldest first;
  /// returns how many.
  public mutating func removeFinishedGames(endedBefore cutoff: Double, limit: Int) -> Int {
    let old = finished.indices.filter { finished[$0].endedAt < cutoff }
      .sorted { finished[$0].endedAt < finished[$1].endedAt }.prefix(max(0, limit))
    let gone = Set(old)
    finished = finished.indices.filter { !gone.contains($0) }.map { finished[$0] }
    return gone.count
  }

  /// Keeps `game` under the next number, unless a game of its source is kept already.
  private mutating func keep(_ game: FinishedGame) {
    guard !finished.contains(where: { $0.source == game.source }) else { return }
    var game = game
    finishedCount += 1
    game.id = FinishedGame.id(number: finishedCount)
    var before: [String: PlayerRating] = [:]
    for row in game.ratedPlayers {
      before[row.player] = ratings[Self.ratingKey(player: row.player, game: game.game)]
    }
    for row in game.ratingChanges(before: before) {
      ratings[Self.ratingKey(player: row.player, game: game.game)] = PlayerRating(
        player: row.player, game: game.game, rating: row.change.after, games: row.change.games)
      for i in game.players.indices where game.players[i].player == row.player {
        game.players[i].rating = row.change
      }
    }
    finished.append(game)
  }

  /// The key of `player`'s rating at `game` in ``ratings``.
  public static func ratingKey(player: String, game: String) -> String { "\(player) \(game)" }
}
