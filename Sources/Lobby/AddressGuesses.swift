/// Unknown invite codes tried from each client address, across its sessions (and, in a
/// cluster, across nodes: each node adds the misses the others report), draining over time: a
/// client cannot get a fresh allowance by opening a new session. Bounded: at most ``capacity``
/// addresses are kept; when a new one comes to a full book, the one that has drained the
/// longest makes room. A pure value.
struct AddressGuesses: Sendable, Equatable {
  /// Unknown codes one address may try in a burst.
  let burst: Int
  /// Seconds for one more unknown code to be allowed again.
  let refillSeconds: Double
  /// The most addresses kept.
  let capacity: Int
  private(set) var buckets: [String: InviteGuesses] = [:]

  init(burst: Int, refillSeconds: Double, capacity: Int) {
    precondition(burst > 0 && refillSeconds > 0 && capacity > 0)
    self.burst = burst
    self.refillSeconds = refillSeconds
    self.capacity = capacity
  }

  /// Whether `address` may try one more code at `now` (forgotten once it has drained).
  mutating func mayGuess(_ address: String, now: Double) -> Bool {
    guard var bucket = buckets[address] else { return true }
    bucket.drain(now: now, refillSeconds: refillSeconds)
    buckets[address] = bucket.isEmpty ? nil : bucket
    return bucket.level < Double(burst)
  }

  /// `address` tried `count` codes that no table has, at `now` (here or on another node).
  mutating func missed(_ address: String, count: Int = 1, now: Double) {
    if buckets[address] == nil && buckets.count >= capacity { makeRoom(now: now) }
    var bucket = buckets[address] ?? InviteGuesses(level: 0, updated: now)
    bucket.drain(now: now, refillSeconds: refillSeconds)
    bucket.level += Double(count)
    buckets[address] = bucket
  }

  /// Forgets every drained address, and if none has, the one that will drain first.
  private mutating func makeRoom(now: Double) {
    for (address, var bucket) in buckets {
      bucket.drain(now: now, refillSeconds: refillSeconds)
      buckets[address] = bucket.isEmpty ? nil : bucket
    }
    guard buckets.count >= capacity,
      let lowest = buckets.min(by: { $0.value.level < $1.value.level })?.key
    else { return }
    buckets[lowest] = nil
  }
}
