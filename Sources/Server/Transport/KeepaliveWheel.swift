/// When each connection's keepalive is next looked at: a hashed timing wheel of one-second
/// slots, so that scheduling, and looking at what came due, cost O(1) per connection no matter
/// how many connections there are.
///
/// It replaces lws' own keepalive (`retry_and_idle_policy`), which keeps one timer per
/// connection in lws' sorted timer list: every insertion walks that list from its head, and a
/// new connection's timer (the latest of all) walks all of it. With 15,000 connections that
/// made each handshake, ping and pong cost milliseconds, and seating 19,500 players stalled.
///
/// Entries are only ever added: a connection that proves itself alive is not moved. When its
/// slot comes due, the transport looks at the connection and schedules it again for what it
/// needs next (ping, hang-up, or another look). An entry for a connection that closed is simply
/// dropped then. A deadline more than `slotCount` seconds away lands in a slot that comes up
/// early; the transport then finds nothing due and schedules it again.
struct KeepaliveWheel {
  /// Slots, one per second modulo their count.
  private var slots: [[ConnectionID]]
  /// The first whole second not yet taken.
  private var nextSecond: Int

  /// A wheel of `slotCount` one-second slots whose first slot is the second of `now`.
  init(slotCount: Int, now: Double) {
    slots = Array(repeating: [], count: max(1, slotCount))
    nextSecond = Self.second(now)
  }

  /// Entries waiting in all slots.
  var count: Int { slots.reduce(0) { $0 + $1.count } }

  /// Looks at `id` again once `deadline` (monotonic seconds) has passed: in the first slot
  /// taken at or after it, and never in one already taken.
  mutating func schedule(_ id: ConnectionID, at deadline: Double) {
    let second = max(Self.second(deadline.rounded(.up)), nextSecond)
    slots[second % slots.count].append(id)
  }

  /// Moves the entries of every slot up to the second of `now` into `due` (in slot order) and
  /// empties those slots. At most one pass over the wheel, however late the call.
  mutating func takeDue(upTo now: Double, into due: inout [ConnectionID]) {
    let last = Self.second(now)
    guard last >= nextSecond else { return }
    let slotsToTake = min(last - nextSecond + 1, slots.count)
    for offset in 0..<slotsToTake {
      let index = (nextSecond + offset) % slots.count
      due.append(contentsOf: slots[index])
      // Keep the storage for the next round, unless a burst made it large.
      slots[index].removeAll(keepingCapacity: slots[index].capacity <= 4096)
    }
    nextSecond = last + 1
  }

  private static func second(_ time: Double) -> Int {
    guard time.isFinite else { return time > 0 ? Int.max / 2 : 0 }
    return Int(max(0, min(time, Double(Int.max / 4))).rounded(.down))
  }
}
