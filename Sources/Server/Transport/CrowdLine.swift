/// Spectators' connections waiting for their turn to write, first come first served. A crowd's
/// frame is queued for every spectator at once, but their sockets are asked to write only
/// ``TransportConfiguration/crowdWritesPerPass`` at a time, one batch per pass of the service
/// loop: ten thousand writable callbacks in one pass would hold a player's next move behind
/// them for tens of milliseconds. A connection is in the line at most once (its
/// `ConnectionState/waitsInCrowd`); one that closed meanwhile is skipped when its turn comes.
struct CrowdLine {
  private var waiting: [ConnectionID] = []
  private var head = 0

  /// How many wait.
  var count: Int { waiting.count - head }

  var isEmpty: Bool { head == waiting.count }

  /// `id` waits at the end of the line.
  mutating func append(_ id: ConnectionID) { waiting.append(id) }

  /// The first one waiting, taken out of the line.
  mutating func next() -> ConnectionID? {
    guard head < waiting.count else { return nil }
    let id = waiting[head]
    head += 1
    if head == waiting.count {
      waiting.removeAll(keepingCapacity: waiting.capacity <= 65_536)
      head = 0
    } else if head >= 4096 && head * 2 >= waiting.count {
      waiting.removeFirst(head)
      head = 0
    }
    return id
  }
}
