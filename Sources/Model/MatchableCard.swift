/// A card that the generic matching engine can deal and match.
///
/// The card type supplies its deck and its match rule; everything else — dealing, choosing,
/// scoring, replacing, ending — is the engine's and is the same for every game.
public protocol MatchableCard: Hashable, Sendable {
  /// A stable identifier, unique within the full deck, in `0..<fullDeck.count`.
  var id: Int { get }

  /// Every card of the game, in id order.
  static var fullDeck: [Self] { get }

  /// How good a match `cards` are: 0 when they do not match, otherwise a positive score that the
  /// engine multiplies by the table's match bonus.
  static func matchScore(_ cards: [Self]) -> Int

  /// Whether some `size` cards among `cards` match. The default tries every combination; a card
  /// type may answer faster.
  static func containsMatch(in cards: [Self], size: Int) -> Bool

  /// Every `size` cards among `cards` that match, each as their positions in `cards`,
  /// ascending, the groups in lexicographic order. The default tries every combination; a card
  /// type may answer faster (the look back at a game asks after every change of its board).
  static func matchPositions(in cards: [Self], size: Int) -> [[Int]]

  /// The first `size` cards among `cards` that match (in the order of `cards`), or nil when no
  /// `size` of them do: a hint's answer. The default tries the combinations in order; a card
  /// type may answer faster.
  static func firstMatch(in cards: [Self], size: Int) -> [Self]?

  /// The cards a game with `settings` is dealt from, before the shuffle. The default is the
  /// full deck; a card type with variants (Concentration's themes) picks its cards here,
  /// drawing from `generator` if it must choose.
  static func deck(for settings: GameSettings, using generator: inout SeededGenerator) -> [Self]

  /// Why `settings` cannot make a game of this card type, or nil when they can. The default
  /// checks them against the full deck.
  static func problem(with settings: GameSettings) -> String?

  /// Whether matches chain (Set-Chain): after the first match, every match is one card of the
  /// previous match (``CardMatchingGame/chain``, out of the board) and the rest from the board,
  /// and it becomes the next chain. False by default: any match on the board counts.
  static var chainsMatches: Bool { get }
}

extension MatchableCard {
  public static var chainsMatches: Bool { false }

  public static func deck(for settings: GameSettings, using generator: inout SeededGenerator)
    -> [Self]
  {
    fullDeck
  }

  public static func problem(with settings: GameSettings) -> String? {
    settings.problem(deckSize: fullDeck.count)
  }

  /// How many cards a game with `settings` is dealt from.
  public static func deckSize(for settings: GameSettings) -> Int {
    var generator = SeededGenerator(seed: 0)
    return deck(for: settings, using: &generator).count
  }

  /// The card with `id`, or nil when no card of this game has it.
  public static func card(withID id: Int) -> Self? {
    let deck = fullDeck
    return deck.indices.contains(id) ? deck[id] : nil
  }

  public static func matchPositions(in cards: [Self], size: Int) -> [[Int]] {
    var found: [[Int]] = []
    forEachCombination(of: cards.count, choose: size) { indices in
      if matchScore(indices.map { cards[$0] }) > 0 { found.append(indices) }
      return true
    }
    return found
  }

  public static func containsMatch(in cards: [Self], size: Int) -> Bool {
    firstMatch(in: cards, size: size) != nil
  }

  public static func firstMatch(in cards: [Self], size: Int) -> [Self]? {
    guard size > 0, cards.count >= size else { return nil }
    var found: [Self]?
    forEachCombination(of: cards.count, choose: size) { indices in
      let chosen = indices.map { cards[$0] }
      guard matchScore(chosen) > 0 else { return true }
      found = chosen
      return false
    }
    return found
  }
}

/// Calls `body` with every `k`-element combination of `0..<n` in lexicographic order until it
/// returns false.
func forEachCombination(of n: Int, choose k: Int, _ body: ([Int]) -> Bool) {
  guard k > 0, k <= n else { return }
  var indices = Array(0..<k)
  while true {
    if !body(indices) { return }
    var i = k - 1
    while i >= 0 && indices[i] == n - k + i { i -= 1 }
    if i < 0 { return }
    indices[i] += 1
    for j in (i + 1)..<k { indices[j] = indices[j - 1] + 1 }
  }
}
