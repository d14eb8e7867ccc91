/// The accepted moves of one game, two bytes each, up to a cap: what a live table keeps in
/// memory so that the game can be replayed, without growing for ever.
///
/// Each move is stored as two bytes: the first holds the kind in its top bit (0 choose,
/// 1 re-deal or pass) and the seat in the other seven; the second holds the card's handle for
/// a choice, 0 for a re-deal and 1 for a pass.
/// So a log holds seats 0–127 and card ids 0–255, which covers every game here (at most 8 seats,
/// 81 Set cards, 52 playing cards).
///
/// Once ``cap`` moves are logged, or a move arrives that two bytes cannot hold, the log stops
/// growing and says it is truncated: it still holds the moves before that point, but no longer
/// the whole game, so ``GameLog/record`` is nil and the game cannot be replayed from it.
public struct MoveLog: Hashable, Sendable, RandomAccessCollection {
  /// The default cap: 2,048 moves, 4 KiB. A Set game raced by a full table takes a few hundred
  /// moves, so a real game fits many times over; a client toggling one card for ever fills it
  /// in minutes and then costs nothing more.
  public static let defaultCap = 2048

  /// The most moves the log holds.
  public let cap: Int
  /// Whether moves were left out (the cap was reached, or a move did not fit in two bytes).
  public private(set) var isTruncated = false
  /// Two bytes per move, in order.
  private var bytes: [UInt8] = []

  /// An empty log of at most `cap` moves.
  public init(cap: Int = MoveLog.defaultCap) {
    precondition(cap >= 0, "a log's cap cannot be negative")
    self.cap = cap
  }

  /// An empty log of at most `cap` moves, then `moves` appended in order.
  public init(_ moves: some Sequence<Move>, cap: Int = MoveLog.defaultCap) {
    self.init(cap: cap)
    for move in moves { append(move) }
  }

  /// Whether a move fits in a log's two bytes.
  public static func fits(_ move: Move) -> Bool {
    switch move {
    case .choose(let seat, let card): (0..<128).contains(seat) && (0..<256).contains(card)
    case .redeal(let seat), .pass(let seat): (0..<128).contains(seat)
    }
  }

  /// Logs `move`; once truncated, or at the cap, or for a move that does not fit, the log only
  /// marks itself truncated.
  public mutating func append(_ move: Move) {
    guard !isTruncated, count < cap, Self.fits(move) else {
      isTruncated = true
      return
    }
    switch move {
    case .choose(let seat, let card):
      bytes.append(UInt8(seat))
      bytes.append(UInt8(card))
    case .redeal(let seat):
      bytes.append(0x80 | UInt8(seat))
      bytes.append(0)
    case .pass(let seat):
      bytes.append(0x80 | UInt8(seat))
      bytes.append(1)
    }
  }

  /// Bytes the moves take (two per move; the array may have reserved more).
  public var byteCount: Int { bytes.count }

  // MARK: - RandomAccessCollection

  /// The first move's position, 0.
  public var startIndex: Int { 0 }
  /// One past the last move.
  public var endIndex: Int { bytes.count / 2 }

  /// The move at `position`, decoded.
  public subscript(position: Int) -> Move {
    precondition(indices.contains(position), "move index out of range")
    let head = bytes[2 * position]
    let seat = Int(head & 0x7F)
    let tail = bytes[2 * position + 1]
    if head & 0x80 == 0 { return .choose(seat: seat, card: Int(tail)) }
    return tail == 0 ? .redeal(seat: seat) : .pass(seat: seat)
  }
}

/// The record of the game being played now, as a live table keeps it: the settings, the seed of
/// the current deal and a capped ``MoveLog`` of the moves since. A re-deal starts a new one (the
/// game's ``CardMatchingGame/dealSeed`` is the new record's seed), so its size is bounded by one
/// game's log, however long the table lives.
public struct GameLog: Hashable, Sendable {
  /// The rules.
  public let settings: GameSettings
  /// The seed of the current deal (secret while the game is live).
  public let seed: UInt64
  /// The moves since the deal, up to the log's cap.
  public private(set) var moves: MoveLog

  /// An empty record of a game dealt from `seed`, keeping at most `cap` moves.
  public init(settings: GameSettings, seed: UInt64, cap: Int = MoveLog.defaultCap) {
    self.settings = settings
    self.seed = seed
    self.moves = MoveLog(cap: cap)
  }

  /// Whether moves were left out, so that the game can no longer be replayed from this record.
  public var isTruncated: Bool { moves.isTruncated }

  /// Logs an accepted move.
  public mutating func append(_ move: Move) { moves.append(move) }

  /// The whole game as a ``GameRecord`` to replay, or nil when the log is truncated.
  public var record: GameRecord? {
    isTruncated ? nil : GameRecord(settings: settings, seed: seed, moves: Array(moves))
  }
}
