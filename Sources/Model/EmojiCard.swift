/// A card of Concentration: one emoji of a theme, in one of its two copies. Two cards match
/// when they show the same emoji.
///
/// The themes are data: each is a name and its emoji with a spoken name for each (what a screen
/// reader says for the card). A game uses one theme (``GameSettings/theme``) and as many of its
/// emoji as the board has pairs, picked by the deal's generator.
public struct EmojiCard: MatchableCard, CustomStringConvertible {
  /// A set of emoji to play with.
  public struct Theme: Hashable, Sendable {
    /// The theme's name, shown when a table is created.
    public let name: String
    /// Its emoji, each with the words a screen reader says for it.
    public let emoji: [(glyph: String, name: String)]

    public static func == (a: Theme, b: Theme) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
  }

  /// Every theme, in id order. Each has ``emojiPerTheme`` emoji.
  public static let themes: [Theme] = [
    Theme(
      name: "Animals",
      emoji: [
        ("🦊", "fox"), ("🐼", "panda"), ("🐸", "frog"), ("🦉", "owl"), ("🐢", "turtle"),
        ("🦒", "giraffe"), ("🐙", "octopus"), ("🦔", "hedgehog"), ("🐝", "bee"), ("🦩", "flamingo"),
      ]),
    Theme(
      name: "Food",
      emoji: [
        ("🍕", "pizza"), ("🍣", "sushi"), ("🥐", "croissant"), ("🌮", "taco"), ("🍩", "doughnut"),
        ("🥑", "avocado"), ("🍉", "watermelon"), ("🧀", "cheese"), ("🍔", "burger"),
        ("🥨", "pretzel"),
      ]),
    Theme(
      name: "Sports",
      emoji: [
        ("⚽", "football"), ("🏀", "basketball"), ("🎾", "tennis ball"), ("🏓", "table tennis"),
        ("🏈", "american football"), ("⛳", "golf flag"), ("🥊", "boxing glove"),
        ("🏒", "ice hockey stick"), ("🎳", "bowling"), ("🏐", "volleyball"),
      ]),
    Theme(
      name: "Travel",
      emoji: [
        ("🚀", "rocket"), ("🚲", "bicycle"), ("⛵", "sailboat"), ("🚂", "locomotive"),
        ("🚁", "helicopter"), ("🚗", "car"), ("🛶", "canoe"), ("🎈", "balloon"),
        ("🚠", "cable car"), ("🛴", "kick scooter"),
      ]),
    Theme(
      name: "Weather",
      emoji: [
        ("☀️", "sun"), ("🌧️", "rain cloud"), ("⛄", "snowman"), ("🌈", "rainbow"),
        ("⚡", "lightning"), ("🌪️", "tornado"), ("🌙", "crescent moon"), ("❄️", "snowflake"),
        ("🌊", "wave"), ("🔥", "fire"),
      ]),
    Theme(
      name: "Music",
      emoji: [
        ("🎸", "guitar"), ("🎹", "keyboard"), ("🥁", "drum"), ("🎺", "trumpet"),
        ("🎻", "violin"), ("🎷", "saxophone"), ("🪗", "accordion"), ("🎤", "microphone"),
        ("🎧", "headphones"), ("🪕", "banjo"),
      ]),
  ]

  /// Emoji in every theme.
  public static let emojiPerTheme = 10

  /// `2 × (emojiPerTheme × theme + emoji) + copy`.
  public let id: Int

  /// The `copy` (0 or 1) of emoji `emoji` of theme `theme`.
  public init(theme: Int, emoji: Int, copy: Int) {
    precondition(
      Self.themes.indices.contains(theme) && (0..<Self.emojiPerTheme).contains(emoji)
        && (0...1).contains(copy))
    id = 2 * (Self.emojiPerTheme * theme + emoji) + copy
  }

  /// The theme's index.
  public var theme: Int { id / (2 * Self.emojiPerTheme) }
  /// The emoji's index within its theme.
  public var emoji: Int { id / 2 % Self.emojiPerTheme }
  /// The emoji itself.
  public var glyph: String { Self.themes[theme].emoji[emoji].glyph }
  /// What a screen reader says for it.
  public var name: String { Self.themes[theme].emoji[emoji].name }

  public var description: String { glyph }

  /// Both copies of every emoji of every theme, in id order.
  public static let fullDeck: [EmojiCard] = themes.indices.flatMap { theme in
    (0..<emojiPerTheme).flatMap { emoji in
      (0...1).map { EmojiCard(theme: theme, emoji: emoji, copy: $0) }
    }
  }

  /// 1 for two copies of one emoji, otherwise 0.
  public static func matchScore(_ cards: [EmojiCard]) -> Int {
    cards.count == 2 && cards[0].id / 2 == cards[1].id / 2 && cards[0].id != cards[1].id ? 1 : 0
  }

  /// Both copies of `boardSize / 2` emoji of the settings' theme, picked by `generator`.
  public static func deck(for settings: GameSettings, using generator: inout SeededGenerator)
    -> [EmojiCard]
  {
    var picks = Array(0..<emojiPerTheme)
    generator.shuffle(&picks)
    return picks.prefix(settings.boardSize / 2).flatMap { emoji in
      (0...1).map { EmojiCard(theme: settings.theme, emoji: emoji, copy: $0) }
    }
  }

  public static func problem(with settings: GameSettings) -> String? {
    if !themes.indices.contains(settings.theme) { return "no such theme" }
    if settings.matchSize != 2 { return "pairs are two cards" }
    if settings.boardSize % 2 != 0 { return "the board holds pairs: an even number of cards" }
    return settings.problem(deckSize: 2 * emojiPerTheme)
  }
}
