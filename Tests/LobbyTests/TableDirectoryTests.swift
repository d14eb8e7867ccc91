import Lobby
import Model
import Protocol
import Testing

@Suite struct TableDirectoryTests {
  static func row(
    _ id: String, seats: Int = 4, seated: Int = 1, spectators: Int = 0,
    phase: TablePhase = .waiting, game: String = "set"
  ) -> TableListing {
    TableListing(
      id: id, game: game, seats: seats, seated: seated, spectators: spectators, phase: phase)
  }

  @Test func theCodeAlphabetHasNoLookAlikes() {
    let alphabet = TableDirectory.codeAlphabet
    #expect(alphabet.count == 32)
    #expect(Set(alphabet).count == 32)
    for c in "IO01" { #expect(!alphabet.contains(c)) }
    #expect(alphabet.allSatisfy { ("A"..."Z").contains($0) || ("2"..."9").contains($0) })
  }

  @Test func codesAreTenCharactersOfTheAlphabetAndUnique() {
    var directory = TableDirectory()
    var random = SeededGenerator(seed: 3)
    var seen = Set<String>()
    for n in 0..<300 {
      let code = directory.newCode { random.below($0) }
      #expect(code.count == 10)
      #expect(code.allSatisfy { TableDirectory.codeAlphabet.contains($0) })
      #expect(!seen.contains(code))
      seen.insert(code)
      _ = directory.update(Self.row("t\(n)"), code: code, isPrivate: n % 2 == 0)
      #expect(directory.table(withCode: code) == "t\(n)")
    }
  }

  @Test func aCodeInUseIsDrawnAgain() {
    var directory = TableDirectory()
    // Draws "AAAAAA" twice, then "BBBBBB" (six-character codes keep the test short).
    var draws = Array(repeating: 0, count: 12) + Array(repeating: 1, count: 6)
    let first = directory.newCode(length: 6) { _ in draws.removeFirst() }
    #expect(first == "AAAAAA")
    _ = directory.update(Self.row("t1"), code: first, isPrivate: true)
    let second = directory.newCode(length: 6) { _ in draws.removeFirst() }
    #expect(second == "BBBBBB")
    #expect(draws.isEmpty)
    // Once the table is gone its code is free again.
    _ = directory.remove("t1")
    #expect(directory.table(withCode: "AAAAAA") == nil)
    var zeros = Array(repeating: 0, count: 6)
    #expect(directory.newCode(length: 6) { _ in zeros.removeFirst() } == "AAAAAA")
  }

  @Test func quickMatchPicksTheFullestWaitingPublicTableOfThatSize() {
    var directory = TableDirectory()
    let rows: [(TableListing, Bool)] = [
      (Self.row("t1", seated: 1), false),
      (Self.row("t2", seated: 2), false),
      (Self.row("t3", seated: 3), true),  // private
      (Self.row("t4", seated: 4), false),  // full
      (Self.row("t5", seated: 3, phase: .countdown), false),  // started
      (Self.row("t6", seated: 3, phase: .playing), false),
      (Self.row("t7", seats: 6, seated: 5), false),  // other size
      (Self.row("t8", seats: 4, seated: 3, game: "matchismo"), false),  // other game
      (Self.row("t9", seated: 3, phase: .finished), false),
    ]
    for (n, (row, isPrivate)) in rows.enumerated() {
      _ = directory.update(row, code: "CODE\(n)2", isPrivate: isPrivate)
    }
    #expect(directory.quickMatch(game: "set", seats: 4) == "t2")
    #expect(directory.quickMatch(game: "set", seats: 6) == "t7")
    #expect(directory.quickMatch(game: "set", seats: 2) == nil)
    #expect(directory.quickMatch(game: "matchismo", seats: 4) == "t8")
    #expect(directory.quickMatch(game: "chess", seats: 4) == nil)

    // t2 fills up: t1 is the fullest left.
    _ = directory.update(
      Self.row("t2", seated: 4, phase: .countdown), code: "CODE12", isPrivate: false)
    #expect(directory.quickMatch(game: "set", seats: 4) == "t1")
    _ = directory.remove("t1")
    #expect(directory.quickMatch(game: "set", seats: 4) == nil)
  }

  @Test func quickMatchBreaksTiesTheSameWayEveryTime() {
    var directory = TableDirectory()
    for id in ["t3", "t1", "t2"] {
      _ = directory.update(Self.row(id, seated: 2), code: "C\(id)AAA", isPrivate: false)
    }
    #expect(directory.quickMatch(game: "set", seats: 4) == "t1")
  }

  @Test func quickMatchPrefersTheOlderTableByNumberNotByText() {
    var directory = TableDirectory()
    for id in ["t10", "t9"] {
      _ = directory.update(Self.row(id, seated: 2), code: "C\(id)AA", isPrivate: false)
    }
    #expect(directory.quickMatch(game: "set", seats: 4) == "t9")
  }

  @Test func updatePublishesOnlyRealChangesOfPublicTables() {
    var directory = TableDirectory()
    let row = Self.row("t1", seated: 1)
    #expect(directory.update(row, code: "AAAAAA", isPrivate: false) == .upsert(row))
    #expect(directory.update(row, code: "AAAAAA", isPrivate: false) == nil)
    let fuller = Self.row("t1", seated: 2)
    #expect(directory.update(fuller, code: "AAAAAA", isPrivate: false) == .upsert(fuller))
    let watched = Self.row("t1", seated: 2, spectators: 1)
    #expect(directory.update(watched, code: "AAAAAA", isPrivate: false) == .upsert(watched))
    let started = Self.row("t1", seated: 2, spectators: 1, phase: .countdown)
    #expect(directory.update(started, code: "AAAAAA", isPrivate: false) == .upsert(started))
    #expect(directory.entry("t1")?.listing == started)
    #expect(directory.publicListings == [started])

    // A private table is never published, though it is known by its code.
    let secret = Self.row("t2", seated: 1)
    #expect(directory.update(secret, code: "BBBBBB", isPrivate: true) == nil)
    #expect(directory.update(Self.row("t2", seated: 2), code: "BBBBBB", isPrivate: true) == nil)
    #expect(directory.table(withCode: "BBBBBB") == "t2")
    #expect(directory.entry("t2")?.isPrivate == true)
    #expect(directory.publicListings == [started])
    // Updating changes no version: only publish does.
    #expect(directory.version == 0)
  }

  @Test func removeIsPublishedOnlyForPublicTables() {
    var directory = TableDirectory()
    _ = directory.update(Self.row("t1"), code: "AAAAAA", isPrivate: false)
    _ = directory.update(Self.row("t2"), code: "BBBBBB", isPrivate: true)
    #expect(directory.remove("t1") == .remove(id: "t1"))
    #expect(directory.remove("t2") == nil)
    #expect(directory.remove("t1") == nil)
    #expect(directory.remove("t9") == nil)
    #expect(directory.table(withCode: "AAAAAA") == nil)
    #expect(directory.table(withCode: "BBBBBB") == nil)
    #expect(directory.entry("t1") == nil)
    #expect(directory.publicListings.isEmpty)
  }

  @Test func publishBumpsTheVersion() {
    var directory = TableDirectory()
    #expect(directory.version == 0)
    #expect(directory.publish() == 1)
    #expect(directory.publish() == 2)
    #expect(directory.version == 2)
  }

  @Test func publicListingsAreOldestFirst() {
    var directory = TableDirectory()
    for n in [10, 2, 1, 11, 9] {
      _ = directory.update(Self.row("t\(n)"), code: "C\(n)AAAA", isPrivate: false)
    }
    #expect(directory.publicListings.map(\.id) == ["t1", "t2", "t9", "t10", "t11"])
  }
}
