import Foundation
import Lobby
import Model
import Protocol
import TestSupport
import Testing

@testable import Store

/// What a finished game costs on disk: seeded bots play `games` games of each kind at journaled
/// tables into a fresh SQLite journal, as the server would write them (moves, table records,
/// the finished game, the table's close), and the figures are printed for docs/BENCHMARKS.md.
/// Then the time one retention batch takes. In every run a few games of each kind, held to the
/// bound README gives (64 KiB a game); with `MATCHISMO_MEASURE=1`, 50 of each and the figures
/// printed (see docs/BENCHMARKS.md for the command).
@Suite struct FinishedGameBytesTests {
  static let measuring = ProcessInfo.processInfo.environment["MATCHISMO_MEASURE"] != nil
  static let games =
    Int(ProcessInfo.processInfo.environment["MATCHISMO_MEASURE_GAMES"] ?? "")
    ?? (measuring ? 50 : 3)
  /// The most a finished game of these kinds may cost on disk, in bytes.
  static let boundPerGame = 64 << 10

  /// A player that mostly claims a match it sees (it peeks at the game: face-down cards too)
  /// and one time in five chooses a card at random, as people miss.
  struct Bot {
    var random: SeededGenerator

    mutating func move<Card: WireCard>(in game: CardMatchingGame<Card>, seat: Int) -> Move {
      let seat = game.turn ?? seat
      let selected = game.players[seat].selection
      let open = game.playableCards.filter { !selected.contains($0.id) }
      let needed = game.settings.matchSize - selected.count
      if random.below(5) > 0,
        let group = Self.match(open, needed, with: selected.map { Card.fullDeck[$0] })
      {
        return .choose(seat: seat, card: game.handle(of: group[0]))
      }
      if !selected.isEmpty && !game.settings.turnBased && random.below(2) == 0 {
        return .choose(seat: seat, card: game.handle(of: Card.fullDeck[selected[0]]))
      }
      let card = open.isEmpty ? Card.fullDeck[selected[0]] : open[random.below(open.count)]
      return .choose(seat: seat, card: game.handle(of: card))
    }

    /// `needed` cards of `cards` that match with `chosen`, if any.
    static func match<Card: MatchableCard>(_ cards: [Card], _ needed: Int, with chosen: [Card])
      -> [Card]?
    {
      guard needed > 0 else { return nil }
      func search(_ start: Int, _ picked: [Card]) -> [Card]? {
        if picked.count == needed {
          return Card.matchScore(chosen + picked) > 0 ? picked : nil
        }
        for index in start..<cards.count {
          if let found = search(index + 1, picked + [cards[index]]) { return found }
        }
        return nil
      }
      return search(0, [])
    }
  }

  /// Plays `count` games of `settings` with `Card`s into `store`, each at a table of its own
  /// that closes when its game ends; returns the moves played.
  static func play<Card: WireCard>(
    _: Card.Type, _ settings: GameSettings, count: Int, into store: SQLiteJournalStore
  ) throws -> Int {
    var moves = 0
    var rules = TableRules()
    rules.journals = true
    for number in 1...count {
      let names = (0..<settings.seats).map { "Player \($0 + 1)" }
      var table = TableState<Card>(
        id: "t\(number)", settings: settings, seed: UInt64(number) &* 0x9E37_79B9,
        names: names, tokens: names.map { "session-\($0)" },
        players: names.map { TokenDigest.hex("player-\($0)-\(number)") }, rules: rules)
      var bot = Bot(random: SeededGenerator(seed: UInt64(number)))
      var pending: [JournalEntry] = []
      var now = 0.0
      var step = 0
      while !table.game.isOver && step < 20_000 {
        now += 1.7
        let move = bot.move(in: table.game, seat: step % settings.seats)
        _ = table.apply(move, replyTo: nil, now: now)
        step += 1
        pending += table.takeJournal(creator: "session-Player 1")
        // Batches of a few moves, as the writer gathers them under load.
        if pending.count >= 8 {
          try store.write(Self.stamped(pending))
          pending = []
        }
      }
      moves += step
      try store.write(
        Self.stamped(pending + table.takeJournal(creator: "") + [.tableClosed(table.id)]))
    }
    return moves
  }

  /// `entries` with their finished games stamped with the wall clock, as the writer does.
  static func stamped(_ entries: [JournalEntry]) -> [JournalEntry] {
    entries.map {
      guard case .finished(var game) = $0 else { return $0 }
      game.endedAt = Date().timeIntervalSince1970
      return .finished(game)
    }
  }

  /// The journal's file with everything written into it and unused pages dropped.
  static func compactedBytes(_ store: SQLiteJournalStore) throws -> Int {
    let queue = try SQLiteConnection(path: store.path)
    try queue.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try queue.execute("VACUUM")
    queue.close()
    let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
    return (attributes[.size] as? NSNumber)?.intValue ?? 0
  }

  /// A journal in a fresh folder, which `cleanUp` lists for removal.
  static func freshStore(_ cleanUp: inout [String]) throws -> SQLiteJournalStore {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("journal-bytes-\(UUID().uuidString)").path
    cleanUp.append(folder)
    return try SQLiteJournalStore(directory: folder)
  }

  @Test func bytesPerFinishedGame() throws {
    var folders: [String] = []
    defer { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }
    let kinds: [(String, (SQLiteJournalStore) throws -> Int)] = [
      ("Set, solo", { try Self.play(SetCard.self, .set(), count: Self.games, into: $0) }),
      (
        "Set, 4 players",
        { try Self.play(SetCard.self, .set(seats: 4), count: Self.games, into: $0) }
      ),
      (
        "Matchismo, solo",
        {
          try Self.play(PlayingCard.self, .matchismo(), count: Self.games, into: $0)
        }
      ),
      (
        "Concentration, 2 players",
        {
          try Self.play(EmojiCard.self, .concentration(seats: 2), count: Self.games, into: $0)
        }
      ),
    ]
    let empty = try Self.compactedBytes(try Self.freshStore(&folders))
    var lines = [
      "| Game | Games | Moves per game | Record (`length(record)`) | File per game |",
      "|---|---:|---:|---:|---:|",
    ]
    for (name, play) in kinds {
      let store = try Self.freshStore(&folders)
      let moves = try play(store)
      let (kept, record, tables) = try SQLiteConnection(path: store.path).transaction { db in
        (
          try db.value("SELECT COUNT(*) FROM finished_game") ?? 0,
          try db.value("SELECT AVG(length(record)) FROM finished_game") ?? 0.0,
          try db.value("SELECT COUNT(*) FROM game_table") ?? 0
        )
      }
      #expect(kept == Self.games, "every game kept")
      #expect(tables == 0, "closed tables leave no rows")
      let bytes = try Self.compactedBytes(store)
      #expect((bytes - empty) / max(1, kept) <= Self.boundPerGame, "\(name)")
      lines.append(
        "| \(name) | \(kept) | \(moves / max(1, kept)) | \(Int(record)) B | "
          + "\((bytes - empty) / max(1, kept)) B |")
    }
    lines.append("")
    lines.append("Empty journal: \(empty) B.")

    // Retention batches of 50 and 200 games, from 5,000 kept.
    let store = try Self.freshStore(&folders)
    _ = try Self.play(SetCard.self, .set(), count: 10, into: store)
    let model = try #require(try store.finishedGame(id: "g1"))
    for start in stride(from: 0, to: 5_000, by: 500) {
      try store.write(
        (start..<start + 500).map { index in
          var game = model
          game.source = "copy-\(index)"
          game.endedAt = Double(index)
          return .finished(game)
        })
    }
    for size in [50, 200] {
      var times: [Double] = []
      for _ in 0..<8 {
        let began = Date()
        #expect(try store.removeFinishedGames(endedBefore: 5_000, limit: size) == size)
        times.append(Date().timeIntervalSince(began) * 1000)
      }
      times.sort()
      lines.append(
        String(
          format:
            "Retention batch of %d games (from 5,000 Set games): median %.2f ms, worst %.2f ms.",
          size, times[times.count / 2], times.last ?? 0))
    }
    if Self.measuring { print(lines.joined(separator: "\n")) }
  }
}
