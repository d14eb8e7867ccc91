/// A small, fast pseudo-random generator (xoshiro256**) whose whole state is a value.
///
/// The game never uses the system generator or Swift's `shuffle(using:)`: their algorithms may
/// change between releases, and a game must replay identically from its seed forever.
public struct SeededGenerator: RandomNumberGenerator, Hashable, Sendable {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// Creates a generator whose sequence is fully determined by `seed`.
  public init(seed: UInt64) {
    // SplitMix64 expands the seed into four well-mixed, never-all-zero words.
    var expander = SplitMix64(seed: seed)
    s0 = expander.next()
    s1 = expander.next()
    s2 = expander.next()
    s3 = expander.next()
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    let result = rotateLeft(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotateLeft(s3, 45)
    return result
  }

  /// A uniformly distributed integer in `0..<upperBound` (Lemire's multiply-and-reject method).
  public mutating func below(_ upperBound: Int) -> Int {
    precondition(upperBound > 0, "upper bound must be positive")
    let bound = UInt64(upperBound)
    var product = next().multipliedFullWidth(by: bound)
    if product.low < bound {
      let threshold = (0 &- bound) % bound
      while product.low < threshold {
        product = next().multipliedFullWidth(by: bound)
      }
    }
    return Int(product.high)
  }

  /// Shuffles `elements` in place with the Fisher–Yates algorithm, using only this generator.
  public mutating func shuffle<Element>(_ elements: inout [Element]) {
    guard elements.count > 1 else { return }
    for i in stride(from: elements.count - 1, to: 0, by: -1) {
      let j = below(i + 1)
      if i != j { elements.swapAt(i, j) }
    }
  }

  private func rotateLeft(_ value: UInt64, _ amount: UInt64) -> UInt64 {
    (value << amount) | (value >> (64 - amount))
  }
}
