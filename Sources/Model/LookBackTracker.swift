/// The look back at a game (``GameLookBack``) kept while the game is played: each accepted
/// move's events go in as the game applied them, and the matches complete on the board are
/// looked for again only when the board changed (``MatchableCard/matchPositions(in:size:)``).
///
/// A table keeps one for its current game, so the look back is ready the moment the game ends:
/// working it out then, by playing every move again, cost a few milliseconds of the service
/// thread per game, and a burst of game ends held every table's frames behind it
/// (docs/BENCHMARKS.md, "Play: what game ends cost"). ``GameLookBack/of(_:settings:seed:moves:times:)``
/// plays a record's moves through one, so both give the same look back.
///
/// What depends on the game's card type (reading the events, finding the board's matches) is
/// `@inlinable`, so that it is specialised where a table calls it; the bookkeeping after it
/// works on card ids only. Left generic, ``note(_:in:at:)`` ran unspecialised on every move:
/// under fast play it was 5 % of the service thread, a third of it metadata look-ups.
public struct LookBackTracker: Sendable {
  /// The look back so far.
  public private(set) var lookBack: GameLookBack
  /// The matches complete on the board now, each with when it became so. A board holds a few
  /// (a dozen at most): a list is cheaper to look through than a dictionary is to hash.
  private var there: [(match: [Int], since: Double)] = []
  /// When the latest match was made.
  private var lastFound = 0.0
  /// How many moves were noted.
  public private(set) var moves = 0

  /// A look back at `game`, not played yet.
  public init<Card: MatchableCard>(game: CardMatchingGame<Card>) {
    lookBack = GameLookBack(boardSeen: !game.settings.faceDown)
    if lookBack.boardSeen {
      there = Self.matches(on: game).map { ($0, 0) }
    }
  }

  /// `game` applied a move `at` seconds into play, with `events`.
  @inlinable
  public mutating func note<Card: MatchableCard>(
    _ events: [GameEvent<Card>], in game: CardMatchingGame<Card>, at: Double
  ) {
    var made: [(seat: Int, cards: [Int])] = []
    var boardChanged = false
    for event in events {
      switch event {
      case .matched(let seat, let cards, _):
        made.append((seat, cards.map { $0.id }.sorted()))
      case .replaced, .removed, .dealt, .redealt, .chained:
        boardChanged = true
      default:
        break
      }
    }
    let looksAgain = lookBack.boardSeen && (boardChanged || !made.isEmpty)
    noted(made: made, matchesNow: looksAgain ? Self.matches(on: game) : nil, at: at)
  }

  /// The bookkeeping of a move noted `at` seconds into play: the matches `made` (each its seat
  /// and sorted card ids), and when the board was looked at again, the matches on it now.
  @usableFromInline
  mutating func noted(made: [(seat: Int, cards: [Int])], matchesNow: [[Int]]?, at: Double) {
    moves += 1
    for match in made {
      let since =
        lookBack.boardSeen
        ? there.first { $0.match == match.cards }?.since ?? lastFound : lastFound
      lookBack.found.append(
        GameLookBack.Found(
          seat: match.seat, cards: match.cards, at: at, seconds: max(0, at - since)))
      lastFound = at
    }
    guard let now = matchesNow else { return }
    // The matches no longer on the board leave the list, in one look at each.
    var gone: [(match: [Int], since: Double)] = []
    there.removeAll { entry in
      guard !now.contains(entry.match) else { return false }
      gone.append(entry)
      return true
    }
    gone.sort {
      $0.since != $1.since ? $0.since < $1.since : $0.match.lexicographicallyPrecedes($1.match)
    }
    for (match, since) in gone where match != made.last?.cards {
      lookBack.missed.append(GameLookBack.Missed(cards: match, from: since, until: at))
    }
    for match in now where !there.contains(where: { $0.match == match }) {
      there.append((match, at))
    }
  }

  /// Every match a player could claim, as sorted card ids (each once): among the board's
  /// playable cards, or, in a chained game (Set-Chain) once a chain is showing, the chain
  /// matches only.
  @inlinable
  static func matches<Card: MatchableCard>(on game: CardMatchingGame<Card>) -> [[Int]] {
    var matches: [[Int]] = []
    for match in game.claimableMatches {
      let ids = match.map { $0.id }.sorted()
      if !matches.contains(ids) { matches.append(ids) }
    }
    return matches
  }
}
