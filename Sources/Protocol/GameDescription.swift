/// A game as the server describes it in `welcome`'s `games`: everything a client shows about
/// the game — its names, its rule in words, what a match is called and how big it is, how the
/// board starts and grows, what it offers (hints, a chain), how it is played (face down, in
/// turns), the settings a table takes and the sentences about its matches — so that a client
/// keeps no rule of its own and draws a game it has never heard of from this alone.
public struct GameDescription: Hashable, Sendable {
  /// The wire name (`table.game`, `playSolo`'s `game`).
  public var name: String
  /// The name for people: "Set-Chain".
  public var title: String
  /// The rule in a sentence or two.
  public var rules: String
  /// What a match is called.
  public var match: MatchWords
  /// Cards in a match at a table that keeps the defaults.
  public var matchSize: Int
  /// Cards dealt at first at a table that keeps the defaults.
  public var boardSize: Int
  /// Cards dealt at a time while the board holds no match (0: the board never grows).
  public var growth: Int
  /// Whether a solo player may ask for a hint (`hint`).
  public var hints: Bool
  /// Whether matches chain (the previous match shows beside the board: `table.chain`).
  public var chain: Bool
  /// Whether cards are dealt face down (named by slot).
  public var faceDown: Bool
  /// Whether seats take turns.
  public var turnBased: Bool
  /// Whether computer players play it (`playBot`).
  public var computers: Bool
  /// The settings `createTable` and `playSolo` take, in the order a form shows them.
  public var settings: [SettingDescription]
  /// The sentences about its matches.
  public var texts: GameTexts

  /// A description; every field as documented.
  public init(
    name: String, title: String, rules: String, match: MatchWords, matchSize: Int,
    boardSize: Int, growth: Int, hints: Bool, chain: Bool, faceDown: Bool, turnBased: Bool,
    computers: Bool, settings: [SettingDescription], texts: GameTexts
  ) {
    self.name = name
    self.title = title
    self.rules = rules
    self.match = match
    self.matchSize = matchSize
    self.boardSize = boardSize
    self.growth = growth
    self.hints = hints
    self.chain = chain
    self.faceDown = faceDown
    self.turnBased = turnBased
    self.computers = computers
    self.settings = settings
    self.texts = texts
  }

  /// The setting named `name`, if the game takes it.
  public func setting(_ name: String) -> SettingDescription? {
    settings.first { $0.name == name }
  }

  /// As `welcome` sends it (`docs/PROTOCOL.md`, "The games in `welcome`").
  public var json: JSONValue {
    .object([
      ("name", .string(name)), ("title", .string(title)), ("rules", .string(rules)),
      ("match", match.json), ("matchSize", .int(matchSize)),
      ("board", .object([("base", .int(boardSize)), ("step", .int(growth))])),
      ("hints", .bool(hints)), ("chain", .bool(chain)), ("faceDown", .bool(faceDown)),
      ("turnBased", .bool(turnBased)), ("computers", .bool(computers)),
      ("settings", .array(settings.map(\.json))),
      ("texts", texts.json),
    ])
  }
}
