import Protocol

/// Frames waiting to be written to one connection, bounded by a frame count and a byte count.
///
/// A first-in first-out queue that never allocates while empty and releases large storage once
/// drained, so idle connections stay small. `push` refuses a frame that would exceed either
/// limit; the transport then drops the whole queue and closes the connection ("too slow").
/// Each frame carries a tag: the crowd's sequence number when it was queued
/// (``ServiceLoop/crowdSequence``), which orders it among the frames of a crowd the connection
/// watches (``Crowd``).
struct OutboundQueue {
  /// Most frames that may wait.
  let frameLimit: Int
  /// Most payload bytes that may wait.
  let byteLimit: Int
  /// Waiting payload bytes.
  private(set) var byteCount = 0

  private var storage: [(frame: Frame, tag: UInt64)?] = []
  private var head = 0

  /// An empty queue with the given bounds.
  init(frameLimit: Int, byteLimit: Int) {
    self.frameLimit = frameLimit
    self.byteLimit = byteLimit
  }

  /// Number of waiting frames.
  var count: Int { storage.count - head }

  /// Whether nothing waits.
  var isEmpty: Bool { head == storage.count }

  /// The oldest frame, left in the queue.
  var first: Frame? { head < storage.count ? storage[head]?.frame : nil }

  /// The oldest frame's tag.
  var firstTag: UInt64? { head < storage.count ? storage[head]?.tag : nil }

  /// Appends `frame` unless that would exceed `frameLimit` or `byteLimit`.
  /// - Returns: `false` if the frame was refused (the queue is unchanged).
  mutating func push(_ frame: Frame, tag: UInt64 = 0) -> Bool {
    guard count < frameLimit, frame.count <= byteLimit - byteCount else { return false }
    storage.append((frame, tag))
    byteCount += frame.count
    return true
  }

  /// Puts `frames` (in tag order) among the waiting ones, in tag order: a crowd's frames that a
  /// connection leaving it had not seen. Not bounded: they were within the crowd's bounds.
  mutating func merge(_ frames: [(Frame, UInt64)]) {
    guard !frames.isEmpty else { return }
    var merged: [(frame: Frame, tag: UInt64)?] = []
    merged.reserveCapacity(count + frames.count)
    var next = frames.makeIterator()
    var pending = next.next()
    for index in head..<storage.count {
      guard let waiting = storage[index] else { continue }
      while let crowd = pending, crowd.1 < waiting.tag {
        merged.append(crowd)
        pending = next.next()
      }
      merged.append(waiting)
    }
    while let crowd = pending {
      merged.append(crowd)
      pending = next.next()
    }
    byteCount += frames.reduce(0) { $0 + $1.0.count }
    storage = merged
    head = 0
  }

  /// Removes and returns the oldest frame, or `nil` if the queue is empty.
  mutating func popFirst() -> Frame? {
    guard head < storage.count, let entry = storage[head] else { return nil }
    storage[head] = nil
    head += 1
    byteCount -= entry.frame.count
    if head == storage.count {
      // Drained: keep a small buffer for the next burst, give a large one back.
      storage.removeAll(keepingCapacity: storage.capacity <= 16)
      head = 0
    } else if head >= 32 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return entry.frame
  }

  /// Drops every waiting frame and releases the storage.
  mutating func removeAll() {
    storage = []
    head = 0
    byteCount = 0
  }
}
