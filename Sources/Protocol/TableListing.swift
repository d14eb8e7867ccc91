/// One row of the lobby's table list.
public struct TableListing: Hashable, Sendable {
  /// One seated player as the list shows them.
  public struct Player: Hashable, Sendable, Codable {
    /// The name (empty when they gave none).
    public var name: String
    /// Whether the seat is held for a player who left (reconnecting).
    public var away: Bool
    /// Their rating at the table's game (rounded), when known; nil from a node before ratings.
    public var rating: Int?
    /// Whether that rating is provisional.
    public var provisional: Bool?

    /// A seated player.
    public init(name: String, away: Bool = false, rating: PlayerRating? = nil) {
      self.name = name
      self.away = away
      self.rating = rating.map { Int($0.rating.rounded()) }
      self.provisional = rating?.isProvisional
    }

    /// The player on the wire.
    var json: JSONValue {
      var members: [(String, JSONValue)] = [("name", .string(name))]
      if away { members.append(("away", .bool(true))) }
      if let rating { members.append(("rating", .int(rating))) }
      if let provisional { members.append(("provisional", .bool(provisional))) }
      return .object(members)
    }
  }

  /// The table's public id.
  public var id: String
  /// The game's wire name.
  public var game: String
  /// Seats in all.
  public var seats: Int
  /// Seats taken.
  public var seated: Int
  /// How many are watching.
  public var spectators: Int
  /// The phase.
  public var phase: TablePhase
  /// The node of the cluster that holds the table; nil for a server on its own.
  public var node: String?
  /// Who sits there, in seat order.
  public var players: [Player] = []
  /// The table's settings, as its snapshot shows them (nil: not known, from an older node).
  public var settings: JSONValue?
  /// Seconds a turn may last (turn-based games with a limit).
  public var turnSeconds: Int?

  /// Creates a listing.
  public init(
    id: String, game: String, seats: Int, seated: Int, spectators: Int, phase: TablePhase,
    node: String? = nil, players: [Player] = [], settings: JSONValue? = nil,
    turnSeconds: Int? = nil
  ) {
    self.id = id
    self.game = game
    self.seats = seats
    self.seated = seated
    self.spectators = spectators
    self.phase = phase
    self.node = node
    self.players = players
    self.settings = settings
    self.turnSeconds = turnSeconds
  }

  /// Whether a seat is held for someone who left.
  public var hasAway: Bool { players.contains(where: \.away) }

  /// The listing on the wire.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [
      ("id", .string(id)), ("game", .string(game)), ("seats", .int(seats)),
      ("seated", .int(seated)), ("spectators", .int(spectators)),
      ("phase", .string(phase.rawValue)),
    ]
    if let node { members.append(("node", .string(node))) }
    members.append(
      (
        "players",
        .array(players.map(\.json))
      ))
    if let settings { members.append(("settings", settings)) }
    if let turnSeconds { members.append(("turnSeconds", .int(turnSeconds))) }
    return .object(members)
  }
}
