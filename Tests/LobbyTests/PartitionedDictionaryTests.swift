import Lobby
import Testing

/// A dictionary kept in parts once large: the same answers as a `Dictionary` through any
/// changes, and no table of it, so no single growth, holding more than a small share of its
/// entries.
struct PartitionedDictionaryTests {
  typealias Parted = PartitionedDictionary<Int, Int>

  /// A small deterministic generator (xorshift), so that a failure repeats.
  struct Draws {
    var state: UInt64
    mutating func below(_ n: Int) -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(n))
    }
  }

  /// Its entries, each key once.
  func entries(_ dictionary: Parted) -> [Int: Int] {
    var out: [Int: Int] = [:]
    for (key, value) in dictionary {
      #expect(out.updateValue(value, forKey: key) == nil, "\(key) seen twice")
    }
    return out
  }

  @Test func answersAsADictionaryThroughGrowthAndRemovals() {
    var parted = Parted()
    var plain: [Int: Int] = [:]
    var draws = Draws(state: 0x9E37_79B9_7F4A_7C15)
    var splitAt: Int?
    // Mostly insertions over a widening range of keys, so it is split on the way; updates,
    // removals and lookups of keys there and not, in every form the type offers.
    for step in 0..<40_000 {
      let key = draws.below(step / 2 + 16)
      switch draws.below(10) {
      case 0..<6:
        #expect(parted.updateValue(step, forKey: key) == plain.updateValue(step, forKey: key))
      case 6:
        parted[key] = step
        plain[key] = step
      case 7:
        #expect(parted.removeValue(forKey: key) == plain.removeValue(forKey: key))
      case 8:
        parted[key] = nil
        plain[key] = nil
      default:
        parted[key, default: 0] += 1
        plain[key, default: 0] += 1
      }
      #expect(parted.count == plain.count)
      let probe = draws.below(step / 2 + 16)
      #expect(parted[probe] == plain[probe])
      #expect(parted.contains(probe) == (plain[probe] != nil))
      if splitAt == nil && parted.isSplit { splitAt = step }
      if step % 997 == 0 || step == splitAt {
        #expect(entries(parted) == plain)
        #expect(parted.isEmpty == plain.isEmpty)
      }
    }
    #expect(entries(parted) == plain)
    #expect(Set(parted.keys) == Set(plain.keys))
    #expect(parted.values.sorted() == plain.values.sorted())
    #expect(splitAt != nil, "never kept in parts")
  }

  /// Past ``PartitionedDictionary/partsFrom`` entries, the largest table (what one insertion
  /// can copy) holds a small share of them, while a `Dictionary` holds all in one.
  @Test func aLargeDictionaryGrowsAPartAtATime() {
    var parted = Parted()
    var plain: [Int: Int] = [:]
    for key in 0..<Parted.partsFrom - 1 {
      parted[key] = key
      #expect(!parted.isSplit)
    }
    parted[-1] = -1
    #expect(parted.isSplit)
    for key in Parted.partsFrom..<100_000 {
      parted[key] = key
      plain[key] = key
      if key % 5_000 == 0 {
        // A part holds about 1/64 of the entries; a table has room for twice its count at
        // most, and the parts' counts spread a little around their mean.
        let fair = parted.count / Parted.parts
        #expect(parted.largestTable <= 4 * fair + 64, "a table of \(parted.largestTable)")
      }
    }
    #expect(plain.capacity >= 100_000 - Parted.partsFrom)
    #expect(parted.count == 100_000)
    #expect((0..<Parted.partsFrom - 1).allSatisfy { parted[$0] == $0 })
    #expect((Parted.partsFrom..<100_000).allSatisfy { parted[$0] == $0 })
    #expect(parted[-1] == -1)
  }

  @Test func aSmallDictionaryIsOneTable() {
    var parted = Parted()
    for key in 0..<100 { parted[key] = key }
    #expect(!parted.isSplit)
    #expect(parted.largestTable >= 100)
  }

  @Test func removingAllLetsThePartsGo() {
    var parted = Parted()
    for key in 0..<5_000 { parted[key] = key }
    #expect(parted.isSplit)
    for key in 0..<4_000 { parted.removeValue(forKey: key) }
    #expect(parted.count == 1_000)
    #expect(parted.isSplit, "a dictionary that shrinks stays in parts")
    parted.removeAll()
    #expect(parted.isEmpty)
    #expect(!parted.isSplit)
    parted[1] = 1
    #expect(parted[1] == 1)
    #expect(Array(parted.keys) == [1])
  }

  @Test func aLiteralAndEquality() {
    let literal: Parted = [1: 10, 2: 20]
    var built = Parted()
    built[2] = 20
    built[1] = 10
    #expect(literal == built)
    built[1] = 11
    #expect(literal != built)
    var large = Parted()
    var other = Parted()
    for key in 0..<3_000 { large[key] = key }
    for key in (0..<3_000).reversed() { other[key] = key }
    #expect(large == other)
  }
}
