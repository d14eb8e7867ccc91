import Foundation
import Lobby
import Protocol
import Store

/// A store whose writes wait at a gate until the test opens it, and can be made to fail.
final class GatedStore: JournalStore, @unchecked Sendable {
  let inner = MemoryJournalStore()
  private let lock = NSCondition()
  private var open = true
  private var failing = false
  private(set) var waiting = 0
  private var written = 0
  private var upkept = 0
  private var upkeepAtTheGate = false

  /// Batches written.
  var writes: Int {
    lock.lock()
    defer { lock.unlock() }
    return written
  }

  /// Upkeeps run.
  var upkeeps: Int {
    lock.lock()
    defer { lock.unlock() }
    return upkept
  }

  func close(gate: Bool) {
    lock.lock()
    open = !gate
    lock.broadcast()
    lock.unlock()
  }

  func fail(_ fail: Bool) {
    lock.lock()
    failing = fail
    lock.unlock()
  }

  /// Waits (up to 10 s) until a write is held at the gate.
  func waitForAWriteAtTheGate() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    let deadline = Date(timeIntervalSinceNow: 10)
    while waiting == 0 {
      if !lock.wait(until: deadline) { return false }
    }
    return true
  }

  func load() throws -> JournalContents { try inner.load() }
  func removeFinishedGames(endedBefore cutoff: Double, limit: Int) throws -> Int {
    try inner.removeFinishedGames(endedBefore: cutoff, limit: limit)
  }

  func write(_ entries: [JournalEntry]) throws {
    lock.lock()
    waiting += 1
    lock.broadcast()
    while !open { lock.wait() }
    waiting -= 1
    let fails = failing
    lock.unlock()
    if fails { throw StoreError("the disk is gone") }
    try inner.write(entries)
    lock.lock()
    written += 1
    lock.unlock()
  }

  /// Makes the upkeep after each write wait (a checkpoint that hangs) until called with false.
  func gateUpkeep(_ gated: Bool) {
    lock.lock()
    upkeepAtTheGate = gated
    lock.broadcast()
    lock.unlock()
  }

  func upkeep() throws -> JournalUpkeep {
    lock.lock()
    defer { lock.unlock() }
    upkept += 1
    if upkeepAtTheGate {
      waiting += 1
      lock.broadcast()
      while upkeepAtTheGate { lock.wait() }
      waiting -= 1
    }
    return JournalUpkeep()
  }

  func scores(_ query: ScoresQuery) throws -> ScoresPage { try inner.scores(query) }
  func finishedGame(id: String) throws -> FinishedGame? { try inner.finishedGame(id: id) }
  func daily(game: String, day: String) throws -> [FinishedGame] {
    try inner.daily(game: game, day: day)
  }

  func ratings(of players: [String]) throws -> [PlayerRating] {
    try inner.ratings(of: players)
  }

  func ratingHistory(player: String, game: String) throws -> RatingHistory {
    try inner.ratingHistory(player: player, game: game)
  }
}
