import Protocol

/// An arena (issue 33, part 2): a timed event where everyone plays many short games of one game
/// and a live table of standings decides. A pure value, driven by its events with `now` passed
/// in: people join and leave, the clock pairs the free ones (``pair(now:)``) and the games'
/// results come back (``record(_:now:)``); what it decides it returns. Tables, sockets and the
/// journal are its shell's.
public struct Arena: Hashable, Sendable, Codable {
  /// Where the arena is in its life.
  public enum Phase: String, Hashable, Sendable, Codable {
    case upcoming, running, finished
  }

  /// Why a request about the arena is refused (each has an error code on the wire).
  public enum Refusal: Hashable, Sendable, Error {
    /// The player is in the arena already.
    case alreadyJoined
    /// The arena is over.
    case finished
    /// The player is not in the arena.
    case notJoined
  }

  /// One player of the arena, in or out of a game, and how they stand.
  public struct Entrant: Hashable, Sendable, Codable {
    /// Who (the hash of their player token, or their session's).
    public var player: String
    /// The name they play under.
    public var name: String
    /// The session they play with now (by the hash of its token): where their games go.
    public var session = ""
    /// Their rating at the arena's game when they joined (pairing's second key).
    public var rating: Double
    /// Their number in the arena (1 for the first to join): how the standings name them.
    public var number = 0
    /// Arena points.
    public var points = 0
    /// Games won in a row (two or more: the next win counts double).
    public var streak = 0
    /// Games played, won, drawn.
    public var played = 0
    public var won = 0
    public var drawn = 0
    /// The table of the game they play now, if any.
    public var table: String?
    /// Since when they have been free to play (nil: in a game, or gone).
    public var freeSince: Double?
    /// Whether they left the arena (they keep their place in the standings).
    public var left = false
    /// The players of their last game (not paired with them again at once when another
    /// pairing is there to be made).
    public var lastOpponents: Set<String> = []
  }

  /// The arena's id.
  public let id: String
  /// The game played.
  public let game: String
  /// What players call it ("Set arena 12:00").
  public let name: String
  /// Its invite code; a private arena is found only by it (public ones have one too).
  public let code: String
  /// Whether it is left out of the list of arenas (found by its code).
  public let isPrivate: Bool
  /// The session (by the hash of its token) that created it, or "schedule".
  public let creator: String
  /// How each of its games ends (its ``ArenaSprint/arena`` and name are this arena's).
  public let sprint: ArenaSprint
  /// Seats at each of its games (2 by default).
  public let seats: Int
  /// When it starts and ends, on the lobby's clock.
  public let starts: Double
  public let ends: Double
  /// Everyone who joined, by player.
  public internal(set) var entrants: [String: Entrant] = [:]
  /// The games being played, by table: their players.
  public internal(set) var games: [String: [String]] = [:]
  /// Whether it is over and its final standings are kept (``close()``).
  public internal(set) var closed = false

  /// Seconds a free player waits for the pairing pass (which pairs every free player at once):
  /// short enough that a player is paired within 3 s when someone is free to play them.
  public static let pairingWait: Double = 1

  /// An arena of `game` at tables of `seats`, from `starts` to `ends`.
  public init(
    id: String, game: String, seats: Int = 2, starts: Double, ends: Double, name: String = "",
    code: String = "", isPrivate: Bool = false, creator: String = "schedule", sets: Int = 5,
    sprintSeconds: Double = 180
  ) {
    precondition(seats >= 2 && ends > starts)
    self.id = id
    self.game = game
    self.name = name
    self.code = code
    self.isPrivate = isPrivate
    self.creator = creator
    self.sprint = ArenaSprint(arena: id, name: name, sets: sets, seconds: sprintSeconds)
    self.seats = seats
    self.starts = starts
    self.ends = ends
  }

  /// The phase at `now`: finished once it has ended and its last game too.
  public func phase(at now: Double) -> Phase {
    if now < starts { return .upcoming }
    if now < ends || !games.isEmpty { return .running }
    return .finished
  }

  /// `player` joins under `name` with `rating`: free to play from `now` (from the start when it
  /// has not begun). Someone who left comes back with their points.
  public mutating func join(
    player: String, name: String, rating: Double, session: String = "", now: Double
  ) -> Result<Void, Refusal> {
    guard now < ends else { return .failure(.finished) }
    if var back = entrants[player] {
      guard back.left else { return .failure(.alreadyJoined) }
      back.left = false
      back.name = name
      back.session = session
      back.freeSince = back.table == nil ? max(now, starts) : nil
      entrants[player] = back
      return .success(())
    }
    var entrant = Entrant(player: player, name: name, session: session, rating: rating)
    entrant.freeSince = max(now, starts)
    entrant.number = entrants.count + 1
    entrants[player] = entrant
    return .success(())
  }

  /// `player`, in the arena, plays on with session `session` from `now`: free to play unless
  /// in a game.
  public mutating func reattach(_ player: String, session: String, now: Double) {
    guard var entrant = entrants[player], !entrant.left else { return }
    entrant.session = session
    if entrant.table == nil { entrant.freeSince = max(now, starts) }
    entrants[player] = entrant
  }

  /// `player` leaves: no more games; a game they are playing is lost (``record(_:now:)`` is told
  /// by the table, which plays on without them). They stay in the standings.
  public mutating func leave(player: String) -> Result<Void, Refusal> {
    guard var entrant = entrants[player], !entrant.left else { return .failure(.notJoined) }
    entrant.left = true
    entrant.freeSince = nil
    entrants[player] = entrant
    return .success(())
  }

  /// The arena is over: its standings are final.
  public mutating func close() { closed = true }

  /// Whether `player` is in the arena (joined and not gone).
  public func isIn(_ player: String) -> Bool { entrants[player].map { !$0.left } ?? false }
}
