import Model

/// One client's view of its table, rebuilt the way a browser does: a snapshot, then each diff's
/// events applied in version order (docs/PROTOCOL.md's event table).
///
/// Bots play from this view, so a wrong rule here shows up as moves the server refuses; the
/// tests compare it with later snapshots from the same recording.
public struct BoardTracker: Equatable, Sendable {
  /// The version of the last applied snapshot or diff; nil before the first snapshot.
  public private(set) var version: Int?
  /// Card ids in display order.
  public private(set) var board: [Int] = []
  /// Cards left in the deck.
  public private(set) var deckCount = 0
  /// Whether the game has ended.
  public private(set) var over = false
  /// The table's phase (`waiting`, `countdown`, `playing`, `finished`), when the server says.
  public private(set) var phase: String?
  /// Each occupied seat's score.
  public private(set) var scores: [Int: Int] = [:]
  /// Each occupied seat's selection, in the order chosen.
  public private(set) var selections: [Int: [Int]] = [:]
  /// True after a version gap, until the next snapshot: diffs are ignored meanwhile.
  public private(set) var awaitingSnapshot = false

  /// An empty view, waiting for its first snapshot.
  public init() {}

  /// What became of a diff.
  public enum DiffOutcome: Equatable, Sendable {
    /// It continued the version and was applied.
    case applied
    /// Its version was already seen: ignored.
    case duplicate
    /// It skipped versions: the client must send `resync` and wait for a snapshot.
    case gap
    /// A resync is under way (or no snapshot came yet): ignored.
    case waiting
  }

  /// Takes the whole state from a snapshot's `table` object.
  public mutating func applySnapshot(table: JSON) {
    version = table["version"]?.int
    board = (table["board"]?.array ?? []).compactMap { $0["id"]?.int }
    deckCount = table["deckCount"]?.int ?? 0
    over = table["over"]?.bool ?? false
    phase = table["phase"]?.string
    scores = [:]
    selections = [:]
    for player in table["players"]?.array ?? [] {
      guard let seat = player["seat"]?.int else { continue }
      scores[seat] = player["score"]?.int ?? 0
      selections[seat] = (player["selection"]?.array ?? []).compactMap(\.int)
    }
    awaitingSnapshot = false
  }

  /// Applies a `diff` message if it is the next version.
  public mutating func applyDiff(_ diff: JSON) -> DiffOutcome {
    guard let current = version, !awaitingSnapshot else { return .waiting }
    guard let next = diff["version"]?.int else { return .duplicate }
    if next <= current { return .duplicate }
    if next > current + 1 {
      awaitingSnapshot = true
      return .gap
    }
    for event in diff["events"]?.array ?? [] { apply(event: event) }
    version = next
    return .applied
  }

  /// Applies one event.
  private mutating func apply(event: JSON) {
    let seat = event["seat"]?.int
    switch event["kind"]?.string {
    case "select":
      if let seat, let card = event["card"]?.int { selections[seat, default: []].append(card) }
    case "deselect":
      if let seat, let card = event["card"]?.int { selections[seat]?.removeAll { $0 == card } }
    case "match":
      let cards = Set((event["cards"]?.array ?? []).compactMap(\.int))
      for key in selections.keys { selections[key]?.removeAll { cards.contains($0) } }
    case "score":
      if let seat, let score = event["score"]?.int { scores[seat] = score }
    case "replace":
      if let slot = event["slot"]?.int, let card = event["card"]?["id"]?.int,
        board.indices.contains(slot)
      {
        board[slot] = card
      }
    case "remove":
      let cards = Set((event["cards"]?.array ?? []).compactMap(\.int))
      board.removeAll { cards.contains($0) }
    case "deal":
      board += (event["cards"]?.array ?? []).compactMap { $0["id"]?.int }
    case "deck":
      if let count = event["count"]?.int { deckCount = count }
    case "redeal":
      board = (event["board"]?.array ?? []).compactMap { $0["id"]?.int }
      deckCount = event["deckCount"]?.int ?? deckCount
      over = false
      for key in scores.keys { scores[key] = 0 }
      for key in selections.keys { selections[key] = [] }
    case "over":
      over = true
    case "phase":
      phase = event["phase"]?.string
    case "join":
      if let seat {
        scores[seat] = 0
        selections[seat] = []
      }
    case "leave":
      if let seat {
        scores[seat] = nil
        selections[seat] = nil
      }
    default:
      // mismatch (its deselects follow), away, back, host, spectators, vote: nothing on the board.
      break
    }
  }

  /// Every set on the board, each as three card ids in board order.
  public var sets: [[Int]] {
    SetCard.allSets(in: board.compactMap { SetCard.card(withID: $0) }).map { $0.map(\.id) }
  }
}
