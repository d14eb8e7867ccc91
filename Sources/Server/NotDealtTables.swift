/// The tables of dead nodes that takeovers leave alone because this node does not deal their
/// game (``Takeover/notDealt``), said in the log once each rather than at every look: a pure
/// decider the cluster relay keeps.
struct NotDealtTables {
  /// Those said already and still left (at most what the last full look named, plus those
  /// named since).
  private(set) var said: Set<String> = []

  /// What a takeover left (`notDealt`: table → game; `full`: a look at every dead table, which
  /// names all those still left, so the others are forgotten): those not said yet, by table id.
  mutating func heard(_ notDealt: [String: String], full: Bool) -> [(table: String, game: String)] {
    let fresh = notDealt.filter { !said.contains($0.key) }.sorted { $0.key < $1.key }
    said = full ? Set(notDealt.keys) : said.union(notDealt.keys)
    return fresh.map { (table: $0.key, game: $0.value) }
  }
}
