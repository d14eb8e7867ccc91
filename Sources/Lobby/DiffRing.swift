import Protocol

/// The latest diffs of a table, encoded, for members who reconnect or fall behind: the last
/// ``capacity`` of them, each with the frame every seat got when the seats saw it differently.
struct DiffRing: Sendable {
  /// One diff kept.
  private struct Entry: Sendable {
    var version: Int
    var frame: Frame
    var seatFrames: [Frame]?
  }

  /// The most diffs kept.
  let capacity: Int
  private var entries: [Entry] = []

  /// An empty ring keeping at most `capacity` diffs.
  init(capacity: Int) {
    self.capacity = capacity
  }

  /// Keeps `frame`, the diff that made `version`, letting the oldest go beyond ``capacity``.
  mutating func append(version: Int, frame: Frame) {
    entries.append(Entry(version: version, frame: frame))
    if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
  }

  /// The newest diff reads differently from each seat: `frames`, by seat.
  mutating func setNewestSeatFrames(_ frames: [Frame]) {
    guard !entries.isEmpty else { return }
    entries[entries.count - 1].seatFrames = frames
  }

  /// Forgets every diff (nobody can catch up from them any more).
  mutating func removeAll() {
    entries = []
  }

  /// The diffs after `version` as `seat` saw them (nil: a spectator), oldest first, or nil
  /// when the first of them is gone.
  func diffs(after version: Int, seat: Int?) -> [Frame]? {
    guard let first = entries.first, first.version <= version + 1 else { return nil }
    return entries.filter { $0.version > version }.map { entry in
      guard let seat, let frames = entry.seatFrames, frames.indices.contains(seat) else {
        return entry.frame
      }
      return frames[seat]
    }
  }
}
