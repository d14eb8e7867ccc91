/// The generic card-matching engine shared by every game: a deck dealt from a seeded shuffle,
/// a board, per-seat selections, matched cards and scores, with the match rule supplied by
/// `Card`.
///
/// The game is a value. ``apply(_:)`` either returns the events a move caused and changes the
/// game, or throws a ``MoveRejection`` and changes nothing. Replaying the same settings, seed and
/// moves always produces an equal game.
///
/// Every deal has its own seed (``dealSeed``): the first is the seed the game was made with, and
/// a re-deal draws the next 64 bits of the current generator as the new deal's seed and deals
/// from a fresh generator seeded with it. So the game since its latest deal is described on its
/// own by (settings, ``dealSeed``, the moves since), and a record from the first seed with every
/// move, re-deals included, replays to the same game too.
public struct CardMatchingGame<Card: MatchableCard>: Hashable, Sendable {
  /// The rules.
  public let settings: GameSettings
  /// Face-up cards, in display order.
  public private(set) var board: [Card]
  /// Ids of cards matched but still on the board (only when matched cards are kept).
  public private(set) var matchedOnBoard: Set<Int> = []
  /// Every seat, by seat number.
  public private(set) var players: [PlayerState]
  /// Whether the game has ended.
  public private(set) var isOver = false
  /// The seat whose turn it is, in a turn-based game (nil otherwise).
  public private(set) var turn: Int?
  /// The previous match, shown beside the board, when matches chain (``MatchableCard/chainsMatches``):
  /// its cards are chosen by id like the board's and the next match takes exactly one of them.
  /// Empty before the first match of a deal, and always in other games.
  public internal(set) var chain: [Card] = []

  /// The seed the current deal was shuffled from. Secret: it gives away the deck's order, so it
  /// is for the table's record only and never goes on the wire.
  public private(set) var dealSeed: UInt64

  /// Undealt cards; the next card dealt is the last element. Secret.
  private var deck: [Card]
  /// Secret: the current deal's generator (seeded with ``dealSeed``); the next re-deal's seed
  /// is drawn from it.
  private var generator: SeededGenerator

  /// Deals a new game.
  public init(settings: GameSettings, seed: UInt64) {
    precondition(Card.problem(with: settings) == nil, "invalid settings")
    self.settings = settings
    self.dealSeed = seed
    self.generator = SeededGenerator(seed: seed)
    self.players = Array(repeating: PlayerState(), count: settings.seats)
    self.board = []
    self.deck = []
    deal()
  }

  /// What a player names `card` by on the board: its slot when cards are dealt face down (the
  /// card itself is secret), its id otherwise.
  public func handle(of card: Card) -> Int {
    settings.faceDown ? board.firstIndex(of: card) ?? -1 : card.id
  }

  /// Whether `card` on the board shows its face: always in a face-up game; in a face-down game
  /// while it is matched or in some seat's selection.
  public func isFaceUp(_ card: Card) -> Bool {
    !settings.faceDown || matchedOnBoard.contains(card.id)
      || players.contains { $0.selection.contains(card.id) }
  }

  /// How many cards are left in the deck.
  public var deckCount: Int { deck.count }

  /// Cards on the board that can still be chosen.
  public var playableCards: [Card] {
    matchedOnBoard.isEmpty ? board : board.filter { !matchedOnBoard.contains($0.id) }
  }

  /// Whether a match can be claimed: among the playable cards, or, once a chain is showing,
  /// one card of the chain with the rest from the board (``hasChainMatch``).
  public var boardHasMatch: Bool {
    isChained ? hasChainMatch : Card.containsMatch(in: playableCards, size: settings.matchSize)
  }

  /// Total points of every seat.
  public var standings: [Standing] {
    Standing.ranked(
      players.indices.map {
        Standing(seat: $0, score: players[$0].score, matches: players[$0].matches, rank: 0)
      }, byMatches: settings.ranksByMatches)
  }

  /// Applies `move`, returning what happened, or throws why it was refused (changing nothing).
  @discardableResult
  public mutating func apply(_ move: Move) throws(MoveRejection) -> [GameEvent<Card>] {
    guard players.indices.contains(move.seat) else { throw .unknownSeat(move.seat) }
    switch move {
    case .choose(let seat, let id):
      return try choose(id, seat: seat)
    case .redeal:
      let seed = generator.next()
      dealSeed = seed
      generator = SeededGenerator(seed: seed)
      deal()
      var events: [GameEvent<Card>] = [.redealt(board: board, deckCount: deck.count)]
      if let turn { events.append(.turn(seat: turn)) }
      return events
    case .pass(let seat):
      guard let turn, settings.turnBased else { throw .notTurnBased }
      guard seat == turn else { throw .notYourTurn(seat) }
      guard !isOver else { throw .gameOver }
      let chosen = players[seat].selection.map { Card.fullDeck[$0] }
      players[seat].selection = []
      var events = chosen.map { GameEvent<Card>.deselected(seat: seat, card: $0) }
      events += turnDown(chosen)
      events += passTurn(from: seat)
      return events
    }
  }

  /// The turn goes to the next seat.
  private mutating func passTurn(from seat: Int) -> [GameEvent<Card>] {
    let next = (seat + 1) % players.count
    turn = next
    return [.turn(seat: next)]
  }

  /// Of `cards`, those that no longer show their face turn down (face-down games only).
  private func turnDown(_ cards: [Card]) -> [GameEvent<Card>] {
    guard settings.faceDown else { return [] }
    let down = cards.filter { !isFaceUp($0) }
    return down.isEmpty ? [] : [.turnedDown(down)]
  }

  // MARK: - Choosing

  private mutating func choose(_ handle: Int, seat: Int) throws(MoveRejection)
    -> [GameEvent<Card>]
  {
    let card: Card
    if settings.faceDown {
      // A face-down board is named by slot: the handle says nothing about the card.
      guard board.indices.contains(handle) else { throw .unknownCard(handle) }
      card = board[handle]
    } else {
      guard let named = Card.card(withID: handle) else { throw .unknownCard(handle) }
      card = named
    }
    let id = card.id
    guard !isOver else { throw .gameOver }
    if let turn, turn != seat { throw .notYourTurn(seat) }
    guard board.contains(card) || chain.contains(card) else { throw .cardNotOnTable(handle) }
    guard !matchedOnBoard.contains(id) else { throw .cardAlreadyMatched(handle) }

    if let index = players[seat].selection.firstIndex(of: id) {
      // Taking back a card turned up this turn would let a player peek for free.
      if settings.turnBased { throw .alreadyChosen(handle) }
      players[seat].selection.remove(at: index)
      return [.deselected(seat: seat, card: card)] + turnDown([card])
    }

    if let refusal = chainRefusal(adding: card, to: players[seat].selection) { throw refusal }
    var events: [GameEvent<Card>] = [.selected(seat: seat, card: card)]
    players[seat].selection.append(id)
    if settings.faceDown {
      players[seat].flips += 1
      events.append(.turnedUp(seat: seat, card: card))
    }
    players[seat].score -= settings.costToChoose
    if settings.costToChoose != 0 {
      events.append(.scored(seat: seat, score: players[seat].score))
    }
    guard players[seat].selection.count == settings.matchSize else { return events }

    let chosen = players[seat].selection.map { Card.fullDeck[$0] }
    let score = Card.matchScore(chosen)
    if score > 0 {
      let points = settings.matchPoints > 0 ? settings.matchPoints : score * settings.matchBonus
      players[seat].score += points
      players[seat].matches += 1
      players[seat].selection = []
      events.append(.matched(seat: seat, cards: chosen, points: points))
      events.append(.scored(seat: seat, score: players[seat].score))
      // The chain's other cards leave play with the match: no selection keeps them.
      let unchained = chain.filter { !chosen.contains($0) }
      events += dropFromOtherSelections(chosen + unchained, except: seat)
      events += advanceChain(to: chosen)
      events += retire(chosen)
      events += dealWhileNoMatch()
      if !boardHasMatch && (deck.isEmpty || !settings.dealsMoreWhenNoMatch) {
        isOver = true
        events.append(.ended(standings))
      }
    } else {
      players[seat].score -= settings.mismatchPenalty
      events.append(.mismatched(seat: seat, cards: chosen, penalty: settings.mismatchPenalty))
      if settings.mismatchPenalty != 0 {
        events.append(.scored(seat: seat, score: players[seat].score))
      }
      // The course's rule keeps the card just chosen; otherwise the whole selection goes.
      let released = settings.mismatchKeepsNewest ? Array(chosen.dropLast()) : chosen
      for other in released {
        events.append(.deselected(seat: seat, card: other))
      }
      players[seat].selection = settings.mismatchKeepsNewest ? [id] : []
      events += turnDown(released)
      if settings.turnBased { events += passTurn(from: seat) }
    }
    return events
  }

  /// Other seats lose matched cards from their selections, and are told.
  private mutating func dropFromOtherSelections(_ cards: [Card], except seat: Int)
    -> [GameEvent<Card>]
  {
    // A few cards and short selections: plain loops over ids, which also run fast where this
    // generic code is not specialized (a set and a key path cost a match 4 % of its time).
    var events: [GameEvent<Card>] = []
    var ids: [Int] = []
    ids.reserveCapacity(cards.count)
    for card in cards { ids.append(card.id) }
    for other in players.indices where other != seat && !players[other].selection.isEmpty {
      var kept: [Int] = []
      for id in players[other].selection {
        if ids.contains(id) {
          events.append(.deselected(seat: other, card: Card.fullDeck[id]))
        } else {
          kept.append(id)
        }
      }
      if kept.count != players[other].selection.count { players[other].selection = kept }
    }
    return events
  }

  /// Takes matched cards out of play: kept in place, or replaced from the deck while the board
  /// would otherwise shrink below its size, and removed beyond that.
  ///
  /// Loops only: neither a key path into the generic card (`cards.map(\.id)`) nor the standard
  /// library's `sort()` is carried to the modules that specialize this function, and with
  /// either it ran generic on every match (~15,700 instructions, 6 % of real play's;
  /// `scripts/callgrind-moves.sh`, docs/BENCHMARKS.md).
  private mutating func retire(_ cards: [Card]) -> [GameEvent<Card>] {
    switch settings.matchedCards {
    case .keep:
      for card in cards { matchedOnBoard.insert(card.id) }
      return []
    case .replace:
      // The slots in order, each put in its place as it is found (a match is a few cards).
      var slots: [Int] = []
      for card in cards {
        let id = card.id
        for slot in board.indices where board[slot].id == id {
          var at = slots.count
          while at > 0 && slots[at - 1] > slot { at -= 1 }
          slots.insert(slot, at: at)
          break
        }
      }
      let shortfall = max(0, settings.boardSize - (board.count - slots.count))
      let replaceCount = min(shortfall, deck.count, slots.count)
      var events: [GameEvent<Card>] = []
      for slot in slots.prefix(replaceCount) {
        let card = deck.removeLast()
        board[slot] = card
        events.append(.replaced(slot: slot, card: card))
      }
      if replaceCount < slots.count {
        var leaving: [Card] = []
        for slot in slots[replaceCount...] { leaving.append(board[slot]) }
        for slot in slots[replaceCount...].reversed() { board.remove(at: slot) }
        events.append(.removed(leaving))
      }
      if replaceCount > 0 { events.append(.deckCount(deck.count)) }
      return events
    }
  }

  /// Deals extra cards while the board holds no match and the deck has cards (if the rules say so).
  private mutating func dealWhileNoMatch() -> [GameEvent<Card>] {
    guard settings.dealsMoreWhenNoMatch else { return [] }
    var events: [GameEvent<Card>] = []
    while !deck.isEmpty && !boardHasMatch {
      let cards = draw(settings.extraDealSize)
      board += cards
      events.append(.dealt(cards, reason: .noMatch))
      events.append(.deckCount(deck.count))
    }
    return events
  }

  private mutating func draw(_ count: Int) -> [Card] {
    let n = min(count, deck.count)
    let cards = Array(deck.suffix(n).reversed())
    deck.removeLast(n)
    return cards
  }

  /// Shuffles the full deck, deals the board, and starts every seat again.
  private mutating func deal() {
    deck = Card.deck(for: settings, using: &generator)
    generator.shuffle(&deck)
    board = draw(settings.boardSize)
    matchedOnBoard = []
    chain = []
    players = Array(repeating: PlayerState(), count: settings.seats)
    isOver = false
    turn = settings.turnBased ? 0 : nil
    _ = dealWhileNoMatch()
    if !boardHasMatch && (deck.isEmpty || !settings.dealsMoreWhenNoMatch) { isOver = true }
  }
}
