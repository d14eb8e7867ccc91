/// When a table's members hear how many watch it. The crowd is not the game: spectators coming
/// and going change no version and make no diff (a thousand arriving at once would otherwise be
/// a thousand diffs to each of a thousand members). A change is told as one `spectators`
/// message to every member, at most once every ``interval`` seconds: the first change after a
/// quiet second at once, the ones after it gathered into the next. A pure value: `now` comes in.
public struct CrowdCount: Equatable, Sendable {
  /// The least time between two tellings, in seconds.
  public static let interval = 1.0
  /// Whether the count changed since the members were last told it (a newcomer's snapshot may
  /// show a count they have not heard, even when it is back to the one told).
  public private(set) var changed = false
  /// When the members were last told.
  public private(set) var toldAt = -Double.infinity

  public init() {}

  /// The crowd grew or shrank.
  public mutating func change() { changed = true }

  /// Whether the members were ever told a count.
  public var wasTold: Bool { toldAt > -Double.infinity }

  /// When the members are next due to hear the count, nil when nothing changed.
  public var due: Double? { changed ? toldAt + Self.interval : nil }

  /// Whether the count is to be told at `now` (it changed, and the last telling is
  /// ``interval`` old); if so, it counts as told.
  public mutating func tell(now: Double) -> Bool {
    guard let due, due <= now else { return false }
    changed = false
    toldAt = now
    return true
  }
}
