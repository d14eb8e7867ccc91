/// A dictionary that never stops to grow all at once: from ``partsFrom`` entries on, its
/// entries are spread by their hash over ``parts`` dictionaries, each of which grows on its own,
/// so an insertion that finds its part full copies that part's entries, a 64th of them.
///
/// A Swift `Dictionary` grows by copying and rehashing every entry at the insertion that finds
/// it full. For the lobby's and the transport's maps by connection, that insertion is one
/// decision of the service thread, which every player of the node waits behind: at 12,288
/// sessions a `hello` took 4-6 ms of CPU, at 49,152 some 21-25 ms (docs/BENCHMARKS.md, "Growing
/// without a pause"). In parts, the same growth is spread over the insertions that fill each
/// part, and none copies more than its part. Taking the full table's entries over a few at a
/// time instead (a second table read beside the first) was tried and measured: copying left
/// the old table's release to one change at the end (4-6 ms at 49,152 sessions), and taking
/// entries out rehashed their neighbours at each.
///
/// A large dictionary finds a key's part from ``PartitionKey/partitionBits``: a connection's
/// number, spread by a multiplication, or (the default) a second hash of the key: a session's
/// look-up by token hashes it twice, and a move costs some 2 % more instructions
/// (`scripts/callgrind-moves.sh`). Below ``partsFrom`` entries it is one `Dictionary`.
/// Iteration order is unspecified, as a `Dictionary`'s.
public struct PartitionedDictionary<Key: PartitionKey, Value> {
  /// Every entry while there are fewer than ``partsFrom``; empty once in parts.
  private var whole: [Key: Value]
  /// The parts, by the top bits of a key's ``PartitionKey/partitionBits``; none until the
  /// dictionary is large.
  private var split: [[Key: Value]] = []
  /// How many entries the parts hold in all.
  private var splitCount = 0

  /// From how many entries the dictionary is kept in parts.
  public static var partsFrom: Int { 512 }
  /// How many parts a large dictionary has (one for each value of a hash's top 6 bits).
  public static var parts: Int { 64 }

  /// An empty dictionary.
  public init() { whole = [:] }

  /// How many entries there are.
  public var count: Int { split.isEmpty ? whole.count : splitCount }

  public var isEmpty: Bool { count == 0 }

  /// Whether the entries are kept in parts.
  public var isSplit: Bool { !split.isEmpty }

  /// The most entries one insertion can copy now: the largest table's capacity.
  public var largestTable: Int {
    split.isEmpty ? whole.capacity : split.lazy.map(\.capacity).max() ?? 0
  }

  /// The part of `key`: the top bits of its ``PartitionKey/partitionBits``.
  @inline(__always)
  private static func part(of key: Key) -> Int {
    Int(truncatingIfNeeded: key.partitionBits >> (UInt.bitWidth - 6))
  }

  /// The value for `key`; setting nil removes it.
  public subscript(key: Key) -> Value? {
    @inline(__always) get {
      split.isEmpty ? whole[key] : split[Self.part(of: key)][key]
    }
    _modify {
      if split.isEmpty {
        yield &whole[key]
        if whole.count >= Self.partsFrom { splitUp() }
      } else {
        let part = Self.part(of: key)
        let before = split[part].count
        yield &split[part][key]
        splitCount += split[part].count - before
      }
    }
  }

  /// The value for `key`, or `defaultValue` when there is none.
  public subscript(key: Key, default defaultValue: @autoclosure () -> Value) -> Value {
    get { self[key] ?? defaultValue() }
    set { updateValue(newValue, forKey: key) }
  }

  /// Whether `key` has a value.
  @inline(__always)
  public func contains(_ key: Key) -> Bool {
    (split.isEmpty ? whole.index(forKey: key) : split[Self.part(of: key)].index(forKey: key))
      != nil
  }

  /// Sets the value for `key`; returns the value it replaced, if any.
  @discardableResult @inline(__always)
  public mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
    if split.isEmpty {
      let old = whole.updateValue(value, forKey: key)
      if old == nil && whole.count >= Self.partsFrom { splitUp() }
      return old
    }
    let old = split[Self.part(of: key)].updateValue(value, forKey: key)
    if old == nil { splitCount += 1 }
    return old
  }

  /// Removes the value for `key`; returns it, if there was one.
  @discardableResult @inline(__always)
  public mutating func removeValue(forKey key: Key) -> Value? {
    if split.isEmpty { return whole.removeValue(forKey: key) }
    let old = split[Self.part(of: key)].removeValue(forKey: key)
    if old != nil { splitCount -= 1 }
    return old
  }

  /// Removes every entry, letting the storage go.
  public mutating func removeAll() {
    whole = [:]
    split = []
    splitCount = 0
  }

  /// Spreads the entries over the parts (once, at ``partsFrom`` entries: a copy of so few is
  /// short). A dictionary that shrinks again stays in parts.
  private mutating func splitUp() {
    var parts = [[Key: Value]](repeating: [:], count: Self.parts)
    let each = 2 * whole.count / Self.parts
    for index in parts.indices { parts[index].reserveCapacity(each) }
    for (key, value) in whole { parts[Self.part(of: key)][key] = value }
    splitCount = whole.count
    split = parts
    whole = [:]
  }
}

extension PartitionedDictionary: Sequence {
  /// Every entry once, part after part.
  public struct Iterator: IteratorProtocol {
    let split: [[Key: Value]]
    var part: Int
    var current: Dictionary<Key, Value>.Iterator

    public mutating func next() -> (key: Key, value: Value)? {
      while true {
        if let entry = current.next() { return entry }
        part += 1
        guard part < split.count else { return nil }
        current = split[part].makeIterator()
      }
    }
  }

  public func makeIterator() -> Iterator {
    split.isEmpty
      ? Iterator(split: [], part: 0, current: whole.makeIterator())
      : Iterator(split: split, part: 0, current: split[0].makeIterator())
  }

  public var underestimatedCount: Int { count }

  /// Every key once.
  public var keys: Keys { Keys(entries: self) }

  /// Every value once.
  public var values: Values { Values(entries: self) }

  /// The keys, in the entries' order.
  public struct Keys: Sequence {
    let entries: PartitionedDictionary

    public struct Iterator: IteratorProtocol {
      var inner: PartitionedDictionary.Iterator

      public mutating func next() -> Key? { inner.next()?.key }
    }

    public func makeIterator() -> Iterator { Iterator(inner: entries.makeIterator()) }

    public var underestimatedCount: Int { entries.count }
  }

  /// The values, in the entries' order.
  public struct Values: Sequence {
    let entries: PartitionedDictionary

    public struct Iterator: IteratorProtocol {
      var inner: PartitionedDictionary.Iterator

      public mutating func next() -> Value? { inner.next()?.value }
    }

    public func makeIterator() -> Iterator { Iterator(inner: entries.makeIterator()) }

    public var underestimatedCount: Int { entries.count }
  }
}

extension PartitionedDictionary: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (Key, Value)...) {
    whole = Dictionary(uniqueKeysWithValues: elements)
  }
}

extension PartitionedDictionary: Sendable where Key: Sendable, Value: Sendable {}

extension PartitionedDictionary: Equatable where Value: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.key] == $0.value }
  }
}

/// A key a ``PartitionedDictionary`` can spread over its parts.
public protocol PartitionKey: Hashable {
  /// Bits whose top ones pick the key's part, evenly spread over the keys; not those a
  /// `Dictionary` picks its buckets from (the low bits of a hash seeded per table).
  var partitionBits: UInt { get }
}

extension PartitionKey {
  /// The key's hash: one more hashing of it per look-up.
  public var partitionBits: UInt { UInt(bitPattern: hashValue) }
}

extension String: PartitionKey {}

extension Int: PartitionKey {}

extension ConnectionID: PartitionKey {
  /// The connection's number times 2^64 over the golden ratio (Fibonacci hashing): numbers
  /// handed out one after the other fall into the parts in turn, for a multiplication.
  public var partitionBits: UInt { UInt(truncatingIfNeeded: rawValue &* 0x9E37_79B9_7F4A_7C15) }
}
