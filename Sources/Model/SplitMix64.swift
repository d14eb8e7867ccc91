/// SplitMix64: a tiny, fast generator whose whole state is one word, and the one copy of it in
/// the project.
///
/// ``SeededGenerator`` expands its seed with it; the load generator draws frame masks and bot
/// timings from it, and the lobby fuzz target its deterministic entropy. Its sequence for a seed
/// must never change: games, journals and fixtures depend on it.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
  /// The generator's state: the seed, advanced by a fixed odd step per number.
  @usableFromInline var state: UInt64

  /// A generator seeded with `seed`.
  @inlinable public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  @inlinable public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
