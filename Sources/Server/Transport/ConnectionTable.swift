import Lobby

/// The service thread's connections by id. A client's id names its slot in an array (its low
/// ``slotBits`` bits) above a number no other connection of the process had, so finding its
/// state is an index and a comparison; links, whose ids the lobby chooses
/// (``ConnectionID/link(_:)``), are few and kept in a dictionary.
///
/// A move looks connections up some eight times (each recipient's frame, each drain check):
/// in a `Dictionary`, each look-up hashed the id with the seeded hasher, ~210 instructions,
/// some 1,700 of a move's ~46,000 (`scripts/callgrind-moves.sh`, docs/BENCHMARKS.md). The array
/// grows by doubling like any array, copying its references (no rehash): at 100,000
/// connections some 800 KB once.
struct ConnectionTable {
  /// The bits of a client's id that name its slot: 16 million connections at once, far over
  /// any open-file limit.
  static let slotBits = 24
  private static let slotMask: UInt64 = (1 << slotBits) - 1
  /// The bits above the slot that count connections, below the link bit: 2^39 connections
  /// before a number comes round again (17 years at a thousand a second).
  private static let numberMask: UInt64 = (1 << (63 - slotBits)) - 1

  private var slots: [ConnectionState?] = []
  /// Slots free for new connections, the last freed taken first.
  private var freeSlots: [Int] = []
  private var links: [ConnectionID: ConnectionState] = [:]
  /// How many connections the table holds.
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  /// The id of a new client connection, its slot taken for it: `number` (unique in the
  /// process) above the slot. The caller stores its state under it next.
  mutating func newClientID(number: UInt64) -> ConnectionID {
    let slot: Int
    if let free = freeSlots.popLast() {
      slot = free
    } else {
      slot = slots.count
      slots.append(nil)
    }
    precondition(UInt64(slot) <= Self.slotMask, "more connections than slots")
    return ConnectionID(
      rawValue: (number & Self.numberMask) << UInt64(Self.slotBits) | UInt64(slot))
  }

  /// The state of connection `id`, or nil when it is not open (any more); setting nil removes
  /// it. A client's id must come from ``newClientID(number:)``.
  subscript(id: ConnectionID) -> ConnectionState? {
    get {
      id.isLink ? links[id] : held(id)
    }
    set {
      guard let newValue else {
        removeValue(forKey: id)
        return
      }
      precondition(newValue.id == id, "a connection's state is kept under its own id")
      if id.isLink {
        if links.updateValue(newValue, forKey: id) == nil { count += 1 }
        return
      }
      let slot = Self.slot(of: id)
      precondition(slot < slots.count, "a client's id comes from newClientID(number:)")
      if let held = slots[slot] {
        precondition(held.id == id, "a slot holds one connection at a time")
      } else {
        count += 1
      }
      slots[slot] = newValue
    }
  }

  /// Removes and returns connection `id`'s state; its slot is free for the next connection.
  @discardableResult
  mutating func removeValue(forKey id: ConnectionID) -> ConnectionState? {
    if id.isLink {
      let state = links.removeValue(forKey: id)
      if state != nil { count -= 1 }
      return state
    }
    guard let state = held(id) else { return nil }
    let slot = Self.slot(of: id)
    slots[slot] = nil
    freeSlots.append(slot)
    count -= 1
    return state
  }

  /// Every connection's state, in no particular order.
  var values: [ConnectionState] {
    slots.compactMap { $0 } + Array(links.values)
  }

  /// The state in client `id`'s slot, if the slot holds that connection (not an earlier or a
  /// later one).
  private func held(_ id: ConnectionID) -> ConnectionState? {
    let slot = Self.slot(of: id)
    guard slot < slots.count, let state = slots[slot], state.id == id else { return nil }
    return state
  }

  private static func slot(of id: ConnectionID) -> Int {
    Int(truncatingIfNeeded: id.rawValue & slotMask)
  }
}
