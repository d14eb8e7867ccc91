import Lobby
import Protocol

/// Where the journal is kept: the embedded SQLite file by default, PostgreSQL for operators who
/// run several nodes. Both keep the same records: a row per table (its latest ``TableRecord``),
/// a row per move of each table's current deal, a row per session (by token hash).
///
/// A store is used from one thread at a time (the journal writer's, or the start-up code's).
public protocol JournalStore: AnyObject, Sendable {
  /// Everything to rebuild at start: the open tables with their current deal's moves, the
  /// sessions, the highest table number used.
  func load() throws -> JournalContents
  /// Writes `entries`, in order, in one transaction: all of them or none. A
  /// ``JournalEntry/finished(_:)`` game gets its id (`g` and a number) here.
  func write(_ entries: [JournalEntry]) throws
  /// The page of finished games `query` asks for (as ``ScoresPage/select(_:from:)`` defines
  /// it). May be called from another thread than the writer's.
  func scores(_ query: ScoresQuery) throws -> ScoresPage
  /// The finished game with this id, or nil. May be called from another thread than the
  /// writer's.
  func finishedGame(id: String) throws -> FinishedGame?
}

/// How hard a write tries to survive.
public enum Durability: String, Sendable, CaseIterable {
  /// Against a crash of the process: a write has reached the operating system before any
  /// client sees what it records (SQLite: WAL with `synchronous=NORMAL`).
  case process
  /// Against a power loss: a write is on the disk (SQLite: `synchronous=FULL`, an fsync per
  /// commit).
  case full
}

/// A store failed; `message` says what, for the operator.
public struct StoreError: Error, CustomStringConvertible, Sendable {
  /// What went wrong.
  public let message: String

  /// An error saying `message`.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

extension JournalEntry {
  /// A table id's number (`t12` → 12), or 0.
  static func number(of id: String) -> Int {
    Int(id.drop { !$0.isNumber }) ?? 0
  }
}
