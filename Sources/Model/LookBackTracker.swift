/// The look back at a game (``GameLookBack``) kept while the game is played: each accepted
/// move's events go in as the game applied them, and the matches complete on the board are
/// looked for again only when the board changed (``MatchableCard/matchPositions(in:size:)``).
///
/// A table keeps one for its current game, so the look back is ready the moment the game ends:
/// working it out then, by playing every move again, cost a few milliseconds of the service
/// thread per game, and a burst of game ends held every table's frames behind it
/// (docs/BENCHMARKS.md, "Play: what game ends cost"). ``GameLookBack/of(_:settings:seed:moves:times:)``
/// plays a record's moves through one, so both give the same look back.
public struct LookBackTracker: Sendable {
  /// The look back so far.
  public private(set) var lookBack: GameLookBack
  /// The matches complete on the board now, each with when it became so.
  private var there: [[Int]: Double] = [:]
  /// When the latest match was made.
  private var lastFound = 0.0
  /// How many moves were noted.
  public private(set) var moves = 0

  /// A look back at `game`, not played yet.
  public init<Card: MatchableCard>(game: CardMatchingGame<Card>) {
    lookBack = GameLookBack(boardSeen: !game.settings.faceDown)
    if lookBack.boardSeen {
      for match in Self.matches(on: game) { there[match] = 0 }
    }
  }

  /// `game` applied a move `at` seconds into play, with `events`.
  public mutating func note<Card: MatchableCard>(
    _ events: [GameEvent<Card>], in game: CardMatchingGame<Card>, at: Double
  ) {
    moves += 1
    var taken: [Int]?
    var boardChanged = false
    for event in events {
      switch event {
      case .matched(let seat, let cards, _):
        let ids = cards.map { $0.id }.sorted()
        taken = ids
        let since = lookBack.boardSeen ? there[ids] ?? lastFound : lastFound
        lookBack.found.append(
          GameLookBack.Found(seat: seat, cards: ids, at: at, seconds: max(0, at - since)))
        lastFound = at
      case .replaced, .removed, .dealt, .redealt, .chained:
        boardChanged = true
      default:
        break
      }
    }
    guard lookBack.boardSeen, boardChanged || taken != nil else { return }
    let now = Self.matches(on: game)
    let gone = there.filter { !now.contains($0.key) }.sorted {
      $0.value != $1.value ? $0.value < $1.value : $0.key.lexicographicallyPrecedes($1.key)
    }
    for (match, since) in gone {
      there[match] = nil
      if match != taken {
        lookBack.missed.append(GameLookBack.Missed(cards: match, from: since, until: at))
      }
    }
    for match in now where there[match] == nil { there[match] = at }
  }

  /// Every match a player could claim, as sorted card ids: among the board's playable cards,
  /// or, in a chained game (Set-Chain) once a chain is showing, the chain matches only.
  static func matches<Card: MatchableCard>(on game: CardMatchingGame<Card>) -> Set<[Int]> {
    Set(game.claimableMatches.map { $0.map { $0.id }.sorted() })
  }
}
