import Model
import Protocol

/// The matches and mismatches of the game a table is playing: the history its members see
/// (the last ``cap`` entries, so a player toggling cards for ever cannot grow it), the
/// mismatches each seat made (for the finished game's record) and the latest matches (so a
/// choice that lost the race to one of them can be told who took which cards).
struct TableHistory: Sendable {
  /// The most entries kept.
  let cap: Int
  /// The entries kept, oldest first.
  private(set) var entries: [HistoryEntry] = []
  /// Entries made this game (numbers the next one).
  private var count = 0
  /// Mismatches per seat this game (seats beyond the end have made none).
  private var mistakes: [Int] = []
  /// The latest matches (seat and card ids), newest last. Kept across deals: a choice made
  /// just before a re-deal can still lose the race to a match of the old deal.
  private var recentMatches: [(seat: Int, cards: [Int])] = []
  /// How many of the latest matches are kept.
  private static var recentMatchesKept: Int { 8 }
  /// The cards each seat chose since its last match or mismatch, when choosing costs points:
  /// what its next one cost it in choices besides (the history and the status say so, so that
  /// the points shown add up to the score).
  private var choices: [Int: Int] = [:]

  /// An empty history keeping at most `cap` entries.
  init(cap: Int) {
    self.cap = cap
  }

  /// A new game begins: its history and mistakes start again.
  mutating func newGame() {
    entries = []
    count = 0
    mistakes = []
    choices = [:]
  }

  /// Notes the matches and mismatches among a move's `events`, made `at` seconds into play,
  /// and returns their entries in the order of the events.
  /// `costToChoose`: the points a choice costs (the choices since a seat's last match or
  /// mismatch are its entry's ``HistoryEntry/choiceCost``).
  mutating func note<Card: WireCard>(
    _ events: [GameEvent<Card>], at: Double, costToChoose: Int = 0
  ) -> [HistoryEntry] {
    var made: [HistoryEntry] = []
    for event in events {
      switch event {
      case .selected(let seat, _) where costToChoose > 0:
        choices[seat, default: 0] += 1
      case .matched(let seat, let cards, let points):
        made.append(
          add(
            .match, seat: seat, points: points, cards: cards, at: at,
            choiceCost: takeChoices(of: seat) * costToChoose))
        if recentMatches.count >= Self.recentMatchesKept { recentMatches.removeFirst() }
        recentMatches.append((seat, cards.map(\.id)))
      case .mismatched(let seat, let cards, let penalty):
        made.append(
          add(
            .mismatch, seat: seat, points: penalty, cards: cards, at: at,
            choiceCost: takeChoices(of: seat) * costToChoose))
        if mistakes.count <= seat {
          mistakes += Array(repeating: 0, count: seat + 1 - mistakes.count)
        }
        mistakes[seat] += 1
      default: break
      }
    }
    return made
  }

  /// The mismatches `seat` made this game.
  func mistakes(of seat: Int) -> Int {
    mistakes.indices.contains(seat) ? mistakes[seat] : 0
  }

  /// The latest match that took the card `id`, if one of those kept did.
  func match(taking id: Int) -> (seat: Int, cards: [Int])? {
    recentMatches.last { $0.cards.contains(id) }
  }

  /// The choices `seat` made since its last match or mismatch, counted from nothing again.
  private mutating func takeChoices(of seat: Int) -> Int {
    choices.removeValue(forKey: seat) ?? 0
  }

  /// Keeps an entry (the last ``cap``) and returns it.
  private mutating func add<Card: WireCard>(
    _ kind: HistoryEntry.Kind, seat: Int, points: Int, cards: [Card], at: Double, choiceCost: Int
  ) -> HistoryEntry {
    count += 1
    var entry = HistoryEntry(
      number: count, at: at, seat: seat, kind: kind, points: points, cards: cards.map(\.id))
    entry.choiceCost = choiceCost
    if entries.count >= cap { entries.removeFirst(entries.count - cap + 1) }
    entries.append(entry)
    return entry
  }
}
