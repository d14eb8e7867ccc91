import Foundation
import Lobby
import Store
import Testing

/// Every store keeps arenas whole: the last entry of each is read back, those not over all of
/// them, those over only the latest ten (their final standings).
@Suite struct ArenaStoreTests {
  typealias Kind = JournalStoreTests.Kind

  static func arena(_ id: String, ends: Double, closed: Bool = false) -> Arena {
    var arena = Arena(
      id: id, game: "set", starts: ends - 600, ends: ends, name: "Set arena", code: "CODE\(id)")
    _ = arena.join(player: "ann", name: "Ann", rating: 1500, session: "hash-ann", now: ends - 600)
    if closed { arena.close() }
    return arena
  }

  @Test(arguments: Kind.allCases)
  func arenasAreReadBackWholeAndOnlyTheLatestOverAreKept(_ kind: Kind) throws {
    let (store, place) = try JournalStoreTests.make(kind)
    var running = Self.arena("a1", ends: 5000)
    try store.write([.arena(running)])
    _ = running.join(player: "bob", name: "Bob", rating: 1600, session: "hash-bob", now: 4500)
    try store.write([.arena(running)])
    for number in 0..<12 {
      try store.write([.arena(Self.arena("f\(number)", ends: Double(1000 + number), closed: true))])
    }
    let contents = try store.load()
    #expect(contents.arenas.filter { !$0.closed } == [running])
    #expect(
      contents.arenas.filter(\.closed).map(\.id) == (2..<12).map { "f\($0)" },
      "\(contents.arenas.map(\.id))")
    guard kind != .memory else { return }
    // A store opened again finds them.
    let (reopened, _) = try JournalStoreTests.make(kind, in: place)
    #expect(try reopened.load().arenas.first { $0.id == "a1" }?.entrants.count == 2)
  }
}
