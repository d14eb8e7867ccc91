import Model
import Testing

/// SplitMix64's first numbers for a few seeds, computed outside the project with an independent
/// implementation of the published algorithm. They pin the sequence: the load generator's bots
/// and the lobby fuzz target's entropy draw from it, and ``SeededGenerator`` is seeded by it.
@Suite("SplitMix64")
struct SplitMix64Tests {
  @Test(
    "The sequence is SplitMix64's",
    arguments: [
      (
        UInt64(0),
        [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F] as [UInt64]
      ),
      (UInt64(1), [0x910A_2DEC_8902_5CC1, 0xBEEB_8DA1_658E_EC67, 0xF893_A2EE_FB32_555E]),
      (UInt64(7), [0x63CB_E1E4_5932_0DD7, 0x044C_3CD7_F43C_661C, 0xE698_4080_BAB1_2A02]),
      (UInt64.max, [0xE4D9_7177_1B65_2C20, 0xE99F_F867_DBF6_82C9, 0x382F_F84C_B272_81E9]),
    ])
  func referenceValues(seed: UInt64, expected: [UInt64]) {
    var generator = SplitMix64(seed: seed)
    #expect((0..<3).map { _ in generator.next() } == expected)
  }
}
