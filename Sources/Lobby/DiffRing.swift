import Protocol

/// The latest diffs of a table, encoded, for members who reconnect or fall behind: the last
/// ``capacity`` of them, each with the frame every seat got when the seats saw it differently.
///
/// A ring: once full, each diff takes the oldest one's place. (Dropping the oldest from the
/// front of an array moved every other diff each time: 3 % of the service thread in real play.)
struct DiffRing: Sendable {
  /// One diff kept.
  private struct Entry: Sendable {
    var version: Int
    var frame: Frame
    var seatFrames: [Frame]?
  }

  /// The most diffs kept.
  let capacity: Int
  /// The diffs kept; once there are ``capacity`` of them, the oldest is at `oldest`.
  private var entries: [Entry] = []
  /// Where the oldest diff is (0 until the ring is full).
  private var oldest = 0

  /// An empty ring keeping at most `capacity` diffs.
  init(capacity: Int) {
    self.capacity = capacity
  }

  /// Keeps `frame`, the diff that made `version`, letting the oldest go beyond ``capacity``.
  mutating func append(version: Int, frame: Frame) {
    let entry = Entry(version: version, frame: frame)
    if entries.count < capacity {
      entries.append(entry)
    } else if capacity > 0 {
      entries[oldest] = entry
      oldest = (oldest + 1) % capacity
    }
  }

  /// The newest diff reads differently from each seat: `frames`, by seat.
  mutating func setNewestSeatFrames(_ frames: [Frame]) {
    guard !entries.isEmpty else { return }
    entries[(oldest + entries.count - 1) % entries.count].seatFrames = frames
  }

  /// Forgets every diff (nobody can catch up from them any more).
  mutating func removeAll() {
    entries = []
    oldest = 0
  }

  /// The diffs after `version` as `seat` saw them (nil: a spectator), oldest first, or nil
  /// when the first of them is gone.
  func diffs(after version: Int, seat: Int?) -> [Frame]? {
    guard !entries.isEmpty, entries[oldest].version <= version + 1 else { return nil }
    var frames: [Frame] = []
    for step in 0..<entries.count {
      let entry = entries[(oldest + step) % entries.count]
      guard entry.version > version else { continue }
      if let seat, let seatFrames = entry.seatFrames, seatFrames.indices.contains(seat) {
        frames.append(seatFrames[seat])
      } else {
        frames.append(entry.frame)
      }
    }
    return frames
  }
}
