import Lobby
import Model
import Protocol

/// Where the journal is kept: the embedded SQLite file by default, PostgreSQL for operators who
/// run several nodes. Both keep the same records: a row per open table (its latest
/// ``TableRecord``; a closed table's row and moves are deleted), a row per move of each open
/// table's current deal, a row per session (by token hash), a row per finished game.
///
/// A store is used from one thread at a time (the journal writer's, or the start-up code's),
/// but for the calls that say they may come from another.
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
  /// Every daily puzzle result of `game` on `day` (`yyyy-mm-dd`): the games kept under the
  /// sources ``FinishedGame/dailySource(day:game:who:)`` names, in any order. May be called
  /// from another thread than the writer's.
  func daily(game: String, day: String) throws -> [FinishedGame]
  /// The ratings of `players` (hashes of player tokens) at every game they have one of. May be
  /// called from another thread than the writer's.
  func ratings(of players: [String]) throws -> [PlayerRating]
  /// `player`'s rating at `game` and their latest rated games of it, newest first. May be
  /// called from another thread than the writer's.
  func ratingHistory(player: String, game: String) throws -> RatingHistory
  /// Deletes at most `limit` of the finished games that ended before `cutoff` (seconds since
  /// 1970), oldest first, with their players' rows and rating changes (the ratings stay), in one short transaction; returns how many
  /// it deleted (fewer than `limit`: none older is left). Their ids are never given again. May
  /// be called from another thread than the writer's (``FinishedGameRetention``'s).
  func removeFinishedGames(endedBefore cutoff: Double, limit: Int) throws -> Int
  /// Lets go of what the store holds, at a clean shutdown once everything is written: its
  /// connection, and in a shared database the leases of its tables (``PostgresJournalStore``).
  func close()
  /// Upkeep that must run between two writes, never inside one or beside one: called by the
  /// writer on its thread after each write that succeeded, once the frames behind it are let
  /// go. SQLite checkpoints its write-ahead log here (``WALCheckpoints``).
  func upkeep() throws -> JournalUpkeep
}

extension JournalStore {
  /// Nothing to let go of.
  public func close() {}
  /// No upkeep.
  public func upkeep() throws -> JournalUpkeep { JournalUpkeep() }
}

/// What a store's ``JournalStore/upkeep()`` did.
public struct JournalUpkeep: Equatable, Sendable {
  /// Whether it checkpointed a log.
  public var checkpointed = false
  /// The length of the store's log after it, in bytes (SQLite's write-ahead log), or nil for a
  /// store with no log of its own.
  public var logBytes: Int?
  /// How many times so far the store's connection went to another server of its list (a
  /// database that failed over), or nil for a store with one place.
  public var serverSwitches: Int?

  /// An upkeep report.
  public init(checkpointed: Bool = false, logBytes: Int? = nil, serverSwitches: Int? = nil) {
    self.checkpointed = checkpointed
    self.logBytes = logBytes
    self.serverSwitches = serverSwitches
  }
}

/// How hard a write tries to survive.
public enum Durability: String, Sendable, CaseIterable {
  /// Against a crash of the process: a write has left the process before any client sees what
  /// it records. SQLite: WAL with `synchronous=NORMAL` (the write has reached the operating
  /// system). PostgreSQL: `synchronous_commit = off` (the database server has acknowledged the
  /// commit; it would lose the last moments of commits only if it crashed itself).
  case process
  /// Against a power loss: a write is on the disk. SQLite: `synchronous=FULL`, an fsync per
  /// commit. PostgreSQL: `synchronous_commit = on`, the commit flushed to the server's disk and,
  /// with a synchronous standby, to the standby's.
  case full
  /// PostgreSQL only, against the primary's death: `synchronous_commit = remote_write`, the
  /// commit flushed to the primary's disk and written to the synchronous standby's operating
  /// system (not yet its disk: lost only if the standby's machine also fails before it writes
  /// it out). On a server without a standby, the same as `full`.
  case replica
}

/// A store failed; `message` says what, for the operator.
public struct StoreError: Error, CustomStringConvertible, Sendable {
  /// What went wrong.
  public let message: String

  /// An error saying `message`.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

extension Move {
  /// The move as a database row keeps it: `kind` (0 a choice, 1 a pass, 2 a re-deal) and
  /// `card` (0 but for a choice); the seat is kept as it is.
  var row: (kind: Int, card: Int) {
    switch self {
    case .choose(_, let card): (0, card)
    case .pass: (1, 0)
    case .redeal: (2, 0)
    }
  }

  /// The move a row's `kind`, `seat` and `card` stand for.
  init(kind: Int, seat: Int, card: Int) {
    switch kind {
    case 1: self = .pass(seat: seat)
    case 2: self = .redeal(seat: seat)
    default: self = .choose(seat: seat, card: card)
    }
  }
}
