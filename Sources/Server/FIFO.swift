/// A first-in first-out queue: an array and the position of its oldest element. The taken
/// prefix is let go once it is most of the storage, so each element costs O(1) amortized and
/// a drained queue does not keep a large array.
///
/// (swift-collections' `Deque` did this for ``Admission`` and ``AcceptPacing``, which only
/// append and take from the front: its modules were some 10 s of the debug build's CPU.)
struct FIFO<Element> {
  private var storage: [Element] = []
  private var head = 0

  /// How many elements wait.
  var count: Int { storage.count - head }

  /// Whether none waits.
  var isEmpty: Bool { head == storage.count }

  /// Adds `element` behind the others.
  mutating func append(_ element: Element) {
    storage.append(element)
  }

  /// The oldest element, taken out; nil when none waits.
  mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let first = storage[head]
    head += 1
    compact()
    return first
  }

  /// The `n` oldest elements (all of them when fewer wait), taken out, oldest first.
  mutating func removeFirst(upTo n: Int) -> [Element] {
    let end = head + min(max(0, n), count)
    let taken = Array(storage[head..<end])
    head = end
    compact()
    return taken
  }

  /// Every element, taken out, oldest first.
  mutating func removeAll() -> [Element] {
    removeFirst(upTo: count)
  }

  /// Lets go of the taken prefix: all of it once nothing waits, else once it is at least 64
  /// elements and half the storage.
  private mutating func compact() {
    if head == storage.count {
      storage.removeAll(keepingCapacity: storage.count <= 1024)
      head = 0
    } else if head >= 64 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
  }
}

extension FIFO: Sendable where Element: Sendable {}
