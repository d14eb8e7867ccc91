import Protocol
import Testing

@testable import Lobby

/// The ring of recent diffs, as a value.
@Suite struct DiffRingTests {
  func frame(_ text: String) -> Frame { Frame(Array(text.utf8)) }

  /// The payloads of the diffs after `version` as `seat` saw them.
  func texts(_ ring: DiffRing, after version: Int, seat: Int?) -> [String]? {
    ring.diffs(after: version, seat: seat)?.map { String(decoding: $0.payload, as: UTF8.self) }
  }

  @Test func keepsTheLatestDiffsAndSaysWhenSomeAreGone() {
    var ring = DiffRing(capacity: 3)
    for version in 1...5 { ring.append(version: version, frame: frame("v\(version)")) }
    #expect(texts(ring, after: 2, seat: nil) == ["v3", "v4", "v5"])
    #expect(texts(ring, after: 4, seat: 0) == ["v5"])
    #expect(texts(ring, after: 1, seat: nil) == nil)
    ring.removeAll()
    #expect(texts(ring, after: 4, seat: nil) == nil)
  }

  @Test func eachSeatGetsItsOwnFrameOfADiffTheSeatsSawDifferently() {
    var ring = DiffRing(capacity: 4)
    ring.append(version: 1, frame: frame("all"))
    ring.setNewestSeatFrames([frame("seat 0"), frame("seat 1")])
    ring.append(version: 2, frame: frame("next"))
    #expect(texts(ring, after: 0, seat: 1) == ["seat 1", "next"])
    #expect(texts(ring, after: 0, seat: nil) == ["all", "next"])
    #expect(texts(ring, after: 0, seat: 5) == ["all", "next"])
  }

  /// Round and round: the ring holds what a list of the last `capacity` diffs holds, the
  /// newest's seat frames included, at every length.
  @Test func wrapsAroundLikeAListOfTheLatest() {
    for capacity in 1...4 {
      var ring = DiffRing(capacity: capacity)
      var kept: [(version: Int, seat0: String)] = []
      for version in 1...11 {
        ring.append(version: version, frame: frame("v\(version)"))
        ring.setNewestSeatFrames([frame("s\(version)")])
        kept = Array((kept + [(version, "s\(version)")]).suffix(capacity))
        let oldest = kept[0].version
        #expect(texts(ring, after: oldest - 1, seat: 0) == kept.map(\.seat0))
        #expect(texts(ring, after: oldest - 1, seat: nil) == kept.map { "v\($0.version)" })
        #expect(texts(ring, after: version, seat: nil) == [])
        #expect(texts(ring, after: oldest - 2, seat: nil) == nil)
      }
    }
  }
}
