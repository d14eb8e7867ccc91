import Protocol

extension JournalEntry {
  /// A table id's number (`t12` → 12), or 0.
  public static func number(of id: String) -> Int {
    Int(id.drop { !$0.isNumber }) ?? 0
  }

  /// Whether this entry is about one of `tables`: its row, a move, its close, a game it
  /// finished (a session is about none).
  public func isAbout(_ tables: Set<String>) -> Bool {
    switch self {
    case .table(let record): tables.contains(record.id)
    case .move(let move): tables.contains(move.table)
    case .tableClosed(let id): tables.contains(id)
    case .finishedInJournal(_, let table, _): tables.contains(table)
    case .finished(let game): tables.contains(String(game.source.prefix { $0 != "#" }))
    case .session, .sessionEnded, .sessionReleased, .arena: false
    }
  }
}

extension FinishedGame {
  /// The id of the game a store keeps as number `number` (`g12`).
  public static func id(number: Int) -> String { "g\(number)" }

  /// The number in an id made by ``id(number:)``, or nil for any other string.
  public static func number(ofID id: String) -> Int? {
    guard id.hasPrefix("g") else { return nil }
    return Int(id.dropFirst())
  }

  /// The game with `moves` as its moves: a deal's moves as the journal holds them (in any
  /// order, each index once), put in order with their times
  /// (``JournalEntry/finishedInJournal(_:table:deal:)``).
  public func withMoves(_ moves: some Sequence<JournalMove>) -> FinishedGame {
    var game = self
    game.moves = moves.sorted { $0.index < $1.index }.map { FinishedMove($0.move, at: $0.at) }
    return game
  }
}
